// The math methods of spec/math.md (`x.sqrt()`, `x.max(y)`, …) as C++ functions of each element
// type, listed once: the method nodes (builtins.cpp) and the lane loops (compile_lane_loop.cpp)
// both take them from with_math_method. f16 and bf16 compute in f32 and round back (DESIGN §3.4).
#pragma once
#include "check/tir.hpp"
#include "interp/arith.hpp"

namespace vx::interp {

template <class T, float (*F32)(float), double (*F64)(double)>
T float_fn(T x) {
  if constexpr (std::is_same_v<T, double>)
    return F64(x);
  else if constexpr (std::is_same_v<T, float>)
    return F32(x);
  else
    return half_from_f32<T>(F32(to_f32(x)));
}
template <class T, float (*F32)(float, float), double (*F64)(double, double)>
T float_fn2(T x, T y) {
  if constexpr (std::is_same_v<T, double>)
    return F64(x, y);
  else if constexpr (std::is_same_v<T, float>)
    return F32(x, y);
  else
    return half_from_f32<T>(F32(to_f32(x), to_f32(y)));
}

// The method `id` on T: calls `one.template operator()<F>()` with F a `T (*)(T)`, or
// `two.template operator()<F>()` with F a `T (*)(T, T)`, and returns what it returns; returns
// `none()` when T has no such method here (integer `pow` takes a u32 exponent: builtins.cpp).
template <class T, class One, class Two, class None>
auto with_math_method(tir::BuiltinId id, One&& one, Two&& two, None&& none) {
  using tir::BuiltinId;
  switch (id) {
    case BuiltinId::Abs:
      return one.template operator()<method_abs<T>>();
    case BuiltinId::Min:
      return two.template operator()<method_min<T>>();
    case BuiltinId::Max:
      return two.template operator()<method_max<T>>();
    default:
      break;
  }
  if constexpr (kIsFloat<T>) {
    switch (id) {  // numeric/math.def's rows
#define VX_MATH_UNARY(Id, spelling, f32, f64) \
  case BuiltinId::Id:                         \
    return one.template operator()<float_fn<T, f32, f64>>();
#define VX_MATH_BINARY(Id, spelling, f32, f64) \
  case BuiltinId::Id:                          \
    return two.template operator()<float_fn2<T, f32, f64>>();
#include "numeric/math.def"
#undef VX_MATH_UNARY
#undef VX_MATH_BINARY
      default:
        break;
    }
  }
  return none();
}

}  // namespace vx::interp
