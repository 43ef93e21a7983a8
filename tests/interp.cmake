# The interpreter's unit tests (tests/interp_test.cpp): programs through parse -> check -> run.
# Included from the top-level CMakeLists.txt, after `vx_core` is defined.
vx_doctest(interp_test)
