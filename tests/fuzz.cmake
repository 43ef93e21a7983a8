# The libFuzzer harnesses of tests/fuzz (tests/fuzz/README.md), built in the sanitizer build
# (VX_FUZZ: clang, `tools/test --sanitize`). Each is a ctest test that runs it for a short,
# deterministic time (-seed=1 -runs=N) over its seed corpus (conformance/, fleet/) and its
# regression inputs (tests/fuzz/regressions/NAME): `tools/fuzz --ci`. `tools/fuzz` runs a long
# campaign. Included from the top-level CMakeLists.txt after `vx_core` is defined.

# tools/fuzz's replay of what a campaign saves (a timeout or slow unit that runs in time alone is
# no finding), with stand-in harnesses: no clang needed, so every build runs it.
add_test(NAME fuzz_replay
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/fuzz_replay_test.py ${PROJECT_SOURCE_DIR})

# OSS-Fuzz's build contract, run on this machine with clang (tests/oss_fuzz_test.py): build.sh,
# the project files, the dictionary against the grammar's tables, every harness built (all of vx
# once more, with clang-14 and ASan) and run on its seeds. The release build runs it (clang-14
# from tools/setup).
if(NOT VX_SANITIZE AND NOT VX_FUZZ_ENGINE)
  add_test(NAME oss_fuzz
    COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/oss_fuzz_test.py ${PROJECT_SOURCE_DIR})
  # The longest test (all of vx compiled once more, then eight harnesses run): started first, so
  # that the others run beside it instead of after it (ctest runs higher COST first).
  set_tests_properties(oss_fuzz PROPERTIES TIMEOUT 2400 COST 10000)
endif()

# NAME:RUNS — the harnesses, and the executions of each CI run (the seeds included), chosen so
# that all of them take about two to three minutes on two cores.
set(VX_FUZZ_RUNS parse:3000 check:2000 run:1000 emit_cuda:1500 uir:3000 expectations:20000
                 repl:600 machine:1500)

# OSS-Fuzz and ClusterFuzzLite (tests/fuzz/oss-fuzz/build.sh): VX_FUZZ_ENGINE holds the link flags
# of their fuzzing engine ($LIB_FUZZING_ENGINE); the sanitizers and coverage flags come in with
# CMAKE_CXX_FLAGS ($CXXFLAGS), so nothing is added here. Each harness is linked with the engine
# and an rpath to $ORIGIN/lib, where build.sh puts the shared libraries the fuzzing machine
# lacks; fuzz_expectations links only the runner's readers, so that it builds in seconds.
set(VX_FUZZ_ENGINE "" CACHE STRING "OSS-Fuzz: the fuzzing engine's link flags ($LIB_FUZZING_ENGINE)")
if(VX_FUZZ_ENGINE)
  separate_arguments(vx_fuzz_engine UNIX_COMMAND "${VX_FUZZ_ENGINE}")
  add_library(vx_fuzz_readers STATIC
    ${PROJECT_SOURCE_DIR}/src/cli/conformance_judge.cpp
    ${PROJECT_SOURCE_DIR}/src/cli/conformance_process.cpp
    ${PROJECT_SOURCE_DIR}/src/support/internal_error.cpp
    ${PROJECT_SOURCE_DIR}/src/support/json_input.cpp
    ${PROJECT_SOURCE_DIR}/src/support/source.cpp)
  target_include_directories(vx_fuzz_readers PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(vx_fuzz_readers PUBLIC nlohmann_json::nlohmann_json)
  set(vx_harnesses)
  foreach(pair ${VX_FUZZ_RUNS})
    string(REGEX REPLACE ":.*" "" harness "${pair}")
    list(APPEND vx_harnesses ${harness})
    add_executable(fuzz_${harness} ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz_${harness}.cpp)
    if(harness STREQUAL "expectations")
      target_link_libraries(fuzz_${harness} PRIVATE vx_fuzz_readers)
    else()
      target_link_libraries(fuzz_${harness} PRIVATE vx_core)
    endif()
    # DT_RPATH rather than RUNPATH: it also finds the libraries those libraries load (libedit's
    # libbsd) in $ORIGIN/lib.
    target_link_options(fuzz_${harness} PRIVATE ${vx_fuzz_engine} -Wl,--disable-new-dtags)
    set_target_properties(fuzz_${harness} PROPERTIES BUILD_RPATH "\$ORIGIN/lib")
  endforeach()
  # The list for build.sh, which builds every harness unless told which.
  list(JOIN vx_harnesses " " vx_harnesses)
  file(WRITE ${CMAKE_BINARY_DIR}/fuzz_harnesses.txt "${vx_harnesses}\n")
  return()
endif()

if(NOT VX_FUZZ)
  return()
endif()
foreach(pair ${VX_FUZZ_RUNS})
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 harness)
  list(GET pair 1 runs)
  add_executable(fuzz_${harness} ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz_${harness}.cpp)
  target_link_libraries(fuzz_${harness} PRIVATE vx_core)
  target_compile_options(fuzz_${harness} PRIVATE -fsanitize=fuzzer)
  target_link_options(fuzz_${harness} PRIVATE -fsanitize=fuzzer)
  add_test(NAME fuzz_${harness}
    COMMAND ${vx_python} ${PROJECT_SOURCE_DIR}/tools/fuzz --ci --runs ${runs}
            --build-dir ${CMAKE_BINARY_DIR} ${harness})
  set_tests_properties(fuzz_${harness} PROPERTIES TIMEOUT 600 LABELS fuzz)
endforeach()
