# The offload tier (spec/offload.md, issue 5). Included from the top-level CMakeLists.txt after
# `vx_core` and `vx` are defined.
#
# 1. The emitter prepends the error codes of src/offload/kernel_errors.def, vx_math.h, vx_half.h
#    and src/offload/vx_prelude.cuh to every kernel (embedded by the top-level CMakeLists.txt,
#    vx_embed).
# 2. offload_test: every region of every accepted corpus program is emitted and compiled by NVRTC
#    for sm_80 and sm_90 (without libnvrtc it reports itself skipped, exit 77, which tools/test
#    refuses).
# 3. cuda_host_test: the same emitted source compiled by g++ (with UBSan) against
#    tests/cuda_host/cuda_host.hpp (one Boost.Context fiber per lane) and run against the
#    interpreter, bit for bit, error flags included; also tests/cuda_host/programs/.
vx_doctest(offload_test)
target_include_directories(offload_test PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_compile_definitions(offload_test PRIVATE VX_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
  VX_BINARY_DIR="${CMAKE_BINARY_DIR}")
add_dependencies(offload_test vx)
set_tests_properties(offload_test PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77
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
set_tests_properties(cuda_host_test PROPERTIES TIMEOUT 900 SKIP_RETURN_CODE 77)

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

# arith_tiers: numeric/vx_arith.h's arithmetic on every tier against a model written from the
# spec in Python (tests/arith_tiers_test.py): the constant folder and the interpreter on edge
# values of every operator and cast; kernels with every pair of 8-bit operands and every 16-bit
# integer cast, on the interpreter, through NVRTC and on the stand-in GPU. The sanitizer build
# runs the folder and the interpreter under UBSan and leaves the stand-in GPU to the release build.
if(VX_SANITIZE)
  set(vx_arith_gpu --no-gpu)
else()
  set(vx_arith_gpu)
endif()
add_test(NAME arith_tiers
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/arith_tiers_test.py $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR} ${vx_arith_gpu})
set_tests_properties(arith_tiers PROPERTIES TIMEOUT 900)

# emit_readable: `vx emit-cuda` keeps the Vx names, indents, writes #line, and --prelude
# (spec/offload.md §1.1); NVRTC compiles a program whose names clash with C++ and the emitter's.
add_test(NAME emit_readable
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/emit_readable_test.py $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR})

# emit_options: --no-opt's names and --opt-bisect-limit's decisions (spec/offload.md §1.2).
add_test(NAME emit_options
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/emit_options_test.py $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR})

# cuda_golden: FileCheck checks of the emitted CUDA (tests/cuda_golden/*.check, README.md there):
# the lines each program's features need, with each optimisation of the emitter off as well.
# LLVM's FileCheck (Debian's llvm-14-tools, which tools/setup installs) is required: without it
# the test fails, naming it, rather than skipping.
find_program(VX_FILECHECK NAMES FileCheck-14 FileCheck)
if(NOT VX_FILECHECK)
  set(VX_FILECHECK FileCheck-14)
endif()
add_test(NAME cuda_golden
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/cuda_golden.py $<TARGET_FILE:vx> ${VX_FILECHECK}
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
