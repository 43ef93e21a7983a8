// doctest's implementation, compiled once for every test program (vx_doctest_impl). Each program
// used to compile its own copy (DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN): in the sanitizer build that
// was about 20 s of a test program's 50.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
