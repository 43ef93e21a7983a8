// IEEE binary16 (f16) and bfloat16 (bf16) as storage types: conversions to and from f32 (and from
// f64, in one rounding, so that `x as f16` on an f64 is not rounded twice). Round to nearest even,
// overflow to infinity, subnormals kept, NaN stays NaN (quiet). Header-only and portable: the
// interpreter, the formatter and the CUDA emitter's host side all read the same bits.
#pragma once
#include <bit>
#include <cstdint>

namespace vx {

namespace half_detail {

// Rounds the finite, non-zero magnitude `mant * 2^exp2` (mant holds the significand with its
// leading one at bit `top`) to a format with `man_bits` fraction bits, exponent bias `bias` and
// maximum biased exponent `max_biased` (the infinity encoding). Returns the magnitude bits.
inline uint32_t round_magnitude(uint64_t mant, int top, int exp2, int man_bits, int bias,
                                int max_biased) {
  // Unbiased exponent of the leading bit.
  const int e = exp2 + top;
  int biased = e + bias;
  int shift;  // how many low bits of mant are dropped
  if (biased >= 1) {
    shift = top - man_bits;
  } else {
    // Subnormal: the result's unit is 2^(1 - bias - man_bits).
    shift = (1 - bias - man_bits) - exp2;
    biased = 0;
  }
  uint64_t kept;
  if (shift <= 0) {
    kept = mant << -shift;
  } else if (shift > 63) {
    kept = 0;  // far below half of the smallest subnormal
  } else {
    kept = mant >> shift;
    const uint64_t rest = mant & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    if (rest > half || (rest == half && (kept & 1))) ++kept;
  }
  if (biased == 0) {
    // kept < 2^man_bits is a subnormal; == 2^man_bits carried into the smallest normal, which
    // has the same encoding.
    return static_cast<uint32_t>(kept);
  }
  // kept holds the leading one at bit man_bits (or man_bits + 1 after a carry).
  if (kept >> (man_bits + 1)) {
    kept >>= 1;
    ++biased;
  }
  if (biased >= max_biased) return static_cast<uint32_t>(max_biased) << man_bits;
  return (static_cast<uint32_t>(biased) << man_bits) |
         static_cast<uint32_t>(kept & ((uint64_t{1} << man_bits) - 1));
}

inline int top_bit(uint64_t v) { return 63 - std::countl_zero(v); }

}  // namespace half_detail

inline uint16_t f32_to_f16_bits(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  const uint32_t abs = x & 0x7fffffff;
  if (abs >= 0x7f800000) {
    if (abs == 0x7f800000) return sign | 0x7c00;
    return static_cast<uint16_t>(sign | 0x7e00 | ((abs >> 13) & 0x3ff));  // quiet NaN, top payload
  }
  if (abs == 0) return sign;
  const int biased = static_cast<int>(abs >> 23);
  uint64_t mant = abs & 0x7fffff;
  int exp2;
  if (biased == 0) {
    exp2 = -149;
  } else {
    mant |= 0x800000;
    exp2 = biased - 150;
  }
  return static_cast<uint16_t>(
      sign | half_detail::round_magnitude(mant, half_detail::top_bit(mant), exp2, 10, 15, 31));
}

inline uint16_t f64_to_f16_bits(double d) {
  const uint64_t x = std::bit_cast<uint64_t>(d);
  const uint16_t sign = static_cast<uint16_t>((x >> 48) & 0x8000);
  const uint64_t abs = x & 0x7fffffffffffffffull;
  if (abs >= 0x7ff0000000000000ull) {
    if (abs == 0x7ff0000000000000ull) return sign | 0x7c00;
    return static_cast<uint16_t>(sign | 0x7e00 | ((abs >> 42) & 0x3ff));
  }
  if (abs == 0) return sign;
  const int biased = static_cast<int>(abs >> 52);
  uint64_t mant = abs & 0xfffffffffffffull;
  int exp2;
  if (biased == 0) {
    exp2 = -1074;
  } else {
    mant |= 0x10000000000000ull;
    exp2 = biased - 1075;
  }
  return static_cast<uint16_t>(
      sign | half_detail::round_magnitude(mant, half_detail::top_bit(mant), exp2, 10, 15, 31));
}

inline float f16_bits_to_f32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  const uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000 | (mant << 13));
  if (exp == 0) {
    if (mant == 0) return std::bit_cast<float>(sign);
    // Subnormal: normalise into an f32 normal.
    int e = -14;
    while (!(mant & 0x400)) {
      mant <<= 1;
      --e;
    }
    mant &= 0x3ff;
    return std::bit_cast<float>(sign | (static_cast<uint32_t>(e + 127) << 23) | (mant << 13));
  }
  return std::bit_cast<float>(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

inline uint16_t f32_to_bf16_bits(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7fffffff) > 0x7f800000) return static_cast<uint16_t>((x >> 16) | 0x40);  // quiet NaN
  // Adding 0x7fff plus the lowest kept bit rounds to nearest even; a carry into the exponent
  // is the correct rounding, up to infinity.
  return static_cast<uint16_t>((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

inline uint16_t f64_to_bf16_bits(double d) {
  const uint64_t x = std::bit_cast<uint64_t>(d);
  const uint16_t sign = static_cast<uint16_t>((x >> 48) & 0x8000);
  const uint64_t abs = x & 0x7fffffffffffffffull;
  if (abs >= 0x7ff0000000000000ull) {
    if (abs == 0x7ff0000000000000ull) return sign | 0x7f80;
    return static_cast<uint16_t>(sign | 0x7fc0 | ((abs >> 45) & 0x7f));
  }
  if (abs == 0) return sign;
  const int biased = static_cast<int>(abs >> 52);
  uint64_t mant = abs & 0xfffffffffffffull;
  int exp2;
  if (biased == 0) {
    exp2 = -1074;
  } else {
    mant |= 0x10000000000000ull;
    exp2 = biased - 1075;
  }
  return static_cast<uint16_t>(
      sign | half_detail::round_magnitude(mant, half_detail::top_bit(mant), exp2, 7, 127, 255));
}

inline float bf16_bits_to_f32(uint16_t b) {
  return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

}  // namespace vx
