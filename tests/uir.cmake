# The .uir tests (spec/uir.md): the lowering of every accepted corpus kernel compared bit for bit
# with the Vx program (tests/uir_test.cpp), and golden outputs of `vx check --explain` and `vx lower` (tests/uir_golden).
# The .uir corpus itself (conformance/uir) runs in `conformance_corpus`. Included from the
# top-level CMakeLists.txt, after `vx_core` and `vx` are defined.
vx_doctest(uir_test WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(uir_test PROPERTIES TIMEOUT 600)

add_test(NAME uir_golden
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/uir_golden.sh $<TARGET_FILE:vx>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
