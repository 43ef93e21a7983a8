// IEEE binary16 (f16) and bfloat16 (bf16) as storage types: conversions to and from f32 (and from
// f64, in one rounding, so that `x as f16` on an f64 is not rounded twice). Round to nearest even,
// overflow to infinity, subnormals kept, NaN stays NaN (quiet). The routines are vx_half.h's, the
// same source the CUDA emitter prepends to every kernel: the interpreter, the formatter and the
// GPU read the same bits.
#pragma once
#include <cstdint>

#include "numeric/vx_math.h"
// vx_half.h needs vx_math.h first (its VX_MATH_FN), as in the prelude of emitted kernels.
#include "numeric/vx_half.h"

namespace vx {

inline uint16_t f32_to_f16_bits(float f) { return vx_f32_to_f16(f); }
inline uint16_t f64_to_f16_bits(double d) { return vx_f64_to_half(d, 1); }
inline float f16_bits_to_f32(uint16_t h) { return vx_f16_to_f32(h); }
inline uint16_t f32_to_bf16_bits(float f) { return vx_f32_to_bf16(f); }
inline uint16_t f64_to_bf16_bits(double d) { return vx_f64_to_half(d, 0); }
inline float bf16_bits_to_f32(uint16_t b) { return vx_bf16_to_f32(b); }

}  // namespace vx
