# The kernel rules' unit tests (tests/kernel_rules_test.cpp): the mixed-radix prover on the
# lesson's GEMM table and check-yourself cases, the index DAG, machine files, whole programs.
# Included from the top-level CMakeLists.txt, after `vx_core` is defined.
vx_doctest(kernel_rules_test WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# `vx run --check-races` over the corpus: no collision in an accepted program, and a refused
# disjointness program run with `--unchecked-kernels` is stopped (tests/race_check_corpus.sh).
add_test(NAME race_check_corpus
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/race_check_corpus.sh $<TARGET_FILE:vx>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
