// The host's way in to vx_arith.h (the arithmetic of every tier): vx_math.h first, as in the
// prelude of emitted kernels, then vx_arith.h and vx_half.h.
#pragma once
#include "numeric/vx_math.h"
// vx_arith.h needs vx_math.h's VX_MATH_FN and vx_abs_f32 before it.
#include <type_traits>

#include "numeric/vx_arith.h"
#include "numeric/vx_half.h"

// The function of an operator (parse/operators.def's last column) as a callable object, and a
// call with the arguments its arity asks for: f(a, b), or f(a, b, &error) for `/` and `%`.
#define VX_ARITH_CALLABLE(fn) [](auto... args) -> decltype(fn(args...)) { return fn(args...); }
template <class F, class T>
inline T vx_apply(F f, T a, T b, int* error) {
  if constexpr (std::is_invocable_v<F, T, T, int*>)
    return f(a, b, error);
  else
    return f(a, b);
}

// Saturating float -> integer, NaN -> 0 (Rust), from the float's exact value.
template <class To>
inline To vx_saturate(double d) {
  constexpr bool s = std::is_signed_v<To>;
  if constexpr (sizeof(To) == 1)
    return static_cast<To>(s ? vx_sat_i8(d) : vx_sat_u8(d));
  else if constexpr (sizeof(To) == 2)
    return static_cast<To>(s ? vx_sat_i16(d) : vx_sat_u16(d));
  else if constexpr (sizeof(To) == 4)
    return static_cast<To>(s ? vx_sat_i32(d) : vx_sat_u32(d));
  else if constexpr (s)
    return static_cast<To>(vx_sat_i64(d));
  else
    return static_cast<To>(vx_sat_u64(d));
}

// An integer to f16 (`f16` true) or bf16 in one rounding: the bits (vx_half.h), from the value's
// sign and magnitude (the magnitude of i64's MIN is 2^63, which no signed type holds).
template <class From>
inline uint16_t vx_int_to_half_bits(From v, bool f16) {
  const bool negative = std::is_signed_v<From> && v < 0;
  const uint64_t magnitude = negative ? uint64_t{0} - static_cast<uint64_t>(static_cast<int64_t>(v))
                                      : static_cast<uint64_t>(v);
  return vx_int_to_half(negative, magnitude, f16);
}

// An integer to f32 or f64 in one rounding (vx_arith.h): never through a wider float first.
template <class To, class From>
inline To vx_int_to_float(From v) {
  if constexpr (std::is_same_v<To, float>)
    return std::is_signed_v<From> ? vx_i64_to_f32(static_cast<long long>(v))
                                  : vx_u64_to_f32(static_cast<unsigned long long>(v));
  else
    return std::is_signed_v<From> ? vx_i64_to_f64(static_cast<long long>(v))
                                  : vx_u64_to_f64(static_cast<unsigned long long>(v));
}
