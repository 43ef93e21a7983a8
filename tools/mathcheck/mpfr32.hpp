// MPFR's correctly rounded binary32 result (subnormals included), the reference of both the
// exhaustive checker (tools/mathcheck) and the sampled CI test (tests/math_test.cpp). One per
// thread: emin/emax are thread-local in Debian's MPFR.
#pragma once
#include <mpfr.h>

using MpfrFn = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

struct Mpfr32 {
  mpfr_t x, y, z;
  Mpfr32() {
    mpfr_set_emin(-148);
    mpfr_set_emax(128);
    mpfr_inits2(24, x, y, z, (mpfr_ptr)0);
  }
  ~Mpfr32() { mpfr_clears(x, y, z, (mpfr_ptr)0); }
  Mpfr32(const Mpfr32&) = delete;
  Mpfr32& operator=(const Mpfr32&) = delete;
  float unary(MpfrFn f, float in) {
    mpfr_set_flt(x, in, MPFR_RNDN);
    int t = f(y, x, MPFR_RNDN);
    mpfr_subnormalize(y, t, MPFR_RNDN);
    return mpfr_get_flt(y, MPFR_RNDN);
  }
  float pow(float a, float b) {
    mpfr_set_flt(x, a, MPFR_RNDN);
    mpfr_set_flt(z, b, MPFR_RNDN);
    int t = mpfr_pow(y, x, z, MPFR_RNDN);
    mpfr_subnormalize(y, t, MPFR_RNDN);
    return mpfr_get_flt(y, MPFR_RNDN);
  }
};
