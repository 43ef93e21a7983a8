// Host half of device_bits (see device_bits.cu): the same functions from vx_math.h, compiled by
// the host compiler, for the bit-for-bit comparison with the GPU.
#include "src/interp/vx_math.h"

extern "C" float vxm_host_f32(int fn, float x) {
  switch (fn) {
    case 0: return vx_exp_f32(x);
    case 1: return vx_exp2_f32(x);
    case 2: return vx_log_f32(x);
    case 3: return vx_log2_f32(x);
    case 4: return vx_tanh_f32(x);
    case 5: return vx_sin_f32(x);
    case 6: return vx_cos_f32(x);
    case 7: return vx_sqrt_f32(x);
    case 8: return vx_fast_exp_f32(x);
    default: return vx_fast_tanh_f32(x);
  }
}
extern "C" float vxm_host_pow_f32(float x, float y) { return vx_pow_f32(x, y); }
extern "C" double vxm_host_f64(int fn, double x) {
  switch (fn) {
    case 0: return vx_exp_f64(x);
    case 1: return vx_exp2_f64(x);
    case 2: return vx_log_f64(x);
    case 3: return vx_log2_f64(x);
    case 4: return vx_tanh_f64(x);
    case 5: return vx_sin_f64(x);
    case 6: return vx_cos_f64(x);
    default: return vx_sqrt_f64(x);
  }
}
extern "C" double vxm_host_pow_f64(double x, double y) { return vx_pow_f64(x, y); }
