# The language tests: the conformance corpus through `vx conformance`, and the mutation fuzzer
# over the same corpus. Included from the top-level CMakeLists.txt.
add_test(NAME conformance_corpus
  COMMAND vx conformance --jobs 2 ${PROJECT_SOURCE_DIR}/conformance
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# VX_STRICT_NOTES: a collision note whose two passes do not reach one element is an internal
# error, not a dropped note (spec/kernel-rules.md §4), here and in the mutation fuzzer.
set_tests_properties(conformance_corpus PROPERTIES ENVIRONMENT "VX_STRICT_NOTES=1")

set(vx_fuzz_memory)
set(vx_fuzz_count 1000)
if(VX_SANITIZE)  # no `ulimit -v` under ASan (tests/sanitize.cmake), longer time limits
  set(vx_fuzz_memory --memory-mb 0 --check-timeout 20 --run-timeout 12)
  set(vx_fuzz_count 300)  # the release build runs 1000 (the sanitizer run keeps CI in 30 minutes)
endif()
add_test(NAME fuzz_corpus
  COMMAND ${vx_python} ${PROJECT_SOURCE_DIR}/tools/fuzz-corpus $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR}/conformance --count ${vx_fuzz_count} --jobs 2 ${vx_fuzz_memory}
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(fuzz_corpus PROPERTIES TIMEOUT 1200 ENVIRONMENT "VX_STRICT_NOTES=1")

vx_doctest(check_test)

# Deep expressions (spec/grammar.md §1.5): generated programs one past each depth limit are
# refused with E0003 at the stated place, the deepest accepted ones check and run.
add_test(NAME deep_exprs
  COMMAND ${vx_python} ${PROJECT_SOURCE_DIR}/tests/deep_exprs.py $<TARGET_FILE:vx>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(deep_exprs PROPERTIES TIMEOUT 600)

# Every expression form as a const's value, checked outside any function: a verdict (status 0,
# or 1 with coded, placed errors), never a crash (spec/semantics.md §1).
add_test(NAME const_contexts
  COMMAND ${vx_python} ${PROJECT_SOURCE_DIR}/tests/const_contexts.py $<TARGET_FILE:vx>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(const_contexts PROPERTIES TIMEOUT 300)

# The prover's integer paths at every i32/u32/i64/u64 extreme, in every position of an index and
# of a loop's bounds: exit status 0 or 1 and no internal error; under UBSan, no overflow.
add_test(NAME prover_extremes
  COMMAND ${vx_python} ${PROJECT_SOURCE_DIR}/tests/prover_extremes.py $<TARGET_FILE:vx>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(prover_extremes PROPERTIES TIMEOUT 300 ENVIRONMENT "VX_STRICT_NOTES=1")

# Comments never move a diagnostic: a block comment before each token of the first error's line
# (and the line before) of every refused corpus program (release build only: ~2,700 runs).
if(NOT VX_SANITIZE)
  add_test(NAME comment_spans
    COMMAND ${vx_python} ${PROJECT_SOURCE_DIR}/tests/comment_spans_test.py $<TARGET_FILE:vx>
            ${PROJECT_SOURCE_DIR}/conformance
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(comment_spans PROPERTIES TIMEOUT 300)
endif()

# Families of growing inputs (long names, many `|` alternatives, many stores under --map, long
# chains of lets) at N, 2N and 4N: time(4N) / time(N) under 8, where quadratic work gives 16
# (issue 35). Alone, so that other tests do not make the times noisy; the sanitizer build, slower
# in every size alike, takes the least of two runs instead of three.
if(VX_SANITIZE)
  set(vx_growth_runs 2)
else()
  set(vx_growth_runs 3)
endif()
add_test(NAME growth
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/growth_test.py $<TARGET_FILE:vx> --runs ${vx_growth_runs})
set_tests_properties(growth PROPERTIES TIMEOUT 300 RUN_SERIAL TRUE)

# `match` exhaustiveness (E0208 and the patterns it names) and unreachable patterns on random
# matches of small tuples, against a model that enumerates every value with numpy
# (tests/match_model_test.py).
add_test(NAME match_model
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/match_model_test.py $<TARGET_FILE:vx>)
set_tests_properties(match_model PROPERTIES TIMEOUT 300)

# The control-flow lints on random programs, each against a liveness or a reachability of its
# own in Python, and what they call dead or endless against runs: unused_assignments
# (tests/dead_store_model_test.py) and unconditional_recursion (tests/recursion_model_test.py).
add_test(NAME dead_store_model
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/dead_store_model_test.py $<TARGET_FILE:vx>)
add_test(NAME recursion_model
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/recursion_model_test.py $<TARGET_FILE:vx>)
# dead_code of structs, fields and consts on random uses of random structs and consts, in
# functions that `main` reaches and in functions never used, against what the test wrote
# (tests/dead_struct_model_test.py).
add_test(NAME dead_struct_model
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/dead_struct_model_test.py $<TARGET_FILE:vx>)
set_tests_properties(dead_store_model recursion_model dead_struct_model PROPERTIES TIMEOUT 300)
# unused_parens: the parentheses it warns of, taken away from the corpus's and the generator's
# programs, change nothing vx check or vx run says (tests/unused_parens_fix_test.py).
set(vx_parens_smith 40)
if(VX_SANITIZE)
  set(vx_parens_smith 10)  # the sanitizer build runs each program several times slower
endif()
add_test(NAME unused_parens_fix
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/unused_parens_fix_test.py $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR} --smith ${vx_parens_smith})
set_tests_properties(unused_parens_fix PROPERTIES TIMEOUT 300)

# E0220 for a constant divisor of zero or a constant shift amount out of range, on random
# operations of every integer type, against a model of when an operation stops and against the
# runtime with the same operands from variables (tests/always_stops_test.py).
add_test(NAME always_stops
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/always_stops_test.py $<TARGET_FILE:vx>)
set_tests_properties(always_stops PROPERTIES TIMEOUT 300)

# Checks of the source text, not of a build: the release build runs them (CI runs both builds,
# so the sanitizer build does not read the same files again).
if(NOT VX_SANITIZE)
  # Every C++ file in git follows .clang-format (issue 18).
  add_test(NAME format COMMAND ${CMAKE_CURRENT_LIST_DIR}/format_check.sh ${PROJECT_SOURCE_DIR})
  # The layers of src/ hold: includes only downward, internal headers only from their own folder,
  # the CMake libraries linking only downward (issue 18).
  add_test(NAME layers
           COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/layers_check.py ${PROJECT_SOURCE_DIR})
  # No call in src/ answers bad input with an exception: the checked forms instead (issue 14).
  add_test(NAME throwing_calls
           COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/throwing_calls_check.py ${PROJECT_SOURCE_DIR})
  # A pass names every kind of node it dispatches on: no `default:` in a switch over StmtKind or
  # ExprKind, no chain of boost::get tests over an AST variant's alternatives (issue 36).
  add_test(NAME dispatch
           COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/dispatch_check.py ${PROJECT_SOURCE_DIR})
  # No file of src/ over 1,000 lines: a file that grows past it is split by job (issue 36).
  add_test(NAME file_sizes
           COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/file_sizes_check.py ${PROJECT_SOURCE_DIR})
  # Every JSON vx reads goes through support/json_input.cpp, which limits its size and nesting.
  add_test(NAME json_input
           COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/json_input_check.py ${PROJECT_SOURCE_DIR})
  # No function of src/ that nothing calls: a refactor that leaves one behind fails (issue 36).
  add_test(NAME unused_functions
           COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/unused_functions_check.py ${PROJECT_SOURCE_DIR})
  # Every file of src/ fit to share a translation unit with the others (the unity builds): no
  # private function meets another file's name, no using-directive, no macro left defined.
  add_test(NAME unity
           COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/unity_check.py ${PROJECT_SOURCE_DIR})
  # No Python test leaves a temporary folder behind: checks.scratch_dir removes it at exit.
  add_test(NAME scratch_dirs
           COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/scratch_dirs_check.py ${PROJECT_SOURCE_DIR})
  # Every Python test runs on ${vx_python}, none on another Python or only where one is found.
  add_test(NAME python_runner
           COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/python_runner_check.py ${PROJECT_SOURCE_DIR})
  # Every Python file is clean under pyflakes: no unused import, no undefined name.
  add_test(NAME python_lint
           COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/python_lint_check.py ${PROJECT_SOURCE_DIR})
endif()

# Every section of spec/ has a test: a corpus program whose `// spec:` header names it, or for a
# section about vx's tools the tests its `<!-- tests: -->` line names (spec/cli.md §6.5).
add_test(NAME spec_coverage
  COMMAND vx conformance --coverage ${PROJECT_SOURCE_DIR}/conformance
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
