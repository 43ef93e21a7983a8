# The machine protocol and the Jupyter kernel (spec/cli.md §7.3, issue 16). Included from the
# top-level CMakeLists.txt after `vx` is defined. Both run under Debian's /usr/bin/python3, which
# tools/setup gives ipykernel, nbclient and nbformat (python3 on PATH may be another one).
#
# 1. repl_protocol: `vx repl --protocol=jsonl` driven directly: values, refusals with their spans
#    in the request's code, `:check` tables, runtime errors, escaping, malformed requests,
#    completion, SIGINT.
# 2. notebook: tools/jupyter-install into a temporary prefix, then seed 001's lesson
#    (notebooks/001_global_and_local_loops.ipynb) executed headless with nbclient, its outputs
#    checked cell by cell.
add_test(NAME repl_protocol
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/repl_protocol_test.py $<TARGET_FILE:vx>)
add_test(NAME notebook
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/notebook_test.py $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR})
set_tests_properties(repl_protocol notebook PROPERTIES TIMEOUT 600)
