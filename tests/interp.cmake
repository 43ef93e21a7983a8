# The interpreter's unit tests (tests/interp_test.cpp): programs through parse -> check -> run.
# Included from the top-level CMakeLists.txt, after `vx_core` is defined.
find_package(doctest QUIET)
add_executable(interp_test ${CMAKE_CURRENT_LIST_DIR}/interp_test.cpp)
target_link_libraries(interp_test PRIVATE vx_core)
if(TARGET doctest::doctest)
  target_link_libraries(interp_test PRIVATE doctest::doctest)
endif()
add_test(NAME interp_test COMMAND interp_test)
