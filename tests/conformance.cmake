# Tests of the value formatter and of the conformance runner, and the runner caught against a
# deliberately wrong implementation. Included from the top-level CMakeLists.txt, after the
# `vx_core` library and the `vx` executable are defined.
find_package(doctest QUIET)

foreach(test format_test conformance_runner_test)
  add_executable(${test} ${CMAKE_CURRENT_LIST_DIR}/${test}.cpp)
  target_link_libraries(${test} PRIVATE vx_core)
  if(TARGET doctest::doctest)
    target_link_libraries(${test} PRIVATE doctest::doctest)
  endif()
  add_test(NAME ${test} COMMAND ${test})
endforeach()

add_test(NAME conformance_wrong_impl
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/conformance_wrong_impl.sh $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR}/conformance
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
