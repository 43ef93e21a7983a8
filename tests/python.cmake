# The Python package vx (spec/python.md, python/). Included from the top-level CMakeLists.txt;
# nothing here without VX_PYTHON. The tests run under the Python the module is built for
# (Debian's /usr/bin/python3, which tools/setup gives pytest, NumPy, PyTorch, mpmath, nbclient),
# with the package as the build assembles it (build/python/vx).
#
# 1. python: tests/python_test.py under pytest — llm.c's GELU, layernorm and softmax called on
#    NumPy arrays and PyTorch tensors against independent references, zero-copy, every refusal
#    (against `vx call`'s own messages), the exceptions, warnings, Ctrl-C, the GIL, help(), CUDA
#    tensors used in place by the offload tier (through the stand-in driver).
# 2. python_notebook: notebooks/002_python_kernels.ipynb executed headless with nbclient on
#    ipykernel's python3 kernel, its outputs checked cell by cell (tests/python_notebook_test.py).
# 3. python_install: tools/python-install into a virtual environment and into a folder, as the
#    README says (tests/python_install_test.sh).
#
# Not in the sanitizer build (VX_SANITIZE; VX_PYTHON is off there by default, CMakeLists.txt):
# there the module would be compiled with ASan, UBSan and libFuzzer's coverage hooks, whose
# runtime a shared module does not carry — the executable must, so Python would have to start
# with clang's ASan runtime in LD_PRELOAD, and NumPy's and PyTorch's own libraries (not built for
# ASan) would run under it too; not tried. The C++ the module calls (pipeline/call.cpp, the
# pipeline, the interpreter) is tested there through `vx call` and `vx run`. With -DVX_PYTHON=ON
# the sanitizer build compiles the module (clang 14, no warnings) but registers no test.
if(NOT VX_PYTHON OR VX_SANITIZE)
  return()
endif()
set(vx_python_env "PYTHONPATH=${CMAKE_BINARY_DIR}/python" "VX_BINARY=$<TARGET_FILE:vx>"
    "PYTHONDONTWRITEBYTECODE=1")
add_test(NAME python
  COMMAND ${vx_python} -m pytest -q -p no:cacheprovider ${CMAKE_CURRENT_LIST_DIR}/python_test.py)
add_test(NAME python_notebook
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/python_notebook_test.py ${PROJECT_SOURCE_DIR})
set_tests_properties(python python_notebook PROPERTIES TIMEOUT 600 ENVIRONMENT "${vx_python_env}")
# CUDA tensors through the stand-in CUDA driver (tests/offload.cmake) run the kernels that
# cuda_host_test compiles for the host harness: after it.
set_tests_properties(python PROPERTIES DEPENDS cuda_host_test)
set_property(TEST python APPEND PROPERTY ENVIRONMENT
  "VX_FAKE_CUDA_DRIVER=${CMAKE_BINARY_DIR}/fake_cuda/libvx_fake_cuda.so"
  "VX_CUDA_HOST_DIR=${CMAKE_BINARY_DIR}/cuda_host")
add_test(NAME python_install
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/python_install_test.sh ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}
          ${vx_python})
# It runs ninja on this build (nothing to do once it is built): not beside another test that does.
set_tests_properties(python_install PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE
  ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
