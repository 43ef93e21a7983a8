# The kernel rules' unit tests (tests/kernel_rules_test.cpp): the mixed-radix prover on the
# lesson's GEMM table and check-yourself cases, the index DAG, machine files, whole programs.
# Included from the top-level CMakeLists.txt, after `vx_core` is defined.
vx_doctest(kernel_rules_test WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# `vx run --check-races` over the corpus: no collision in an accepted program, and a refused
# disjointness program run with `--unchecked-kernels` is stopped (tests/race_check_corpus.sh).
add_test(NAME race_check_corpus
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/race_check_corpus.sh $<TARGET_FILE:vx>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# The rule ids of E6032 (tests/kernel_rule_ids.py): spec/errors.md lists kernel_rules.def, every
# E6032 of the corpus carries one under --error-format=json, and every rule is reported by one.
add_test(NAME kernel_rule_ids
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/kernel_rule_ids.py $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR})
# Every collision note of E6032 names passes that get to the accesses: an `if`'s condition, a
# `break`, a `while`, a helper's `if`, a stepped loop (tests/collision_notes_test.py).
add_test(NAME collision_notes
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/collision_notes_test.py $<TARGET_FILE:vx>)
