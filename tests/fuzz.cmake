# The libFuzzer harnesses of tests/fuzz (tests/fuzz/README.md), built in the sanitizer build
# (VX_FUZZ: clang, `tools/test --sanitize`). Each is a ctest test that runs it for a short,
# deterministic time (-seed=1 -runs=N) over its seed corpus (conformance/, fleet/) and its
# regression inputs (tests/fuzz/regressions/NAME): `tools/fuzz --ci`. `tools/fuzz` runs a long
# campaign. Included from the top-level CMakeLists.txt after `vx_core` is defined.

# tools/fuzz's replay of what a campaign saves (a timeout or slow unit that runs in time alone is
# no finding), with stand-in harnesses: no clang needed, so every build runs it.
add_test(NAME fuzz_replay
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/fuzz_replay_test.py ${PROJECT_SOURCE_DIR})

if(NOT VX_FUZZ)
  return()
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)
# NAME:RUNS — the executions of each CI run (the seeds included), chosen so that all of them
# take about two to three minutes on two cores.
set(VX_FUZZ_RUNS parse:3000 check:2000 run:1000 emit_cuda:1500 uir:3000 expectations:20000
                 repl:600 machine:1500)
foreach(pair ${VX_FUZZ_RUNS})
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 harness)
  list(GET pair 1 runs)
  add_executable(fuzz_${harness} ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz_${harness}.cpp)
  target_link_libraries(fuzz_${harness} PRIVATE vx_core)
  target_compile_options(fuzz_${harness} PRIVATE -fsanitize=fuzzer)
  target_link_options(fuzz_${harness} PRIVATE -fsanitize=fuzzer)
  add_test(NAME fuzz_${harness}
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/fuzz --ci --runs ${runs}
            --build-dir ${CMAKE_BINARY_DIR} ${harness})
  set_tests_properties(fuzz_${harness} PROPERTIES TIMEOUT 600 LABELS fuzz)
endforeach()
