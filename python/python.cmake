# The Python package `vx` (spec/python.md), included from the top-level CMakeLists.txt when
# VX_PYTHON is on. The package is assembled in build/python/vx/: the pure-Python files of
# python/vx/ copied there, beside the extension module `_vx` built from python/ext/. With
# PYTHONPATH=build/python, `import vx` finds it (the tests do this); tools/python-install copies
# that folder into the active virtual environment or the user's site-packages.
set(VX_PYTHON_PACKAGE ${CMAKE_BINARY_DIR}/python/vx)

pybind11_add_module(vx_python MODULE NO_EXTRAS
  ${PROJECT_SOURCE_DIR}/python/ext/module.cpp
  ${PROJECT_SOURCE_DIR}/python/ext/arguments.cpp
  ${PROJECT_SOURCE_DIR}/python/ext/results.cpp)
target_include_directories(vx_python PRIVATE ${PROJECT_SOURCE_DIR}/python/ext)
target_link_libraries(vx_python PRIVATE vx_core)
set_target_properties(vx_python PROPERTIES OUTPUT_NAME _vx
  LIBRARY_OUTPUT_DIRECTORY ${VX_PYTHON_PACKAGE})
# The module exports PyInit__vx alone: the static libraries' symbols stay inside it, so that
# another extension in the same process (PyTorch's bundled libraries) never binds to them.
target_link_options(vx_python PRIVATE -Wl,--exclude-libs,ALL)
# -Werror=switch and the project's warnings apply; pybind11's headers are system headers.

# The pure-Python files, copied beside the module at build time (only when they change).
file(GLOB vx_python_files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/python/vx/*)
set(vx_python_copies)
foreach(f ${vx_python_files})
  get_filename_component(name ${f} NAME)
  add_custom_command(OUTPUT ${VX_PYTHON_PACKAGE}/${name}
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${f} ${VX_PYTHON_PACKAGE}/${name}
    DEPENDS ${f} VERBATIM)
  list(APPEND vx_python_copies ${VX_PYTHON_PACKAGE}/${name})
endforeach()
add_custom_target(vx_python_files ALL DEPENDS ${vx_python_copies})
add_dependencies(vx_python vx_python_files)
