# The language tests: the conformance corpus through `vx conformance`, and the mutation fuzzer
# over the same corpus. Included from the top-level CMakeLists.txt.
add_test(NAME conformance_corpus
  COMMAND vx conformance --jobs 2 ${PROJECT_SOURCE_DIR}/conformance
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  set(vx_fuzz_memory)
  if(VX_SANITIZE)  # no `ulimit -v` under ASan (tests/sanitize.cmake), longer time limits
    set(vx_fuzz_memory --memory-mb 0 --check-timeout 20 --run-timeout 12)
  endif()
  add_test(NAME fuzz_corpus
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/fuzz-corpus $<TARGET_FILE:vx>
            ${PROJECT_SOURCE_DIR}/conformance --count 1000 --jobs 2 ${vx_fuzz_memory}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(fuzz_corpus PROPERTIES TIMEOUT 1200)
endif()

vx_doctest(check_test)
