# The offload tier (spec/offload.md, issue 5). Included from the top-level CMakeLists.txt after
# `vx_core` and `vx` are defined.
#
# 1. The emitter prepends vx_math.h, vx_half.h and src/offload/vx_prelude.cuh to every kernel: both are
#    embedded in vx as string literals, generated here (copied only when they change).
# 2. offload_test: every region of every accepted corpus program is emitted and compiled by NVRTC
#    for sm_80 and sm_90 (skips with a message when libnvrtc cannot be found).
# 3. cuda_host_test: the same emitted source compiled by g++ (with UBSan) against
#    tests/cuda_host/cuda_host.hpp (one Boost.Context fiber per lane) and run against the
#    interpreter, bit for bit, error flags included; also tests/cuda_host/programs/.
set(VX_OFFLOAD_GEN ${CMAKE_BINARY_DIR}/generated/offload)
file(MAKE_DIRECTORY ${VX_OFFLOAD_GEN})
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/src/interp/vx_math.h ${PROJECT_SOURCE_DIR}/src/interp/vx_half.h
  ${PROJECT_SOURCE_DIR}/src/offload/vx_prelude.cuh)
foreach(pair "vx_math_text:src/interp/vx_math.h" "vx_half_text:src/interp/vx_half.h"
             "vx_prelude_text:src/offload/vx_prelude.cuh")
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 vx_inc_name)
  list(GET pair 1 vx_inc_src)
  file(READ ${PROJECT_SOURCE_DIR}/${vx_inc_src} vx_inc_text)
  file(WRITE ${VX_OFFLOAD_GEN}/${vx_inc_name}.inc.tmp "R\"vxembed(${vx_inc_text})vxembed\"\n")
  configure_file(${VX_OFFLOAD_GEN}/${vx_inc_name}.inc.tmp ${VX_OFFLOAD_GEN}/${vx_inc_name}.inc COPYONLY)
endforeach()
target_include_directories(vx_core PRIVATE ${CMAKE_BINARY_DIR}/generated)

vx_doctest(offload_test)
target_include_directories(offload_test PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_compile_definitions(offload_test PRIVATE VX_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
  VX_BINARY_DIR="${CMAKE_BINARY_DIR}")
add_dependencies(offload_test vx)
set_tests_properties(offload_test PROPERTIES TIMEOUT 600
  ENVIRONMENT "VX_CACHE_DIR=${CMAKE_BINARY_DIR}/kernel_cache")

# cuda_host_test compiles the emitted kernels with this compiler at run time and links them with
# Boost.Context (the fibers of tests/cuda_host/cuda_host.hpp).
find_library(VX_BOOST_CONTEXT_LIB boost_context HINTS ${Boost_LIBRARY_DIRS})
if(NOT VX_BOOST_CONTEXT_LIB)
  message(FATAL_ERROR "libboost_context not found (tools/setup installs libboost-context-dev): "
    "cuda_host_test runs the emitted kernels with it")
endif()
vx_doctest(cuda_host_test)
target_include_directories(cuda_host_test PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_compile_definitions(cuda_host_test PRIVATE VX_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
  VX_BINARY_DIR="${CMAKE_BINARY_DIR}" VX_HOST_CXX="${CMAKE_CXX_COMPILER}"
  VX_BOOST_INCLUDE="${Boost_INCLUDE_DIRS}" VX_BOOST_CONTEXT="${VX_BOOST_CONTEXT_LIB}")
target_link_libraries(cuda_host_test PRIVATE ${CMAKE_DL_LIBS})
set_tests_properties(cuda_host_test PROPERTIES TIMEOUT 900)

# A stand-in for libcuda.so.1 that runs launches on the host harness (tests/cuda_host/
# fake_libcuda.cpp): cuda_host_test runs `vx run --offload=verify|gpu` over the corpus with it.
# vx opens it by path (VX_CUDA_DRIVER); no SONAME, so that NVRTC's own dlopen("libcuda.so.1")
# does not find it among the loaded libraries.
add_library(fake_cuda MODULE ${CMAKE_CURRENT_LIST_DIR}/cuda_host/fake_libcuda.cpp)
set_target_properties(fake_cuda PROPERTIES OUTPUT_NAME vx_fake_cuda PREFIX lib SUFFIX .so NO_SONAME ON
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fake_cuda)
target_link_libraries(fake_cuda PRIVATE ${CMAKE_DL_LIBS})
add_dependencies(cuda_host_test fake_cuda vx)
target_compile_definitions(cuda_host_test PRIVATE VX_FAKE_CUDA_DIR="${CMAKE_BINARY_DIR}/fake_cuda")

# cuda_golden: the emitted CUDA of a chosen set of programs, byte for byte, against
# tests/cuda_golden/*.cu (tests/cuda_golden/README.md; `tests/cuda_golden.py --update VX` rewrites
# them).
if(Python3_EXECUTABLE)
  add_test(NAME cuda_golden
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/cuda_golden.py $<TARGET_FILE:vx>
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endif()
