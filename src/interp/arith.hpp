// Scalar arithmetic with Vx's meaning (spec/semantics.md §4–§6), for the interpreter's typed nodes
// and `.uir`: numeric/vx_arith.h's functions (the arithmetic every tier shares: wrapping
// integers, checked division and shifts, saturating casts, NaN-aware min/max), with the
// interpreter's runtime errors where they report an error, and f16/bf16 computed in f32 and
// rounded back. Header-only so that the typed nodes inline it.
#pragma once
#include <cmath>
#include <limits>
#include <string>

#include "check/tir.hpp"
#include "interp/runtime.hpp"
#include "numeric/arith.hpp"

namespace vx::interp {

template <class T>
inline bool is_nan(T v) {
  if constexpr (kIsHalf<T>)
    return std::isnan(to_f32(v));
  else if constexpr (std::is_floating_point_v<T>)
    return std::isnan(v);
  else
    return false;
}

// A half's value as f32 (exact); other types unchanged. `Wide<T>` is the type it computes in.
template <class T>
using Wide = std::conditional_t<kIsHalf<T>, float, T>;
template <class T>
inline Wide<T> widen(T v) {
  if constexpr (kIsHalf<T>)
    return to_f32(v);
  else
    return v;
}
template <class T>
inline T narrow(Wide<T> v) {
  if constexpr (kIsHalf<T>)
    return half_from_f32<T>(v);
  else
    return v;
}

std::string div_zero_message(tir::BinOp op);
[[noreturn]] void shift_error(Span span, bool left, uint64_t amount, bool amount_unsigned,
                              Scalar lhs);

// f16 and bf16 compute in f32 on their exact values and round back once.
template <class T>
inline T op_add(T a, T b) {
  if constexpr (kIsHalf<T>)
    return narrow<T>(widen(a) + widen(b));
  else
    return vx_add(a, b);
}
template <class T>
inline T op_sub(T a, T b) {
  if constexpr (kIsHalf<T>)
    return narrow<T>(widen(a) - widen(b));
  else
    return vx_sub(a, b);
}
template <class T>
inline T op_mul(T a, T b) {
  if constexpr (kIsHalf<T>)
    return narrow<T>(widen(a) * widen(b));
  else
    return vx_mul(a, b);
}
template <class T>
inline T op_div(T a, T b, Span span) {
  if constexpr (kIsHalf<T>) {
    return narrow<T>(widen(a) / widen(b));
  } else {
    int e = 0;
    const T r = vx_div(a, b, &e);
    if (e) runtime_error(span, div_zero_message(tir::BinOp::Div));
    return r;
  }
}
template <class T>
inline T op_rem(T a, T b, Span span) {
  if constexpr (kIsHalf<T>) {
    return narrow<T>(vx_frem(widen(a), widen(b)));
  } else {
    int e = 0;
    const T r = vx_rem(a, b, &e);
    if (e) runtime_error(span, div_zero_message(tir::BinOp::Rem));
    return r;
  }
}
template <class T>
inline T op_and(T a, T b) {
  return vx_band(a, b);
}
template <class T>
inline T op_or(T a, T b) {
  return vx_bor(a, b);
}
template <class T>
inline T op_xor(T a, T b) {
  return vx_bxor(a, b);
}
template <class T>
inline T op_neg(T a) {
  if constexpr (kIsHalf<T>)
    return T{static_cast<uint16_t>(a.bits ^ 0x8000)};
  else
    return vx_neg(a);
}
template <class T>
inline T op_not(T a) {
  return vx_bnot(a);
}

// The shift amount arrives as slot bits (sign- or zero-extended) of any integer type.
template <class T>
inline T op_shift(T a, uint64_t amount, bool amount_unsigned, bool left, Span span,
                  Scalar lhs_scalar) {
  int e = 0;
  const T r = left ? vx_shl(a, amount, &e) : vx_shr(a, amount, &e);
  if (e) shift_error(span, left, amount, amount_unsigned, lhs_scalar);
  return r;
}

template <class T>
inline bool cmp_eq(T a, T b) {
  if constexpr (kIsHalf<T>)
    return to_f32(a) == to_f32(b);
  else
    return a == b;
}
template <class T>
inline bool cmp_lt(T a, T b) {
  if constexpr (kIsHalf<T>)
    return to_f32(a) < to_f32(b);
  else
    return a < b;
}
template <class T>
inline bool cmp_le(T a, T b) {
  if constexpr (kIsHalf<T>)
    return to_f32(a) <= to_f32(b);
  else
    return a <= b;
}

template <class T, tir::BinOp Op>
inline constexpr bool kArithValid = (Op == tir::BinOp::Add || Op == tir::BinOp::Sub ||
                                     Op == tir::BinOp::Mul || Op == tir::BinOp::Div ||
                                     Op == tir::BinOp::Rem)
                                        ? (kIsInt<T> || kIsFloat<T>)
                                    : (Op == tir::BinOp::BitAnd || Op == tir::BinOp::BitOr ||
                                       Op == tir::BinOp::BitXor)
                                        ? (kIsInt<T> || std::is_same_v<T, bool>)
                                        : false;

// Applies an arithmetic or bitwise operator (not shifts, comparisons or && ||).
template <tir::BinOp Op, class T>
inline T apply_arith(T a, T b, Span span) {
  using tir::BinOp;
  if constexpr (Op == BinOp::Add)
    return op_add(a, b);
  else if constexpr (Op == BinOp::Sub)
    return op_sub(a, b);
  else if constexpr (Op == BinOp::Mul)
    return op_mul(a, b);
  else if constexpr (Op == BinOp::Div)
    return op_div(a, b, span);
  else if constexpr (Op == BinOp::Rem)
    return op_rem(a, b, span);
  else if constexpr (Op == BinOp::BitAnd)
    return op_and(a, b);
  else if constexpr (Op == BinOp::BitOr)
    return op_or(a, b);
  else
    return op_xor(a, b);
}

template <tir::BinOp Op, class T>
inline bool apply_cmp(T a, T b) {
  using tir::BinOp;
  if constexpr (Op == BinOp::Eq)
    return cmp_eq(a, b);
  else if constexpr (Op == BinOp::Ne)
    return !cmp_eq(a, b);
  else if constexpr (Op == BinOp::Lt)
    return cmp_lt(a, b);
  else if constexpr (Op == BinOp::Le)
    return cmp_le(a, b);
  else if constexpr (Op == BinOp::Gt)
    return cmp_lt(b, a);
  else
    return cmp_le(b, a);
}

// ---- Casts (`as`) -------------------------------------------------------------------------------

template <class To, class From>
inline To cast_value(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<From, bool>) {
    return cast_value<To, int32_t>(v ? 1 : 0);
  } else if constexpr (kIsInt<From>) {
    if constexpr (kIsInt<To>)
      return static_cast<To>(v);  // modular (C++20)
    else if constexpr (std::is_floating_point_v<To>)
      return vx_int_to_float<To>(v);
    else if constexpr (kIsHalf<To>) {
      return To{vx_int_to_half_bits(v, std::is_same_v<To, F16>)};
    } else {
      static_assert(sizeof(To) == 0, "no cast to bool");
    }
  } else {  // From is a float type
    if constexpr (kIsInt<To>) {
      return vx_saturate<To>(static_cast<double>(widen(v)));
    } else if constexpr (std::is_same_v<To, float>) {
      return vx_f64_to_f32(static_cast<double>(widen(v)));  // exact from f32 and the halves
    } else if constexpr (std::is_floating_point_v<To>) {
      return static_cast<To>(widen(v));  // to f64: exact
    } else if constexpr (kIsHalf<To>) {
      if constexpr (std::is_same_v<From, double>)
        return half_from_f64<To>(v);
      else
        return half_from_f32<To>(widen(v));
    } else {
      static_assert(sizeof(To) == 0, "no cast to bool");
    }
  }
}

// ---- Methods ------------------------------------------------------------------------------------

// Float min/max: a NaN operand is ignored; on equal values (-0.0, 0.0) the receiver is kept.
template <class T>
inline T method_max(T a, T b) {
  if constexpr (kIsHalf<T>)
    return (cmp_lt(a, b) || is_nan(a)) ? b : a;
  else
    return vx_maxm(a, b);
}
template <class T>
inline T method_min(T a, T b) {
  if constexpr (kIsHalf<T>)
    return (cmp_lt(b, a) || is_nan(a)) ? b : a;
  else
    return vx_minm(a, b);
}
template <class T>
inline T method_abs(T a) {
  if constexpr (kIsHalf<T>)
    return T{static_cast<uint16_t>(a.bits & 0x7fff)};
  else
    return vx_abs(a);
}
template <class T>
inline T int_pow(T base, uint32_t e) {
  return vx_ipow(base, e);
}

}  // namespace vx::interp
