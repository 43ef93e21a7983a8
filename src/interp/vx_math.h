// vx_math.h — Vx's math routines (spec/math.md), one source for the host and the GPU.
// PROVISIONAL v0: the interface is final; the bodies are being replaced by the exact
// implementations (issue 8). Do not rely on the bits of this version.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define VX_MATH_DEVICE 1
#define VX_MATH_FN __device__ __forceinline__
#else
#define VX_MATH_DEVICE 0
#define VX_MATH_FN static inline
#endif

#if VX_MATH_DEVICE
#define VX_B(f) f
#else
#define VX_B(f) __builtin_##f
#endif

VX_MATH_FN float vx_exp_f32(float x) { return VX_B(expf)(x); }
VX_MATH_FN float vx_exp2_f32(float x) { return VX_B(exp2f)(x); }
VX_MATH_FN float vx_log_f32(float x) { return VX_B(logf)(x); }
VX_MATH_FN float vx_log2_f32(float x) { return VX_B(log2f)(x); }
VX_MATH_FN float vx_tanh_f32(float x) { return VX_B(tanhf)(x); }
VX_MATH_FN float vx_sin_f32(float x) { return VX_B(sinf)(x); }
VX_MATH_FN float vx_cos_f32(float x) { return VX_B(cosf)(x); }
VX_MATH_FN float vx_sqrt_f32(float x) { return VX_B(sqrtf)(x); }
VX_MATH_FN float vx_pow_f32(float x, float y) { return VX_B(powf)(x, y); }
VX_MATH_FN double vx_exp_f64(double x) { return VX_B(exp)(x); }
VX_MATH_FN double vx_exp2_f64(double x) { return VX_B(exp2)(x); }
VX_MATH_FN double vx_log_f64(double x) { return VX_B(log)(x); }
VX_MATH_FN double vx_log2_f64(double x) { return VX_B(log2)(x); }
VX_MATH_FN double vx_tanh_f64(double x) { return VX_B(tanh)(x); }
VX_MATH_FN double vx_sin_f64(double x) { return VX_B(sin)(x); }
VX_MATH_FN double vx_cos_f64(double x) { return VX_B(cos)(x); }
VX_MATH_FN double vx_sqrt_f64(double x) { return VX_B(sqrt)(x); }
VX_MATH_FN double vx_pow_f64(double x, double y) { return VX_B(pow)(x, y); }
VX_MATH_FN float vx_fast_exp_f32(float x) { return VX_B(expf)(x); }
VX_MATH_FN float vx_fast_tanh_f32(float x) { return VX_B(tanhf)(x); }
VX_MATH_FN float vx_floor_f32(float x) { return VX_B(floorf)(x); }
VX_MATH_FN float vx_ceil_f32(float x) { return VX_B(ceilf)(x); }
VX_MATH_FN float vx_round_f32(float x) { return VX_B(roundf)(x); }
VX_MATH_FN float vx_trunc_f32(float x) { return VX_B(truncf)(x); }
VX_MATH_FN float vx_abs_f32(float x) { return VX_B(fabsf)(x); }
VX_MATH_FN double vx_floor_f64(double x) { return VX_B(floor)(x); }
VX_MATH_FN double vx_ceil_f64(double x) { return VX_B(ceil)(x); }
VX_MATH_FN double vx_round_f64(double x) { return VX_B(round)(x); }
VX_MATH_FN double vx_trunc_f64(double x) { return VX_B(trunc)(x); }
VX_MATH_FN double vx_abs_f64(double x) { return VX_B(fabs)(x); }
