# Tests of the value formatter and of the conformance runner, and the runner caught against a
# deliberately wrong implementation. Included from the top-level CMakeLists.txt, after the
# `vx_core` library and the `vx` executable are defined.
foreach(test format_test conformance_runner_test)
  vx_doctest(${test})
endforeach()

add_test(NAME conformance_wrong_impl
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/conformance_wrong_impl.sh $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR}/conformance
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
