# The host tier (DESIGN §3.10): the corpus run with 1 and with 4 host threads gives the same bytes.
# Included from the top-level CMakeLists.txt, after the `vx` executable is defined.
add_test(NAME host_threads_corpus
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/host_threads_corpus.sh $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR}/conformance
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
