# The playground's engine (web/README.md): the interpreter tier of vx as WebAssembly, built by
# Debian's emscripten through `emcmake cmake -DVX_WASM=ON` (tools/playground does it). Parse, check
# (with the explain tables and the write maps), explain pages and the interpreter; no TBB host
# threads (VX_NO_HOST_THREADS: the blocks run in order), no REPL, no command line. The CUDA tier is
# compiled but never used: offload mode "off", and dlopen finds nothing in a browser.
if(NOT EMSCRIPTEN)
  message(FATAL_ERROR "VX_WASM builds with emscripten: emcmake cmake -DVX_WASM=ON …")
endif()

# The header-only libraries, each by its own folder: /usr/include itself must not be on em++'s
# path (glibc's headers would shadow emscripten's libc), so a folder of links names only them.
set(VX_WASM_INCLUDE ${CMAKE_BINARY_DIR}/header-only)
file(MAKE_DIRECTORY ${VX_WASM_INCLUDE})
foreach(entry boost nlohmann xxhash.h)
  if(NOT EXISTS /usr/include/${entry})
    message(FATAL_ERROR "VX_WASM needs /usr/include/${entry} (tools/setup installs it)")
  endif()
  file(CREATE_LINK /usr/include/${entry} ${VX_WASM_INCLUDE}/${entry} SYMBOLIC)
endforeach()

set(VX_WASM_SOURCES ${PROJECT_SOURCE_DIR}/src/pipeline/pipeline.cpp
                    ${PROJECT_SOURCE_DIR}/web/engine/engine.cpp)
foreach(layer support parse check lower rules interp offload uir)
  file(GLOB layer_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${layer}/*.cpp)
  list(APPEND VX_WASM_SOURCES ${layer_sources})
endforeach()

set(CMAKE_CXX_FLAGS_RELEASE "-O2")
add_executable(vx_engine ${VX_WASM_SOURCES})
# A unity build (tests/unity_check.py): the engine is built once, from scratch.
set_target_properties(vx_engine PROPERTIES OUTPUT_NAME vx_engine SUFFIX ".js" UNITY_BUILD ON)
target_include_directories(vx_engine PRIVATE ${PROJECT_SOURCE_DIR}/src ${VX_GEN})
target_include_directories(vx_engine SYSTEM PRIVATE ${VX_WASM_INCLUDE})
# XXH_INLINE_ALL: xxHash as a header (the kernel cache's keys; never reached here).
target_compile_definitions(vx_engine PRIVATE VX_NO_HOST_THREADS XXH_INLINE_ALL)
target_compile_options(vx_engine PRIVATE -fwasm-exceptions
                       "SHELL:-include ${PROJECT_SOURCE_DIR}/web/engine/libcxx_compat.hpp")
# The stack first in memory: a program deep enough to overflow it traps (the worker reports it and
# starts a fresh engine) instead of writing over the heap. 64 MiB holds the parser's deepest
# nesting and the interpreter's 10,000 nested calls.
target_link_options(vx_engine PRIVATE
  -fwasm-exceptions
  -Wl,--stack-first
  -sTOTAL_STACK=67108864
  -sINITIAL_MEMORY=134217728
  -sALLOW_MEMORY_GROWTH=1
  -sMODULARIZE=1
  -sEXPORT_NAME=createVxEngine
  -sENVIRONMENT=worker,node
  -sFILESYSTEM=0
  "-sEXPORTED_FUNCTIONS=['_vx_request','_vx_free','_malloc','_free']"
  "-sEXPORTED_RUNTIME_METHODS=['UTF8ToString','stringToUTF8','lengthBytesUTF8']")
