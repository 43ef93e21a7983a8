# The playground (web/README.md, issue 39): vx as WebAssembly in a static page, tested in
# Debian's chromium, headless, under puppeteer-core (web/package-lock.json). Included from the
# top-level CMakeLists.txt after `vx` is defined; not in the sanitizer build (the engine is built
# by emscripten, not by the sanitizer build's clang; its C++ is the C++ the sanitizers check).
#
# 1. playground_build: tools/playground --build-only (the engine with emscripten in build-wasm/,
#    npm ci, the page bundled into web/dist/). The fixture the two others need.
# 2. playground_browser: a student's session in the page (web/tests/browser.test.mjs): typing a
#    racy kernel shows E6032 inline with its rule; the map marks the colliding elements; fixing
#    it, running it, the map's tooltips, the explain tables, a runtime error's block and lane,
#    Stop on an endless loop, the step limit, an error page, a shared URL offline, a lesson
#    question.
# 3. playground_corpus: a sample of the conformance corpus (every 3rd program that runs without
#    flags) prints in the browser exactly its .stdout and what native `vx run` prints, and the
#    refused ones are refused at their markers' lines with their codes.
if(VX_SANITIZE)
  return()
endif()
add_test(NAME playground_build COMMAND ${PROJECT_SOURCE_DIR}/tools/playground --build-only)
set_tests_properties(playground_build PROPERTIES TIMEOUT 2400 FIXTURES_SETUP playground)
add_test(NAME playground_browser
  COMMAND node ${PROJECT_SOURCE_DIR}/web/tests/browser.test.mjs
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/web)
add_test(NAME playground_corpus
  COMMAND node ${PROJECT_SOURCE_DIR}/web/tests/corpus.test.mjs $<TARGET_FILE:vx> --every 3
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/web)
set_tests_properties(playground_browser playground_corpus PROPERTIES
  TIMEOUT 600 FIXTURES_REQUIRED playground)
