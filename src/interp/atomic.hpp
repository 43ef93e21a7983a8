// The atomics of spec/builtins.md §3 on one tensor element (DESIGN §3.8): the index check and the
// read-modify-write, shared by the atomic built-in (builtins.cpp) and the lane loop that runs an
// atomic for a chunk of lanes (compile_lane_loop.cpp). Real atomics (std::atomic_ref) whenever
// other host threads may run blocks at the same time.
#pragma once
#include <atomic>
#include <bit>
#include <string>
#include <string_view>

#include "interp/nodes.hpp"

namespace vx::interp {

inline std::memory_order to_order(int32_t o) {
  switch (static_cast<tir::AtomicOrdering>(o)) {
#define VX_ORDERING(Name, before, after, order) \
  case tir::AtomicOrdering::Name:               \
    return std::memory_order_##order;
#include "check/orderings.def"
#undef VX_ORDERING
  }
  return std::memory_order_seq_cst;
}
// C++ forbids release loads and acquire stores; those get the strongest order instead.
inline std::memory_order load_order(std::memory_order o) {
  return (o == std::memory_order_release || o == std::memory_order_acq_rel)
             ? std::memory_order_seq_cst
             : o;
}
inline std::memory_order store_order(std::memory_order o) {
  return (o == std::memory_order_acquire || o == std::memory_order_acq_rel)
             ? std::memory_order_seq_cst
             : o;
}

// The ordering argument (an i32 literal, AtomicOrdering) of an atomic or a fence.
inline std::memory_order ordering_of(const tir::Expr& e) {
  return to_order(e.kind == tir::ExprKind::Literal ? static_cast<int32_t>(e.lit.i) : 4);
}

// One atomic built-in on elements of T; floats are handled through their bits (so
// compare-and-swap compares bits, as spec/builtins.md §3 says) with CAS loops for the arithmetic.
template <class T>
struct AtomicOp {
  using Bits = std::conditional_t<std::is_same_v<T, float>, uint32_t, T>;
  tir::BuiltinId op = tir::BuiltinId::AtomicLoad;
  std::memory_order order = std::memory_order_seq_cst;
  Span span;
  std::string name;

  // From the call `atomic_…(&t, i, …, ordering)`.
  explicit AtomicOp(const tir::Expr& e)
      : op(e.builtin),
        order(ordering_of(*e.args.back())),
        span(e.span),
        name(tensor_name(*e.args[0])) {}
  AtomicOp() = default;

  static T val(Bits b) {
    if constexpr (std::is_same_v<T, float>)
      return std::bit_cast<float>(b);
    else
      return b;
  }
  static Bits bits(T v) {
    if constexpr (std::is_same_v<T, float>)
      return std::bit_cast<uint32_t>(v);
    else
      return v;
  }
  template <class F>
  static T rmw(std::atomic_ref<Bits> r, F fn, std::memory_order o) {
    Bits old = r.load(std::memory_order_relaxed);
    while (!r.compare_exchange_weak(old, bits(fn(val(old))), o, std::memory_order_relaxed)) {
    }
    return val(old);
  }

  // The index check, made before the value operands are evaluated.
  VX_FORCE_INLINE void check(const TensorView& v, uint64_t i, bool index_unsigned) const {
    if (i >= static_cast<uint64_t>(v.size)) [[unlikely]]
      index_error(span, name, 0, i, index_unsigned, v.size);
  }

  // Whether the integer fetch_add / fetch_sub may update the element without a lock: on one host
  // thread (or in the code outside across blocks) nothing runs at the same time, so the result
  // is the same.
  bool unlocked(const Frame& f) const {
    return kIsInt<T> &&
           (op == tir::BuiltinId::AtomicFetchAdd || op == tir::BuiltinId::AtomicFetchSub) &&
           !f.ctx->concurrent;
  }
  // Whether, with blocks running at once, a chunk of one thread's updates whose old values nobody
  // reads may be summed per element and made as one update each: integer fetch_add/fetch_sub
  // with Relaxed order. Wrapping sums are the same in any grouping and Relaxed promises no order
  // between updates of different elements, so the results are those of some run one update at a
  // time, and the same as the sequential run's once the region ends.
  bool combinable(const Frame& f) const {
    return kIsInt<T> &&
           (op == tir::BuiltinId::AtomicFetchAdd || op == tir::BuiltinId::AtomicFetchSub) &&
           order == std::memory_order_relaxed && f.ctx->concurrent;
  }
  // That update of *p (an initialised element); the old value.
  VX_FORCE_INLINE T add_unlocked(T* p, T a) const {
    using U = std::make_unsigned_t<std::conditional_t<kIsInt<T>, T, uint32_t>>;
    const T old = *p;
    *p = static_cast<T>(op == tir::BuiltinId::AtomicFetchAdd
                            ? static_cast<U>(static_cast<U>(old) + static_cast<U>(a))
                            : static_cast<U>(static_cast<U>(old) - static_cast<U>(a)));
    return old;
  }

  // The operation on element i of v (checked), with the value operands a and b (T{} when the
  // built-in has fewer); the old value as slot bits.
  VX_FORCE_INLINE uint64_t apply(Frame& f, const TensorView& v, uint64_t i, T a, T b) const {
    Bits* p = reinterpret_cast<Bits*>(v.data) + i;
    using tir::BuiltinId;
    if constexpr (kIsInt<T>) {
      if (unlocked(f) && (!v.init || v.init[i])) return to_bits<T>(add_unlocked(p, a));
      // A tensor this task sums privately (only such updates touch it in the loop, so the old
      // value returned is never read).
      if (PrivateSums* ps = f.ctx->private_sums) [[unlikely]] {
        if (uint64_t* sums = ps->find(v.data)) {
          const uint64_t d = static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(a));
          sums[i] += op == BuiltinId::AtomicFetchAdd ? d : uint64_t{0} - d;
          return 0;
        }
      }
    }
    std::atomic_ref<Bits> r(*p);
    if (op == BuiltinId::AtomicStore) {
      r.store(bits(a), store_order(order));
      if (v.init) std::atomic_ref<uint8_t>(v.init[i]).store(1, std::memory_order_relaxed);
      return 0;
    }
    if (v.init && !std::atomic_ref<uint8_t>(v.init[i]).load(std::memory_order_relaxed))
      uninit_error(span, name, v, static_cast<int64_t>(i));
    T old{};
    switch (op) {
      case BuiltinId::AtomicLoad:
        old = val(r.load(load_order(order)));
        break;
      case BuiltinId::AtomicSwap:
        old = val(r.exchange(bits(a), order));
        break;
      case BuiltinId::AtomicFetchAdd:
        if constexpr (kIsInt<T>)
          old = r.fetch_add(a, order);  // wraps, as atomics do in C++
        else
          old = rmw(
              r, [a](T x) { return op_add(x, a); }, order);
        break;
      case BuiltinId::AtomicFetchSub:
        if constexpr (kIsInt<T>)
          old = r.fetch_sub(a, order);
        else
          old = rmw(
              r, [a](T x) { return op_sub(x, a); }, order);
        break;
      case BuiltinId::AtomicFetchMax:
        old = rmw(
            r, [a](T x) { return method_max(x, a); }, order);
        break;
      case BuiltinId::AtomicFetchMin:
        old = rmw(
            r, [a](T x) { return method_min(x, a); }, order);
        break;
      case BuiltinId::AtomicCompareAndSwap: {
        Bits expected = bits(a);
        r.compare_exchange_strong(expected, bits(b), order);
        old = val(expected);  // the old value, whether or not it matched
        break;
      }
      default:
        internal_error("an atomic the table lacks");
    }
    return to_bits<T>(old);
  }
};

// Calls fn(T{}) with the element type of an atomic on a tensor of `s` (the types that have
// atomics: i32, u32, i64, u64, f32).
template <class F>
decltype(auto) with_atomic_scalar(Scalar s, const char* what, F&& fn) {
  switch (s) {
    case Scalar::I32:
      return fn(int32_t{});
    case Scalar::U32:
      return fn(uint32_t{});
    case Scalar::I64:
      return fn(int64_t{});
    case Scalar::U64:
      return fn(uint64_t{});
    case Scalar::F32:
      return fn(float{});
    default:
      internal_error(std::string(what) + " on an element type it lacks");
  }
}

}  // namespace vx::interp
