// Host half of device_bits (see device_bits.cu): the same functions from vx_math.h (fn_table.h),
// compiled by the host compiler, for the bit-for-bit comparison with the GPU.
#include "tools/mathcheck/fn_table.h"

extern "C" float vxm_host_f32(int fn, float x) { return vxm_f32(fn, x); }
extern "C" float vxm_host_pow_f32(float x, float y) { return vx_pow_f32(x, y); }
extern "C" double vxm_host_f64(int fn, double x) { return vxm_f64(fn, x); }
extern "C" double vxm_host_pow_f64(double x, double y) { return vx_pow_f64(x, y); }
