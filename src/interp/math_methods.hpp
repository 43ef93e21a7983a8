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
#define VX_M1(Id, f32, f64) \
  case BuiltinId::Id:       \
    return one.template operator()<float_fn<T, f32, f64>>();
    switch (id) {
      VX_M1(Sqrt, vx_sqrt_f32, vx_sqrt_f64)
      VX_M1(Exp, vx_exp_f32, vx_exp_f64)
      VX_M1(Exp2, vx_exp2_f32, vx_exp2_f64)
      VX_M1(Log, vx_log_f32, vx_log_f64)
      VX_M1(Log2, vx_log2_f32, vx_log2_f64)
      VX_M1(Tanh, vx_tanh_f32, vx_tanh_f64)
      VX_M1(Sin, vx_sin_f32, vx_sin_f64)
      VX_M1(Cos, vx_cos_f32, vx_cos_f64)
      VX_M1(FastExp, vx_fast_exp_f32, vx_exp_f64)  // f64 has no fast variant: exact
      VX_M1(FastTanh, vx_fast_tanh_f32, vx_tanh_f64)
      VX_M1(Floor, vx_floor_f32, vx_floor_f64)
      VX_M1(Ceil, vx_ceil_f32, vx_ceil_f64)
      VX_M1(Round, vx_round_f32, vx_round_f64)
      VX_M1(Trunc, vx_trunc_f32, vx_trunc_f64)
      case BuiltinId::Pow:
        return two.template operator()<float_fn2<T, vx_pow_f32, vx_pow_f64>>();
      default:
        break;
    }
#undef VX_M1
  }
  return none();
}

}  // namespace vx::interp
