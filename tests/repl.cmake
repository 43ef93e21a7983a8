# The REPL and `vx explain` (spec/cli.md §7–8, issue 6). Included from the top-level
# CMakeLists.txt after `vx_core` and `vx` are defined.
#
# 1. spec/errors.md is embedded in vx (the top-level CMakeLists.txt, vx_embed), so
#    `vx explain CODE` works from any directory.
# 2. explain_examples: every code of spec/errors.md has a section, every code the sources report
#    has one, and every example in it is refused with its marked code at its line, or accepted.
# 3. repl_unit_test: the continuation rule, completion, the code list, an in-process session.
# 4. repl_piped / repl_values / repl_interrupt / repl_inputs / repl_pty: sessions through piped
#    standard input (repl_values: how tensors, `:show`, `:vars` and `:type` of a fn print;
#    repl_interrupt: SIGINT stopping inputs, host loops on TBB threads included, and SIGINT while
#    idle; repl_inputs: where inputs end, diagnostics placed in what was typed, `.uir`, `:save`,
#    `:reload`, `:explain`) and through a pseudo-terminal (line editing, TAB completion, history).
# 5. repl_tmux: the lesson's session typed into `vx repl` in a detached tmux session, the screen
#    checked after each step (issue 16). It needs tmux (tools/setup installs it) and fails
#    without it: it never reports itself skipped.
vx_doctest(repl_unit_test)

add_test(NAME explain_examples
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/explain_examples.py $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR})
add_test(NAME repl_piped
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/repl_test.py piped $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR})
add_test(NAME repl_values
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/repl_test.py values $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR})
add_test(NAME repl_pty
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/repl_test.py pty $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR})
add_test(NAME repl_interrupt
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/repl_test.py interrupt
          $<TARGET_FILE:vx> ${PROJECT_SOURCE_DIR})
add_test(NAME repl_inputs
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/repl_test.py inputs $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR})
add_test(NAME repl_tmux
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/repl_tmux_test.py $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR})
# 6. repl_cut_inputs: inputs cut from every corpus program through the protocol; no
#    diagnostic points into the wrapper the REPL puts around an input (issue 39).
add_test(NAME repl_cut_inputs
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/repl_cut_inputs_test.py
          $<TARGET_FILE:vx> ${PROJECT_SOURCE_DIR})
# 7. explain_pager: `vx explain` laid out and paged on a terminal, Markdown when piped; the
#    human E6032 names its rule.
add_test(NAME explain_pager
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/explain_pager_test.py $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR})
set_tests_properties(explain_examples repl_piped repl_values repl_pty repl_interrupt repl_inputs
                     repl_tmux repl_cut_inputs explain_pager PROPERTIES TIMEOUT 300)
set_tests_properties(repl_pty PROPERTIES SKIP_RETURN_CODE 77)  # a machine without ptys
