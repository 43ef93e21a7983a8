// The functions device_bits compares, by number: one table for both halves. Under nvcc
// (device_bits.cu) VX_MATH_FN makes them device functions; under g++ (device_bits_host.cpp) host
// functions, compiled with -ffp-contract=off as the interpreter is.
#pragma once
#include "src/numeric/vx_math.h"

VX_MATH_FN float vxm_f32(int fn, float x) {
  switch (fn) {
    case 0:
      return vx_exp_f32(x);
    case 1:
      return vx_exp2_f32(x);
    case 2:
      return vx_log_f32(x);
    case 3:
      return vx_log2_f32(x);
    case 4:
      return vx_tanh_f32(x);
    case 5:
      return vx_sin_f32(x);
    case 6:
      return vx_cos_f32(x);
    case 7:
      return vx_sqrt_f32(x);
    case 8:
      return vx_fast_exp_f32(x);
    default:
      return vx_fast_tanh_f32(x);
  }
}
VX_MATH_FN double vxm_f64(int fn, double x) {
  switch (fn) {
    case 0:
      return vx_exp_f64(x);
    case 1:
      return vx_exp2_f64(x);
    case 2:
      return vx_log_f64(x);
    case 3:
      return vx_log2_f64(x);
    case 4:
      return vx_tanh_f64(x);
    case 5:
      return vx_sin_f64(x);
    case 6:
      return vx_cos_f64(x);
    default:
      return vx_sqrt_f64(x);
  }
}
