# The REPL and `vx explain` (spec/cli.md §7–8, issue 6). Included from the top-level
# CMakeLists.txt after `vx_core` and `vx` are defined.
#
# 1. spec/errors.md is embedded in vx as a string literal (generated here, copied only when it
#    changes), so `vx explain CODE` works from any directory.
# 2. explain_examples: every code of spec/errors.md has a section, every code the sources report
#    has one, and every example in it is refused with its marked code at its line, or accepted.
# 3. repl_unit_test: the continuation rule, completion, the code list, an in-process session.
# 4. repl_piped / repl_pty: sessions through piped standard input and through a pseudo-terminal
#    (line editing, TAB completion, history).
set(VX_REPL_GEN ${CMAKE_BINARY_DIR}/generated/repl)
file(MAKE_DIRECTORY ${VX_REPL_GEN})
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/spec/errors.md)
file(READ ${PROJECT_SOURCE_DIR}/spec/errors.md vx_errors_md)
file(WRITE ${VX_REPL_GEN}/errors_md.inc.tmp "R\"vxembed(${vx_errors_md})vxembed\"\n")
configure_file(${VX_REPL_GEN}/errors_md.inc.tmp ${VX_REPL_GEN}/errors_md.inc COPYONLY)
target_include_directories(vx_core PRIVATE ${CMAKE_BINARY_DIR}/generated)
target_link_libraries(vx_core PUBLIC edit)  # src/repl/line_editor.cpp

vx_doctest(repl_unit_test)

find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME explain_examples
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/explain_examples.py $<TARGET_FILE:vx>
            ${PROJECT_SOURCE_DIR})
  add_test(NAME repl_piped
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/repl_test.py piped $<TARGET_FILE:vx>
            ${PROJECT_SOURCE_DIR})
  add_test(NAME repl_pty
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/repl_test.py pty $<TARGET_FILE:vx>
            ${PROJECT_SOURCE_DIR})
  set_tests_properties(explain_examples repl_piped repl_pty PROPERTIES TIMEOUT 300)
  set_tests_properties(repl_pty PROPERTIES SKIP_RETURN_CODE 77)  # a machine without ptys
endif()
