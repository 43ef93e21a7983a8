// The main of a test program that has none of its own (vx_doctest_main, a static library: a
// program that defines main, as skip_main.hpp does, never pulls this one in).
#include <doctest/doctest.h>

int main(int argc, char** argv) { return doctest::Context(argc, argv).run(); }
