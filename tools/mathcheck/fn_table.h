// The unary functions device_bits compares, numbered from numeric/math.def's rows: the exact and
// the rounding ones (the GPU must give the host's bits), then from VXM_FIRST_FAST the fast ones
// (approximate on the GPU: their distance is measured). One table for both halves: under nvcc
// (device_bits.cu) VX_MATH_FN makes them device functions; under g++ (device_bits_host.cpp) host
// functions, compiled with -ffp-contract=off as the interpreter is.
#pragma once
#include "src/numeric/vx_math.h"

enum {
#define VX_MATH_EXACT(Id, name, f32, f64, libm, mpfr) VXM_##Id,
#define VX_MATH_ROUNDING(Id, name, f32, f64) VXM_##Id,
#include "src/numeric/math.def"
#undef VX_MATH_EXACT
#undef VX_MATH_ROUNDING
  VXM_FIRST_FAST,
  VXM_BEFORE_FAST = VXM_FIRST_FAST - 1,
#define VX_MATH_FAST(Id, name, f32, f64) VXM_##Id,
#include "src/numeric/math.def"
#undef VX_MATH_FAST
  VXM_COUNT
};

// vxm_names[fn]: the method's name.
static const char* const vxm_names[] = {
#define VX_MATH_EXACT(Id, name, f32, f64, libm, mpfr) name,
#define VX_MATH_ROUNDING(Id, name, f32, f64) name,
#include "src/numeric/math.def"
#undef VX_MATH_EXACT
#undef VX_MATH_ROUNDING
#define VX_MATH_FAST(Id, name, f32, f64) name,
#include "src/numeric/math.def"
#undef VX_MATH_FAST
};

VX_MATH_FN float vxm_f32(int fn, float x) {
  switch (fn) {
#define VX_MATH_UNARY(Id, name, f32, f64) \
  case VXM_##Id:                          \
    return f32(x);
#include "src/numeric/math.def"
#undef VX_MATH_UNARY
  }
  return x;  // fn < VXM_COUNT
}
// The f64 functions below VXM_FIRST_FAST (a fast row's f64 is its exact function).
VX_MATH_FN double vxm_f64(int fn, double x) {
  switch (fn) {
#define VX_MATH_EXACT(Id, name, f32, f64, libm, mpfr) \
  case VXM_##Id:                                      \
    return f64(x);
#define VX_MATH_ROUNDING(Id, name, f32, f64) \
  case VXM_##Id:                             \
    return f64(x);
#include "src/numeric/math.def"
#undef VX_MATH_EXACT
#undef VX_MATH_ROUNDING
  }
  return x;  // fn < VXM_FIRST_FAST
}
