// vx_half.h — f16 (IEEE binary16) and bf16 as storage types, one source for the host and the GPU
// (spec/semantics.md: f16/bf16 compute in f32 and round back).
//
// Conversions to and from f32, and from f64 and from 64-bit integers in one rounding (so that
// `x as f16` on an f64 or an i64 is not rounded twice). Round to nearest, ties to even; overflow
// to infinity; subnormals kept; a NaN stays a NaN, made quiet, with the top bits of its payload.
// Only integer operations and bit casts, so host and device give the same bits. Needs vx_math.h
// first (VX_MATH_FN, the bit casts); prepended to every emitted kernel after it.
#pragma once

#ifndef VX_MATH_FN
#error "include vx_math.h before vx_half.h"
#endif

typedef unsigned short vx_u16;

// The position of the highest set bit of v != 0.
VX_MATH_FN int vx_half_top_bit(vx_u64 v) {
  int n = 0;
  if (v >> 32) {
    v >>= 32;
    n += 32;
  }
  if (v >> 16) {
    v >>= 16;
    n += 16;
  }
  if (v >> 8) {
    v >>= 8;
    n += 8;
  }
  if (v >> 4) {
    v >>= 4;
    n += 4;
  }
  if (v >> 2) {
    v >>= 2;
    n += 2;
  }
  if (v >> 1) n += 1;
  return n;
}

// Rounds the finite, non-zero magnitude mant * 2^exp2 (mant's leading one at bit `top`) to a
// format with `man_bits` fraction bits, exponent bias `bias` and `max_biased` the exponent of
// infinity. Returns the magnitude's bits.
VX_MATH_FN vx_u32 vx_half_round(vx_u64 mant, int top, int exp2, int man_bits, int bias,
                                int max_biased) {
  int biased = exp2 + top + bias;
  int shift;  // how many low bits of mant are dropped
  if (biased >= 1) {
    shift = top - man_bits;
  } else {  // subnormal: the result's unit is 2^(1 - bias - man_bits)
    shift = (1 - bias - man_bits) - exp2;
    biased = 0;
  }
  vx_u64 kept;
  if (shift <= 0) {
    kept = mant << -shift;
  } else if (shift > 63) {
    kept = 0;  // far below half of the smallest subnormal
  } else {
    kept = mant >> shift;
    const vx_u64 rest = mant & ((1ull << shift) - 1);
    const vx_u64 half = 1ull << (shift - 1);
    if (rest > half || (rest == half && (kept & 1))) ++kept;
  }
  // A subnormal that carried into the smallest normal has that normal's encoding already.
  if (biased == 0) return (vx_u32)kept;
  if (kept >> (man_bits + 1)) {  // the rounding carried into a new leading bit
    kept >>= 1;
    ++biased;
  }
  if (biased >= max_biased) return (vx_u32)max_biased << man_bits;
  return ((vx_u32)biased << man_bits) | (vx_u32)(kept & ((1ull << man_bits) - 1));
}

// f16: 10 fraction bits, bias 15; bf16: 7 fraction bits, bias 127.
#define VX_HALF_FORMAT(f16) ((f16) ? 10 : 7), ((f16) ? 15 : 127), ((f16) ? 31 : 255)

// A double's value in a half format, in one rounding.
VX_MATH_FN vx_u16 vx_f64_to_half(double d, int f16) {
  const vx_u64 x = vx_d2u(d);
  const vx_u16 sign = (vx_u16)((x >> 48) & 0x8000);
  const vx_u64 abs = x & 0x7fffffffffffffffull;
  const int man_bits = f16 ? 10 : 7;
  const vx_u16 inf = f16 ? 0x7c00 : 0x7f80;
  if (abs >= 0x7ff0000000000000ull) {
    if (abs == 0x7ff0000000000000ull) return (vx_u16)(sign | inf);
    return (vx_u16)(sign | inf | (1u << (man_bits - 1)) |
                    ((abs >> (52 - man_bits)) & ((1u << man_bits) - 1)));
  }
  if (abs == 0) return sign;
  const int biased = (int)(abs >> 52);
  vx_u64 mant = abs & 0xfffffffffffffull;
  int exp2 = -1074;
  if (biased != 0) {
    mant |= 0x10000000000000ull;
    exp2 = biased - 1075;
  }
  return (vx_u16)(sign | vx_half_round(mant, vx_half_top_bit(mant), exp2, VX_HALF_FORMAT(f16)));
}

VX_MATH_FN vx_u16 vx_f32_to_f16(float f) {
  const vx_u32 x = vx_f2u(f);
  const vx_u16 sign = (vx_u16)((x >> 16) & 0x8000);
  const vx_u32 abs = x & 0x7fffffff;
  if (abs >= 0x7f800000) {
    if (abs == 0x7f800000) return (vx_u16)(sign | 0x7c00);
    return (vx_u16)(sign | 0x7e00 | ((abs >> 13) & 0x3ff));  // quiet NaN, top payload
  }
  if (abs == 0) return sign;
  const int biased = (int)(abs >> 23);
  vx_u64 mant = abs & 0x7fffff;
  int exp2 = -149;
  if (biased != 0) {
    mant |= 0x800000;
    exp2 = biased - 150;
  }
  return (vx_u16)(sign | vx_half_round(mant, vx_half_top_bit(mant), exp2, VX_HALF_FORMAT(1)));
}

VX_MATH_FN vx_u16 vx_f32_to_bf16(float f) {
  const vx_u32 x = vx_f2u(f);
  if ((x & 0x7fffffff) > 0x7f800000) return (vx_u16)((x >> 16) | 0x40);  // quiet NaN
  // Adding 0x7fff plus the lowest kept bit rounds to nearest even; a carry into the exponent is
  // the correct rounding, up to infinity.
  return (vx_u16)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

// An integer -magnitude (negative) or magnitude in a half format, in one rounding.
VX_MATH_FN vx_u16 vx_int_to_half(int negative, vx_u64 magnitude, int f16) {
  vx_u32 bits = 0;
  if (magnitude != 0)
    bits = vx_half_round(magnitude, vx_half_top_bit(magnitude), 0, VX_HALF_FORMAT(f16));
  return (vx_u16)(bits | (negative ? 0x8000u : 0u));
}

VX_MATH_FN float vx_f16_to_f32(vx_u16 h) {
  const vx_u32 sign = (vx_u32)(h & 0x8000) << 16;
  const vx_u32 exp = (h >> 10) & 0x1f;
  vx_u32 mant = h & 0x3ff;
  if (exp == 0x1f) return vx_u2f(sign | 0x7f800000 | (mant << 13));
  if (exp == 0) {
    if (mant == 0) return vx_u2f(sign);
    int e = -14;  // a subnormal: normalised into an f32 normal
    while (!(mant & 0x400)) {
      mant <<= 1;
      --e;
    }
    return vx_u2f(sign | ((vx_u32)(e + 127) << 23) | ((mant & 0x3ff) << 13));
  }
  return vx_u2f(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

VX_MATH_FN float vx_bf16_to_f32(vx_u16 b) { return vx_u2f((vx_u32)b << 16); }

#undef VX_HALF_FORMAT
