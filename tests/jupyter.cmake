# The machine protocol and the Jupyter kernel (spec/cli.md §7.3, issue 16). Included from the
# top-level CMakeLists.txt after `vx` is defined. Run under Debian's /usr/bin/python3.
#
# 1. repl_protocol: `vx repl --protocol=jsonl` driven directly: values, refusals with their spans
#    in the request's code, `:check` tables, runtime errors, escaping, malformed requests,
#    completion, SIGINT.
add_test(NAME repl_protocol
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/repl_protocol_test.py $<TARGET_FILE:vx>)
set_tests_properties(repl_protocol PROPERTIES TIMEOUT 600)
