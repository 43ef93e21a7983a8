// The interpreter's side of every row of check/builtins.def (spec/builtins.md): the `lanes::`
// block routines in the tree order of DESIGN §3.7, lanes::copy_async (§3.9), the atomics
// (std::atomic_ref, so that blocks running at once on host threads stay correct), scoped_fence,
// the math methods through vx_math.h, and the tensor queries len() and dim(k).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>

#include "interp/atomic.hpp"
#include "interp/compiler.hpp"
#include "interp/math_methods.hpp"

namespace vx::interp {
namespace {

using tir::BuiltinId;

template <class T>
T* scratch(int64_t n) {
  thread_local std::vector<T> buf;
  if (static_cast<int64_t>(buf.size()) < n) buf.resize(static_cast<size_t>(n));
  return buf.data();
}

// ---- lanes:: ------------------------------------------------------------------------------------

struct TileArgs {
  TensorOperand tile;
  IntOperand n;
  Span span;
  std::string name;
  const char* what;
  // The tile's elements and n, checked: 1 <= n <= size, t[0..n) initialised (unless `writes`).
  int64_t check(Frame& f, const TensorView& v, bool reads) const {
    const uint64_t nb = n.get(f);
    const bool negative = !n.is_unsigned && static_cast<int64_t>(nb) < 0;
    if (negative || nb == 0 || nb > static_cast<uint64_t>(v.size)) {
      runtime_error(span, std::string(what) + ": n is " + int_operand_text(nb, n.is_unsigned) +
                              (negative || nb == 0
                                   ? " but must be at least 1"
                                   : " but the tile has " + std::to_string(v.size) + " elements"));
    }
    const int64_t count = static_cast<int64_t>(nb);
    if (reads && v.init) {
      if (const void* at = std::memchr(v.init, 0, static_cast<size_t>(count)))
        uninit_error(span, name, v, static_cast<const uint8_t*>(at) - v.init);
    }
    return count;
  }
};

// A reduction's combining step (builtins.def's Reduce rows): `Step::apply(a, x)` is `a op x`.
struct SumStep {
  template <class T>
  static T apply(T a, T x) {
    return op_add(a, x);
  }
};
struct MaxStep {
  template <class T>
  static T apply(T a, T x) {
    return method_max(a, x);
  }
};

// One level of the tree: lo[i] = lo[i] op hi[i] for i < m, where lo and hi are the two halves of
// the level (disjoint). Eight at a time, a constant count that GCC's -O2 vectorises (each
// element's result is the same as one at a time: no element depends on another).
template <class Step, class T>
void combine_level(T* __restrict lo, const T* __restrict hi, int64_t m) {
  int64_t i = 0;
  for (; i + 8 <= m; i += 8)
    for (int k = 0; k < 8; ++k) lo[i + k] = Step::apply(lo[i + k], hi[i + k]);
  for (; i < m; ++i) lo[i] = Step::apply(lo[i], hi[i]);
}

template <class T, class Step>
struct LanesReduce final : ExprImpl<LanesReduce<T, Step>, T> {
  TileArgs a;
  T eval(Frame& f) const override {
    TensorSlot tmp;
    const TensorView& v = a.tile.get(f, tmp);
    const int64_t n = a.check(f, v, true);
    T* s = scratch<T>(n);
    std::memcpy(s, v.data, static_cast<size_t>(n) * sizeof(T));
    int64_t p = 1;
    while (p < n) p *= 2;
    // s[i] = s[i] op s[i + h] for i < h with i + h < n.
    for (int64_t h = p / 2; h >= 1; h /= 2) combine_level<Step>(s, s + h, std::min(h, n - h));
    return s[0];
  }
};

template <class T>
struct LanesArgmax final : ExprImpl<LanesArgmax<T>, int32_t> {
  TileArgs a;
  int32_t eval(Frame& f) const override {
    TensorSlot tmp;
    const TensorView& v = a.tile.get(f, tmp);
    const int64_t n = a.check(f, v, true);
    const T* t = reinterpret_cast<const T*>(v.data);
    int64_t best = 0;
    for (int64_t i = 1; i < n; ++i) {
      if ((is_nan(t[best]) && !is_nan(t[i])) || cmp_lt(t[best], t[i])) best = i;
    }
    return static_cast<int32_t>(best);
  }
};

template <class T>
struct LanesSort final : Node {
  TileArgs a;
  uint64_t eval_bits(Frame& f) const override {
    TensorSlot tmp;
    const TensorView& v = a.tile.get(f, tmp);
    const int64_t n = a.check(f, v, true);
    T* t = reinterpret_cast<T*>(v.data);
    // A total order (NaN last) so that std::sort is well-defined on any element type.
    std::stable_sort(t, t + n, [](T x, T y) {
      if (is_nan(x)) return false;
      if (is_nan(y)) return true;
      return cmp_lt(x, y);
    });
    return 0;
  }
};

// ---- copy_async ---------------------------------------------------------------------------------

// tile[k…] = src[start + k…], zero where start + k falls outside src; marks the tile written.
struct CopyAsync final : Node {
  TensorOperand tile;
  TensorOperand src;
  std::vector<IntOperand> start;
  int elem_size;
  Span span;
  uint64_t eval_bits(Frame& f) const override {
    TensorSlot t1, t2;
    const TensorView& tv = tile.get(f, t1);
    const TensorView& sv = src.get(f, t2);
    const int rank = tv.rank;
    if (sv.rank != rank || static_cast<int>(start.size()) != rank)
      runtime_error(span, "lanes::copy_async: the tile, the source and the index differ in rank");
    constexpr int64_t kFar = int64_t{1} << 62;  // beyond any dimension
    std::vector<int64_t> s(rank), k(rank, 0);
    for (int d = 0; d < rank; ++d) {
      const uint64_t b = start[d].get(f);
      int64_t x;
      if (start[d].is_unsigned)
        x = b > static_cast<uint64_t>(kFar) ? kFar : static_cast<int64_t>(b);
      else
        x = std::clamp(static_cast<int64_t>(b), -kFar, kFar);
      s[d] = x;
    }
    const int64_t inner = rank ? tv.dims[rank - 1] : 1;
    const int64_t src_inner = rank ? sv.dims[rank - 1] : 1;
    const int64_t lo = std::clamp<int64_t>(-s[rank - 1], 0, inner);
    const int64_t hi = std::clamp<int64_t>(src_inner - s[rank - 1], lo, inner);
    std::byte* out = tv.data;
    for (int64_t row = 0, rows = inner ? tv.size / inner : 0; row < rows; ++row) {
      bool inside = true;
      int64_t src_row = 0;  // linear row index in src
      for (int d = 0; d + 1 < rank; ++d) {
        const int64_t i = s[d] + k[d];
        if (i < 0 || i >= sv.dims[d]) inside = false;
        src_row = src_row * sv.dims[d] + (inside ? i : 0);
      }
      if (inside && hi > lo) {
        std::memset(out, 0, static_cast<size_t>(lo * elem_size));
        std::memcpy(out + lo * elem_size,
                    sv.data + (src_row * src_inner + s[rank - 1] + lo) * elem_size,
                    static_cast<size_t>((hi - lo) * elem_size));
        std::memset(out + hi * elem_size, 0, static_cast<size_t>((inner - hi) * elem_size));
      } else {
        std::memset(out, 0, static_cast<size_t>(inner * elem_size));
      }
      out += inner * elem_size;
      for (int d = rank - 2; d >= 0; --d) {  // next row: step the odometer of the outer dims
        if (++k[d] < tv.dims[d]) break;
        k[d] = 0;
      }
    }
    if (tv.init) std::memset(tv.init, 1, static_cast<size_t>(tv.size));
    return 0;
  }
};

struct Wait final : Node {
  const Node* token;
  uint64_t eval_bits(Frame& f) const override {
    token->eval_bits(f);
    return 0;
  }
};

// ---- Atomics ------------------------------------------------------------------------------------

template <class T>
struct Atomic final : Node {
  AtomicOp<T> atomic;
  TensorOperand tensor;
  IntOperand index;
  int values = 0;  // value operands: 0, 1 (v1) or 2 (v1, v2)
  OpAny<T> v1, v2;
  // `--check-races` (Compiler::record_races): the element is reported to the recorder, as the
  // recording index nodes do; otherwise nothing is added to the atomic's path.
  bool record = false;
  bool changes = true;  // not atomic_load
  std::string name;
  Span span;

  explicit Atomic(const tir::Expr& e)
      : atomic(e),
        changes(tir::builtin_writes_first(e.builtin)),
        name(tensor_name(*e.args[0])),
        span(e.span) {}
  uint64_t eval_bits(Frame& f) const override {
    if (tensor.slot >= 0) return apply(f, f.t[tensor.slot].view);
    TensorSlot tmp;
    return apply(f, tensor.node->place(f, tmp));
  }
  VX_FORCE_INLINE uint64_t apply(Frame& f, const TensorView& v) const {
    const uint64_t i = index.get(f);
    atomic.check(v, i, index.is_unsigned);
    const T a = values >= 1 ? v1.get(f) : T{};
    const T b = values >= 2 ? v2.get(f) : T{};
    if (record) record_access(f, v, static_cast<int64_t>(i), name, changes, span, true);
    return atomic.apply(f, v, i, a, b);
  }
};

struct Fence final : Node {
  std::memory_order order;
  uint64_t eval_bits(Frame&) const override {
    std::atomic_thread_fence(order);
    return 0;
  }
};

// ---- Math methods -------------------------------------------------------------------------------

template <class T, T (*F)(T)>
struct Method1 final : ExprImpl<Method1<T, F>, T> {
  const ExprT<T>* a;
  T eval(Frame& f) const override { return F(a->eval(f)); }
};
template <class T, T (*F)(T, T)>
struct Method2 final : ExprImpl<Method2<T, F>, T> {
  const ExprT<T>* a;
  const ExprT<T>* b;
  T eval(Frame& f) const override {
    const T x = a->eval(f);
    return F(x, b->eval(f));
  }
};
template <class T>
struct IntPow final : ExprImpl<IntPow<T>, T> {
  const ExprT<T>* a;
  const ExprT<uint32_t>* e;
  T eval(Frame& f) const override {
    const T x = a->eval(f);
    return int_pow(x, e->eval(f));
  }
};

template <class T>
const Node* math(Compiler& c, const tir::Expr& e) {
  if constexpr (kIsInt<T>) {
    if (e.builtin == BuiltinId::Pow) {
      auto* n = c.make<IntPow<T>>();
      n->a = c.scalar<T>(*e.args[0]);
      n->e = c.scalar<uint32_t>(*e.args[1]);
      return n;
    }
  }
  return with_math_method<T>(
      e.builtin,
      [&]<T (*F)(T)>() -> const Node* {
        auto* n = c.make<Method1<T, F>>();
        n->a = c.scalar<T>(*e.args[0]);
        return n;
      },
      [&]<T (*F)(T, T)>() -> const Node* {
        auto* n = c.make<Method2<T, F>>();
        n->a = c.scalar<T>(*e.args[0]);
        n->b = c.scalar<T>(*e.args[1]);
        return n;
      },
      [&]() -> const Node* {
        internal_error(std::string("the method ") + tir::builtin_spelling(e.builtin) + " on " +
                       scalar_info(e.args[0]->type.scalar).name);
      });
}

// ---- Queries ------------------------------------------------------------------------------------

struct Len final : ExprImpl<Len, int32_t> {
  TensorOperand tensor;
  int32_t eval(Frame& f) const override {
    TensorSlot tmp;
    const TensorView& v = tensor.get(f, tmp);
    return v.rank ? static_cast<int32_t>(v.dims[0]) : 0;
  }
};

struct Dim final : ExprImpl<Dim, int32_t> {
  TensorOperand tensor;
  IntOperand k;
  Span span;
  int32_t eval(Frame& f) const override {
    TensorSlot tmp;
    const TensorView& v = tensor.get(f, tmp);
    const uint64_t kb = k.get(f);
    if (kb >= static_cast<uint64_t>(v.rank))
      runtime_error(span, "dim " + int_operand_text(kb, k.is_unsigned) + " of a tensor of rank " +
                              std::to_string(v.rank));
    return static_cast<int32_t>(v.dims[kb]);
  }
};

// ---- builtins.def's interp column ---------------------------------------------------------------

// The node N<T> for a `lanes::` routine on a tile of T (a number).
template <template <class> class N>
const Node* on_tile(Compiler& c, const tir::Expr& e) {
  const char* spelling = tir::builtin_spelling(e.builtin);
  TileArgs a{c.tensor_operand(*e.args[0]), c.int_operand(*e.args[1]), e.span,
             tensor_name(*e.args[0]), spelling};
  return with_scalar(e.args[0]->type.scalar, [&](auto tag) -> const Node* {
    using T = decltype(tag);
    if constexpr (kIsInt<T> || kIsFloat<T>) {
      auto* n = c.make<N<T>>();
      n->a = a;
      return n;
    } else {
      internal_error(std::string(spelling) + " on a tile of bool");
    }
  });
}
template <class Step>
struct Reduced {
  template <class T>
  using Of = LanesReduce<T, Step>;
};

const Node* lanes_sum(Compiler& c, const tir::Expr& e) {
  return on_tile<Reduced<SumStep>::Of>(c, e);
}
const Node* lanes_max(Compiler& c, const tir::Expr& e) {
  return on_tile<Reduced<MaxStep>::Of>(c, e);
}
const Node* lanes_argmax(Compiler& c, const tir::Expr& e) { return on_tile<LanesArgmax>(c, e); }
const Node* lanes_sort(Compiler& c, const tir::Expr& e) { return on_tile<LanesSort>(c, e); }

const Node* copy_async(Compiler& c, const tir::Expr& e) {
  auto* n = c.make<CopyAsync>();
  n->tile = c.tensor_operand(*e.args[0]);
  n->src = c.tensor_operand(*e.args[1]);
  for (size_t k = 2; k < e.args.size(); ++k) n->start.push_back(c.int_operand(*e.args[k]));
  n->elem_size = scalar_size(e.args[0]->type.scalar);
  n->span = e.span;
  return n;
}

const Node* wait(Compiler& c, const tir::Expr& e) {
  auto* n = c.make<Wait>();
  n->token = c.value(*e.args[0]);
  return n;
}

const Node* atomic(Compiler& c, const tir::Expr& e) {
  return with_atomic_scalar(e.args[0]->type.scalar, tir::builtin_spelling(e.builtin),
                            [&](auto tag) -> const Node* {
                              using T = decltype(tag);
                              auto* n = c.make<Atomic<T>>(e);
                              n->record = c.record_races;
                              n->tensor = c.tensor_operand(*e.args[0]);
                              n->index = c.int_operand(*e.args[1]);
                              // tensor, index, …, ordering
                              n->values = static_cast<int>(e.args.size()) - 3;
                              if (n->values >= 1) n->v1 = c.op_any<T>(*e.args[2]);
                              if (n->values >= 2) n->v2 = c.op_any<T>(*e.args[3]);
                              return n;
                            });
}

const Node* scoped_fence(Compiler& c, const tir::Expr& e) {
  auto* n = c.make<Fence>();
  n->order = ordering_of(*e.args[0]);
  return n;
}

// A method of numbers: math_methods.hpp's function of the receiver's type.
const Node* number_method(Compiler& c, const tir::Expr& e) {
  return with_scalar(e.args[0]->type.scalar, [&](auto tag) -> const Node* {
    using T = decltype(tag);
    if constexpr (kIsInt<T> || kIsFloat<T>)
      return math<T>(c, e);
    else
      internal_error(std::string("the method ") + tir::builtin_spelling(e.builtin) + " on bool");
  });
}

const Node* len(Compiler& c, const tir::Expr& e) {
  if (e.args[0]->type.kind == TypeKind::String) return c.string_value(e);
  auto* n = c.make<Len>();
  n->tensor = c.tensor_operand(*e.args[0]);
  return n;
}

const Node* dim(Compiler& c, const tir::Expr& e) {
  auto* n = c.make<Dim>();
  n->tensor = c.tensor_operand(*e.args[0]);
  n->k = c.int_operand(*e.args[1]);
  n->span = e.span;
  return n;
}

// ---- dbg! ---------------------------------------------------------------------------------------

// `dbg!(x)` (spec/builtins.md §7): `[FILE:LINE:COL i=2 l=37] x = 1.5` on stderr, x's value as
// `{:?}` prints it, then x. The loops' values are read when it runs; the run's blocks go in order
// while a program has one (run_program), so the lines come in the passes' order.
template <class T>
struct Dbg final : ExprImpl<Dbg<T>, T> {
  const ExprT<T>* value;
  Scalar scalar;
  std::string place, text;  // `FILE:LINE:COL`, the argument's source text
  std::vector<std::pair<std::string, const Node*>> loops;
  std::vector<Scalar> loop_scalars;
  T eval(Frame& f) const override {
    const T v = value->eval(f);
    std::string line = "[" + place;
    for (size_t k = 0; k < loops.size(); ++k)
      line +=
          " " + loops[k].first + "=" + scalar_text(loop_scalars[k], loops[k].second->eval_bits(f));
    line += "] " + text + " = " + scalar_debug(scalar, to_bits<T>(v)) + "\n";
    static std::mutex lock;  // whole lines, should blocks ever run at once
    const std::lock_guard<std::mutex> hold(lock);
    f.ctx->err->write(line.data(), static_cast<std::streamsize>(line.size()));
    return v;
  }
};

const Node* dbg(Compiler& c, const tir::Expr& e) {
  c.has_dbg = true;
  return with_scalar(e.type.scalar, [&](auto tag) -> const Node* {
    using T = decltype(tag);
    auto* n = c.make<Dbg<T>>();
    n->value = c.scalar<T>(*e.args[0]);
    n->scalar = e.type.scalar;
    const SourceFile& file = *c.program().file;
    const LineCol at = file.line_col(e.span.begin);
    n->place = file.path() + ":" + std::to_string(at.line) + ":" + std::to_string(at.col);
    n->text = e.text;
    for (size_t k = 1; k < e.args.size(); ++k) {
      n->loops.emplace_back(e.args[k]->text, c.value(*e.args[k]));
      n->loop_scalars.push_back(e.args[k]->type.scalar);
    }
    return n;
  });
}

}  // namespace

const Node* Compiler::builtin(const tir::Expr& e) {
  switch (e.builtin) {
#define VX_BUILTIN(E, spelling, kind, arity, result, effect, place, form, interp, emit) \
  case BuiltinId::E:                                                                    \
    return interp(*this, e);
#include "check/builtins.def"
#undef VX_BUILTIN
  }
  internal_error("a built-in outside builtins.def");
}

}  // namespace vx::interp
