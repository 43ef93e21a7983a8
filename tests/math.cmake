# Exact math (issue 8, spec/math.md): math_test checks src/numeric/vx_math.h against MPFR on a
# million inputs per function and every special value. include()d from the top CMakeLists after
# enable_testing(). The exhaustive check is tools/mathcheck/run (not part of CI: hours on 2 cores).
find_library(VX_MPFR_LIBRARY mpfr)
find_library(VX_GMP_LIBRARY gmp)
find_path(VX_DOCTEST_INCLUDE_DIR doctest/doctest.h PATHS /usr/include)
find_package(Threads REQUIRED)
if(VX_MPFR_LIBRARY AND VX_GMP_LIBRARY AND VX_DOCTEST_INCLUDE_DIR)
  get_filename_component(VX_MATH_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
  add_executable(math_test "${CMAKE_CURRENT_LIST_DIR}/math_test.cpp")
  target_include_directories(math_test PRIVATE "${VX_MATH_ROOT}" "${VX_DOCTEST_INCLUDE_DIR}")
  target_compile_features(math_test PRIVATE cxx_std_20)
  # The header's f64 results are bit-exact only without FMA contraction (DESIGN 3.4).
  target_compile_options(math_test PRIVATE -ffp-contract=off)
  target_link_libraries(math_test PRIVATE "${VX_MPFR_LIBRARY}" "${VX_GMP_LIBRARY}" Threads::Threads
                                          vx_doctest_main)
  add_test(NAME math_test COMMAND math_test)
  set_tests_properties(math_test PROPERTIES TIMEOUT 300 LABELS math)
else()
  # Reported as skipped (exit 77), never left out silently; tools/test refuses a skipped test.
  message(WARNING "MPFR, GMP or doctest not found: math_test reports itself skipped")
  add_test(NAME math_test COMMAND sh -c "echo 'math_test: SKIPPED: MPFR, GMP or doctest not found (tools/setup installs them)'; exit 77")
  set_tests_properties(math_test PROPERTIES SKIP_RETURN_CODE 77 LABELS math)
endif()

# The generated constant tables of vx_math.h are what their generator prints (mpmath).
add_test(NAME math_tables COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/math_tables.py
                                  ${CMAKE_CURRENT_LIST_DIR}/..)
set_tests_properties(math_tables PROPERTIES TIMEOUT 120 LABELS math)
