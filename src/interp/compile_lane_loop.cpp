// Lane loops: a `for` loop (not across blocks) whose body is `let`s of scalars followed by one
// store `t[…, i] = e` (or `op=`) or one atomic built-in runs a chunk of passes at a time: each let
// and value is computed for kChunk passes in a tight loop over arrays, then the chunk's elements
// are stored (or its atomics made, pass by pass, in order). The results and the errors are those
// of the passes one at a time (spec/semantics.md §2, DESIGN §3.2, §3.10), because before the
// first pass the loop proves from its range that
//   * every element access of every pass is in bounds (the tensor, the indices that do not move
//     with the loop variable and the range are fixed for the whole loop; the one index that moves
//     does so by one per pass and does not wrap), and every element it reads of an SMEM tile is
//     initialised;
//   * no pass reads an element that an earlier pass writes (the stored elements are those read in
//     the same pass or later ones, or none that are read at all);
// and the expressions it takes cannot fail: constants, locals, + - * and the bit operators,
// division and remainder of floats or by a non-zero integer constant, negation, casts, element
// loads and the math methods; no calls, no blocks, nothing that moves a tensor. The one check
// left per pass is the atomic's index (a value the pass computes). When a proof fails, the general
// loop runs the range one pass at a time and reports the first error where it occurs.
#include <algorithm>
#include <cstring>
#include <memory>

#include "interp/atomic.hpp"
#include "interp/compiler.hpp"
#include "interp/math_methods.hpp"
#include "support/internal_error.hpp"

namespace vx::interp {
namespace {

using tir::BinOp;
using tir::ExprKind;

constexpr int kChunk = 128;       // passes computed together
constexpr int kMaxAccesses = 16;  // tensor accesses of one loop body
constexpr int kMaxLets = 16;
// Fewer passes run one at a time: the proofs and the set-up of a run cost about as much as the
// general loop's first passes (measured on the scale loop's body).
constexpr int64_t kMinPasses = 4;

// A tensor access of the body: `t[i0, …, ik]` of a tensor local, each index a local, a constant
// or an affine combination of them (IntOperand). Only the last index may move with the loop
// variable, with coefficient 1 (`lane`): pass p then touches the element p after the first
// pass's. An atomic may touch any element of its tensor.
struct LaneAccess {
  enum Kind : uint8_t { kLoad, kStore, kAtomic };
  Kind kind = kLoad;
  int tslot = -1;
  std::vector<IntOperand> idx;
  bool lane = false;
  int elem_size = 0;
};

// What the proofs found for one access in this run of the loop.
struct Proved {
  std::byte* at;  // the element of the first pass (an atomic: the first element)
  uint8_t* init;  // a store into an SMEM tile: the first pass's init flag
  size_t bytes;   // the bytes all passes may touch
};

// One run of a lane loop, as its nodes see it. The arrays are left uninitialised (a short loop
// would spend more on clearing them than on its passes); the loop writes the entries it uses.
struct LaneRun {
  Frame* f = nullptr;
  std::byte* scratch = nullptr;  // kChunk values of 8 bytes for each buffer
  Proved proved[kMaxAccesses];
  const void* lets[kMaxLets];  // each let's values for the chunk
  uint64_t first = 0;          // the loop variable's bits in the first pass
  int64_t k0 = 0;              // the chunk's first pass, counted from 0
  int n = 0;                   // passes in the chunk
  int failed = -1;             // the pass of the chunk whose atomic index is out of bounds
  template <class T>
  T* buffer(int b) const {
    return reinterpret_cast<T*>(scratch + static_cast<size_t>(b) * kChunk * 8);
  }
};

// The scratch buffers of this thread (the blocks of an across loop run on several).
std::byte* lane_scratch(int buffers) {
  thread_local std::unique_ptr<std::byte[]> scratch;
  thread_local size_t size = 0;
  const size_t need = static_cast<size_t>(buffers) * kChunk * 8;
  if (size < need) {
    scratch.reset(new std::byte[need]);
    size = need;
  }
  return scratch.get();
}

// out[j] = fn(a[j]…) for the passes of a chunk. A full chunk has a constant count, which GCC's
// -O2 vectorises (its "very cheap" model: no run-time alias checks) only where it sees that out
// overlaps no operand: hence the arrays as __restrict parameters (an array captured by a lambda
// loses the qualifier; the loops ran one element at a time). Each node's out is its own buffer,
// which no operand is.
template <class To, class F, class... From>
VX_FORCE_INLINE void lanes_of(int n, To* __restrict out, F fn, const From* __restrict... a) {
  if (n == kChunk) {
    for (int j = 0; j < kChunk; ++j) out[j] = fn(a[j]...);
  } else {
    for (int j = 0; j < n; ++j) out[j] = fn(a[j]...);
  }
}

// ---- Expressions --------------------------------------------------------------------------------

// An expression of the body computed for the passes of a chunk: its values, in an array of its own
// (`buf`), a let's, or the tensor's elements in place.
template <class T>
struct LaneExpr : Node {
  int buf = -1;
  virtual const T* lanes(const LaneRun& r) const = 0;
  // The values, computed straight into `out` (a store's elements for the chunk) where the node
  // computes them and no operand overlaps out; else as lanes() gives them (the store copies).
  virtual const T* lanes_into(const LaneRun& r, T* out) const { return lanes(r); }
};

// Whether the chunk's n values at `a` overlap those at `out` (as integers: they may lie in
// different storages).
template <class T, class U>
bool overlaps(const T* a, const U* out, int n) {
  const uintptr_t a0 = reinterpret_cast<uintptr_t>(a), o0 = reinterpret_cast<uintptr_t>(out);
  return a0 < o0 + static_cast<size_t>(n) * sizeof(U) &&
         o0 < a0 + static_cast<size_t>(n) * sizeof(T);
}

// A value that is the same in every pass: its buffer is filled once per run, after the proofs,
// kChunk wide (a constant count, which the compiler vectorises; a run's chunks are never wider).
struct LaneUniform {
  virtual void fill(const LaneRun& r) const = 0;

 protected:
  ~LaneUniform() = default;
  template <class T>
  static void fill_chunk(T* __restrict out, T v) {
    for (int j = 0; j < kChunk; ++j) out[j] = v;
  }
};

// A constant, or a local that the body does not assign.
template <class T>
struct LaneValue final : LaneExpr<T>, LaneUniform {
  int slot = -1;  // -1: the constant
  T lit{};
  const T* lanes(const LaneRun& r) const override { return r.buffer<T>(this->buf); }
  void fill(const LaneRun& r) const override {
    fill_chunk(r.buffer<T>(this->buf), slot >= 0 ? from_bits<T>(r.f->s[slot]) : lit);
  }
};

// The loop variable.
template <class I>
struct LaneIndexVar final : LaneExpr<I> {
  const I* lanes(const LaneRun& r) const override {
    I* __restrict out = r.buffer<I>(this->buf);
    const uint64_t b = r.first + static_cast<uint64_t>(r.k0);
    if (r.n == kChunk) {
      for (int j = 0; j < kChunk; ++j) out[j] = from_bits<I>(b + static_cast<uint64_t>(j));
    } else {
      for (int j = 0; j < r.n; ++j) out[j] = from_bits<I>(b + static_cast<uint64_t>(j));
    }
    return out;
  }
};

// A local the body's `let` gave a value earlier in the pass.
template <class T>
struct LaneLet final : LaneExpr<T> {
  int let = 0;
  const T* lanes(const LaneRun& r) const override { return static_cast<const T*>(r.lets[let]); }
};

// An element load: in place when the access moves with the loop, else one element for all.
template <class T>
struct LaneLoad final : LaneExpr<T>, LaneUniform {
  int access = 0;
  bool lane = true;
  const T* lanes(const LaneRun& r) const override {
    if (lane) return reinterpret_cast<const T*>(r.proved[access].at) + r.k0;
    return r.buffer<T>(this->buf);
  }
  void fill(const LaneRun& r) const override {
    fill_chunk(r.buffer<T>(this->buf), *reinterpret_cast<const T*>(r.proved[access].at));
  }
};

// A map or zip whose operands are the same in every pass (`y as f32` in a lane loop over x):
// computed once per run, into the node's own buffer, instead of once a chunk.
template <class T>
struct LaneHoisted final : LaneExpr<T>, LaneUniform {
  const LaneExpr<T>* value = nullptr;  // a LaneMap or LaneZip: its values are its buffer
  const T* lanes(const LaneRun& r) const override { return r.buffer<T>(value->buf); }
  void fill(const LaneRun& r) const override { value->lanes(r); }
};

// fn(a[j]) for the passes of a chunk: negation, `!`, casts, one-operand methods.
template <class To, class From, class Fn>
struct LaneMap final : LaneExpr<To> {
  const LaneExpr<From>* arg;
  const To* lanes(const LaneRun& r) const override {
    To* out = r.buffer<To>(this->buf);
    lanes_of(r.n, out, Fn{}, arg->lanes(r));
    return out;
  }
  const To* lanes_into(const LaneRun& r, To* out) const override {
    const From* a = arg->lanes(r);
    if (overlaps(a, out, r.n)) out = r.buffer<To>(this->buf);
    lanes_of(r.n, out, Fn{}, a);
    return out;
  }
};

// fn(a[j], b[j]) for the passes of a chunk: binary operators, two-operand methods.
template <class T, class Fn>
struct LaneZip final : LaneExpr<T> {
  const LaneExpr<T>* lhs;
  const LaneExpr<T>* rhs;
  const T* lanes(const LaneRun& r) const override {
    const T* a = lhs->lanes(r);
    T* out = r.buffer<T>(this->buf);
    lanes_of(r.n, out, Fn{}, a, rhs->lanes(r));
    return out;
  }
  const T* lanes_into(const LaneRun& r, T* out) const override {
    const T* a = lhs->lanes(r);
    const T* b = rhs->lanes(r);
    if (overlaps(a, out, r.n) || overlaps(b, out, r.n)) out = r.buffer<T>(this->buf);
    lanes_of(r.n, out, Fn{}, a, b);
    return out;
  }
};

// The functions LaneMap and LaneZip apply.
struct Neg {
  template <class T>
  T operator()(T x) const {
    return op_neg(x);
  }
};
struct Not {
  template <class T>
  T operator()(T x) const {
    return op_not(x);
  }
};
template <class To>
struct CastTo {
  template <class From>
  To operator()(From x) const {
    return cast_value<To, From>(x);
  }
};
template <auto F>
struct Call {  // a math method
  template <class... T>
  auto operator()(T... x) const {
    return F(x...);
  }
};
template <BinOp Op>
struct Arith {  // an operator that cannot fail on these operands
  template <class T>
  T operator()(T a, T b) const {
    return apply_arith<Op>(a, b, Span{});
  }
};

// ---- Statements ---------------------------------------------------------------------------------

// One statement of the body, made for the passes of a chunk.
struct LaneStep : Node {
  virtual void step(LaneRun& r) const = 0;
};

template <class T>
struct LaneLetStep final : LaneStep {
  const LaneExpr<T>* value;
  int let;
  void step(LaneRun& r) const override { r.lets[let] = value->lanes(r); }
};

template <class T>
struct LaneStoreStep final : LaneStep {
  const LaneExpr<T>* value;
  int access;
  void step(LaneRun& r) const override {
    const Proved& p = r.proved[access];
    T* out = reinterpret_cast<T*>(p.at) + r.k0;
    // The value's last operation writes the elements itself unless an operand overlaps them;
    // a value that is the stored tensor's own elements at or after these (proved), read in place,
    // is copied with memmove, which reads them as they were, as the passes one at a time do.
    const T* v = value->lanes_into(r, out);
    if (v != out) std::memmove(out, v, static_cast<size_t>(r.n) * sizeof(T));
    if (p.init) std::memset(p.init + r.k0, 1, static_cast<size_t>(r.n));
  }
};

// The chunk's updates summed per element (up to 16 elements; others one by one), then made as
// one atomic update each (AtomicOp::combinable). The passes before the first bad index make
// their updates; that pass then reports its error, as pass by pass.
template <class T>
void combined_updates(Frame& f, const AtomicOp<T>& atomic, const TensorView& v, const uint64_t* idx,
                      const T* a, int n, bool index_unsigned) {
  using U = std::make_unsigned_t<T>;
  int good = n;
  for (int j = 0; j < n; ++j)
    if (idx[j] >= static_cast<uint64_t>(v.size)) {
      good = j;
      break;
    }
  uint64_t at[16];
  U sum[16];
  int k = 0;
  for (int j = 0; j < good; ++j) {
    int s = 0;
    while (s < k && at[s] != idx[j]) ++s;
    if (s == k) {
      if (k == 16) {
        atomic.apply(f, v, idx[j], a[j], T{});
        continue;
      }
      at[k] = idx[j];
      sum[k++] = 0;
    }
    sum[s] = static_cast<U>(sum[s] + static_cast<U>(a[j]));
  }
  for (int s = 0; s < k; ++s) atomic.apply(f, v, at[s], static_cast<T>(sum[s]), T{});
  if (good < n) atomic.check(v, idx[good], index_unsigned);
}

// The atomic's index is the pass's value: checked pass by pass, after the passes before it made
// theirs; the value operands cannot fail, so computing them first changes nothing.
template <class T>
struct LaneAtomicStep final : LaneStep {
  AtomicOp<T> atomic;
  int tslot = -1;
  const LaneExpr<uint64_t>* index = nullptr;
  bool index_unsigned = false;
  const LaneExpr<T>* v1 = nullptr;  // null when the built-in has fewer value operands
  const LaneExpr<T>* v2 = nullptr;
  explicit LaneAtomicStep(const tir::Expr& call) : atomic(call) {}
  // data[idx[j]] += a[j] (fetch_sub: -=) for the passes of a chunk, wrapping in E (T's unsigned
  // type, or the 64 bits of a private sum), each index checked in its pass: the unlocked and
  // private-sum updates. The operation is chosen once a chunk, not once a pass (two loops).
  template <class E>
  void add_each(const TensorView& v, E* __restrict data, const uint64_t* __restrict idx,
                const T* __restrict a, int n) const {
    if (atomic.op == tir::BuiltinId::AtomicFetchSub)
      add_each<E, true>(v, data, idx, a, n);
    else
      add_each<E, false>(v, data, idx, a, n);
  }
  template <class E, bool Sub>
  void add_each(const TensorView& v, E* __restrict data, const uint64_t* __restrict idx,
                const T* __restrict a, int n) const {
    using U = std::make_unsigned_t<T>;
    const uint64_t size = static_cast<uint64_t>(v.size);
    for (int j = 0; j < n; ++j) {
      const uint64_t i = idx[j];
      if (i >= size) [[unlikely]]
        atomic.check(v, i, index_unsigned);
      const E d = static_cast<E>(static_cast<U>(a[j]));
      data[i] = static_cast<E>(Sub ? data[i] - d : data[i] + d);
    }
  }
  void step(LaneRun& r) const override {
    try {
      update(r);
    } catch (RuntimeError&) {  // the first pass with an index out of bounds is the one that failed
      const TensorView& v = r.f->t[tslot].view;
      const uint64_t* idx = index->lanes(r);
      r.failed = 0;
      while (r.failed + 1 < r.n && idx[r.failed] < static_cast<uint64_t>(v.size)) ++r.failed;
      throw;
    }
  }
  void update(LaneRun& r) const {
    Frame& f = *r.f;
    const TensorView& v = f.t[tslot].view;
    const uint64_t* idx = index->lanes(r);
    const T* a = v1 ? v1->lanes(r) : nullptr;
    const T* b = v2 ? v2->lanes(r) : nullptr;
    if constexpr (kIsInt<T>) {
      if (atomic.unlocked(f) && !v.init) {  // the histogram's shape
        add_each(v, reinterpret_cast<std::make_unsigned_t<T>*>(v.data), idx, a, r.n);
        return;
      }
      if (PrivateSums* ps = f.ctx->private_sums) {  // a tensor this block task sums by itself
        if (uint64_t* sums = ps->find(v.data)) {
          add_each(v, sums, idx, a, r.n);
          return;
        }
      }
      if (atomic.combinable(f) && !v.init) {  // the same with other threads: one update per element
        combined_updates(f, atomic, v, idx, a, r.n, index_unsigned);
        return;
      }
    }
    for (int j = 0; j < r.n; ++j) {
      atomic.check(v, idx[j], index_unsigned);
      atomic.apply(f, v, idx[j], a ? a[j] : T{}, b ? b[j] : T{});
    }
  }
};

// ---- The loop -----------------------------------------------------------------------------------

// The proof for one access over the passes first..last (n of them, as the loop variable's bits);
// false when some pass would fail (or the general loop should run for another reason).
bool prove(Frame& f, const LaneAccess& a, int loop_slot, uint64_t first, uint64_t last, int64_t n,
           Proved& out) {
  const TensorView& v = f.t[a.tslot].view;
  if (a.kind == LaneAccess::kAtomic) {
    out.at = v.data;
    out.bytes = static_cast<size_t>(v.size) * static_cast<size_t>(a.elem_size);
    return true;
  }
  const int rank = static_cast<int>(a.idx.size());
  if (v.rank != rank || !v.dims) return false;
  int64_t off = 0;
  for (int k = 0; k < rank; ++k) {
    const uint64_t d = static_cast<uint64_t>(v.dims[k]);
    uint64_t i;
    if (k == rank - 1 && a.lane) {
      f.s[loop_slot] = last;
      const uint64_t i_last = a.idx[k].get(f);
      f.s[loop_slot] = first;
      i = a.idx[k].get(f);
      // Each pass adds one to the index, unless it wraps at its type's width on the way; then the
      // last pass's index would not be the first's plus n - 1.
      if (i >= d || i_last >= d || i_last < i || i_last - i != static_cast<uint64_t>(n - 1))
        return false;
    } else {
      i = a.idx[k].get(f);
      if (i >= d) return false;
    }
    off = off * static_cast<int64_t>(d) + static_cast<int64_t>(i);
  }
  const int64_t extent = a.lane ? n : 1;
  if (a.kind == LaneAccess::kLoad && v.init &&
      std::memchr(v.init + off, 0, static_cast<size_t>(extent)) != nullptr)
    return false;
  out.at = v.data + off * a.elem_size;
  out.init = a.kind == LaneAccess::kStore && v.init ? v.init + off : nullptr;
  out.bytes = static_cast<size_t>(extent) * static_cast<size_t>(a.elem_size);
  return true;
}

// Whether every load reads what it would with the passes one at a time. A chunk reads all its
// passes' elements before it writes any, so a load must touch no byte that a store or an atomic
// writes, unless it is a load that moves with the loop from the stored element or after it (pass
// p reads what no earlier pass wrote).
bool reads_unchanged(const std::vector<LaneAccess>& accesses, const LaneRun& r) {
  for (size_t w = 0; w < accesses.size(); ++w) {
    if (accesses[w].kind == LaneAccess::kLoad) continue;
    const Proved& pw = r.proved[w];
    for (size_t l = 0; l < accesses.size(); ++l) {
      if (accesses[l].kind != LaneAccess::kLoad) continue;
      const Proved& pl = r.proved[l];
      // As integers: the two may be in different storages.
      const uintptr_t w0 = reinterpret_cast<uintptr_t>(pw.at),
                      l0 = reinterpret_cast<uintptr_t>(pl.at);
      if (l0 >= w0 + pw.bytes || w0 >= l0 + pl.bytes) continue;
      if (accesses[w].kind == LaneAccess::kStore && accesses[l].lane && l0 >= w0) continue;
      return false;
    }
  }
  return true;
}

template <class I>
struct LaneLoop final : RangeLoop<I> {
  const RangeLoop<I>* general = nullptr;  // the same loop, one pass at a time
  std::vector<LaneAccess> accesses;
  std::vector<const LaneUniform*> uniforms;
  std::vector<const LaneStep*> steps;  // the lets, then the store or the atomic
  int buffers = 0;

  Flow run(Frame& f, I a, I b) const override {
    if (!run_chunks(f, a, b)) return general->run(f, a, b);
    return Flow::Normal;
  }
  // The loop variable as the failed pass had it, for the error's message (NamedPassesStmt).
  static void set_failed_pass(Frame& f, int slot, I a, const LaneRun& r) {
    using U = std::make_unsigned_t<I>;
    if (r.failed >= 0)
      f.s[slot] = to_bits<I>(static_cast<I>(static_cast<U>(a) + static_cast<U>(r.k0 + r.failed)));
  }
  bool run_chunks(Frame& f, I a, I b) const {
    const I last = this->inclusive ? b : static_cast<I>(b - 1);
    const __int128 count = static_cast<__int128>(last) - static_cast<__int128>(a) + 1;
    if (count > (__int128{1} << 62)) return false;
    const int64_t n = static_cast<int64_t>(count);
    if (n < kMinPasses) return false;
    LaneRun r;
    r.f = &f;
    r.first = to_bits<I>(a);
    for (size_t k = 0; k < accesses.size(); ++k) {
      if (!prove(f, accesses[k], this->slot, r.first, to_bits<I>(last), n, r.proved[k]))
        return false;
    }
    if (!reads_unchanged(accesses, r)) return false;
    // The body calls nothing: the passes are counted at once (after the proofs, since the
    // general loop counts them itself when a proof fails).
    count_steps(f.ctx, n, this->loop_span);
    r.scratch = lane_scratch(buffers);
    r.n = static_cast<int>(std::min<int64_t>(kChunk, n));  // the widest chunk
    for (const LaneUniform* u : uniforms) u->fill(r);
    try {
      RunLimits* const limits = f.ctx->limits;
      for (r.k0 = 0; r.k0 < n; r.k0 += kChunk) {
        r.n = static_cast<int>(std::min<int64_t>(kChunk, n - r.k0));
        if (limits) [[unlikely]] {  // the REPL's interrupt, once a chunk (the steps are counted)
          r.failed = 0;
          limits->poll(this->loop_span);
          r.failed = -1;
        }
        for (const LaneStep* s : steps) s->step(r);
      }
    } catch (RuntimeError&) {
      set_failed_pass(f, this->slot, a, r);
      throw;
    }
    f.s[this->slot] = to_bits<I>(last);
    return true;
  }
};

// ---- Building one ------------------------------------------------------------------------------

// `e` is made of integer locals and constants with +, - and * (what int_operand makes affine).
bool affine_shape(const tir::Expr& e) {
  if (e.kind == ExprKind::Literal) return true;
  if (e.kind == ExprKind::Var) return e.type.is_scalar();
  if (e.kind != ExprKind::Binary) return false;
  if (e.bop != BinOp::Add && e.bop != BinOp::Sub && e.bop != BinOp::Mul) return false;
  return affine_shape(*e.args[0]) && affine_shape(*e.args[1]);
}

// The atomic call of the body's last statement (`atomic_…(…);` or `let x = atomic_…(…);`).
const tir::Expr* atomic_call(const tir::Stmt& s) {
  if ((s.kind != tir::StmtKind::Expr && s.kind != tir::StmtKind::Let) || !s.value) return nullptr;
  const tir::Expr& e = *s.value;
  return e.kind == ExprKind::Builtin && is_atomic(e.builtin) ? &e : nullptr;
}

class LaneBuilder {
 public:
  LaneBuilder(Compiler& c, const tir::Stmt& loop) : c_(c), loop_slot_(loop.slot) {}

  std::vector<LaneAccess> accesses;
  std::vector<const LaneUniform*> uniforms;
  std::vector<const LaneStep*> steps;
  int buffers = 0;

  // Compiles the body; false when it is not a lane loop's.
  bool build(const tir::Block& body) {
    const size_t count = body.stmts.size();
    for (const tir::Stmt* s : body.stmts)
      if (s->kind == tir::StmtKind::Let) body_lets_.push_back(s->slot);
    if (count == 0 || count > kMaxLets + 1) return false;
    for (size_t k = 0; k + 1 < count; ++k)
      if (!let(*body.stmts[k])) return false;
    const tir::Stmt& last = *body.stmts[count - 1];
    if (const tir::Expr* call = atomic_call(last)) return atomic(*call);
    return store(last);
  }

 private:
  Compiler& c_;
  int loop_slot_;
  std::vector<int> body_lets_;                // every slot a let of the body declares
  std::vector<std::pair<int, int>> defined_;  // (slot, let number) of the lets compiled so far
  std::vector<const Node*> uniform_nodes_;    // the expressions among `uniforms`

  bool is_let(int slot) const {
    return std::find(body_lets_.begin(), body_lets_.end(), slot) != body_lets_.end();
  }
  template <class N>
  N* with_buffer(N* n) {
    n->buf = buffers++;
    return n;
  }
  // A value the same in every pass, filled once per run (after its operands: they are made, and
  // listed, first).
  template <class N>
  N* uniform(N* n) {
    uniforms.push_back(n);
    uniform_nodes_.push_back(n);
    return n;
  }
  bool is_uniform(const Node* n) const {
    return std::find(uniform_nodes_.begin(), uniform_nodes_.end(), n) != uniform_nodes_.end();
  }
  template <class T>
  const LaneExpr<T>* hoisted(const LaneExpr<T>* value) {
    auto* n = c_.make<LaneHoisted<T>>();
    n->value = value;
    return uniform(n);
  }

  bool let(const tir::Stmt& s) {
    if (s.kind != tir::StmtKind::Let || !s.value || !s.value->type.is_scalar()) return false;
    return with_scalar(s.value->type.scalar, [&](auto tag) {
      using T = decltype(tag);
      const LaneExpr<T>* value = expr<T>(*s.value);
      if (!value) return false;
      auto* n = c_.make<LaneLetStep<T>>();
      n->value = value;
      n->let = static_cast<int>(defined_.size());
      defined_.emplace_back(s.slot, n->let);
      steps.push_back(n);
      return true;
    });
  }

  bool store(const tir::Stmt& s) {
    if (s.kind != tir::StmtKind::Assign || s.target->kind != ExprKind::Index ||
        !s.target->type.is_scalar())
      return false;
    const tir::Expr& target = *s.target;
    return with_scalar(target.type.scalar, [&](auto tag) {
      using T = decltype(tag);
      const int id = access(LaneAccess::kStore, target);
      if (id < 0) return false;
      const LaneExpr<T>* value = expr<T>(*s.value);
      if (value && s.compound) {  // `t[…] op= e`: the element op e
        const LaneExpr<T>* old = load<T>(target);
        value = old ? binary<T>(s.op, old, value, *s.value) : nullptr;
      }
      if (!value) return false;
      auto* n = c_.make<LaneStoreStep<T>>();
      n->value = value;
      n->access = id;
      steps.push_back(n);
      return true;
    });
  }

  template <class To, class From, class Fn>
  const LaneExpr<To>* map(const LaneExpr<From>* a) {
    auto* n = with_buffer(c_.make<LaneMap<To, From, Fn>>());
    n->arg = a;
    return is_uniform(a) ? hoisted<To>(n) : n;
  }
  // `a` as To (null stays null). Defined before atomic(), whose nested generic lambdas call it:
  // clang 14 does not instantiate a member template defined after such a use (undefined symbol).
  template <class To, class From>
  const LaneExpr<To>* as(const LaneExpr<From>* a) {
    if constexpr (std::is_same_v<To, From>)
      return a;
    else
      return a ? map<To, From, CastTo<To>>(a) : nullptr;
  }

  bool atomic(const tir::Expr& call) {
    const tir::Expr* tensor = call.args[0];
    if (tensor->kind == ExprKind::Ref) tensor = tensor->args[0];
    if (tensor->kind != ExprKind::Var || !tensor->type.is_tensor_like()) return false;
    const tir::Expr& index = *call.args[1];
    if (!index.type.is_scalar() || !is_int(index.type.scalar)) return false;
    return with_atomic_scalar(call.args[0]->type.scalar, "an atomic", [&](auto tag) {
      using T = decltype(tag);
      auto* n = c_.make<LaneAtomicStep<T>>(call);
      n->tslot = tensor->slot;
      n->index_unsigned = !is_signed_int(index.type.scalar);
      n->index = with_scalar(index.type.scalar, [&](auto itag) -> const LaneExpr<uint64_t>* {
        using Ix = decltype(itag);
        if constexpr (kIsInt<Ix>)
          return as<uint64_t, Ix>(expr<Ix>(index));
        else
          return nullptr;
      });
      const size_t values = call.args.size() - 3;  // tensor, index, …, ordering
      if (values >= 1) n->v1 = expr<T>(*call.args[2]);
      if (values >= 2) n->v2 = expr<T>(*call.args[3]);
      if (!n->index || (values >= 1 && !n->v1) || (values >= 2 && !n->v2)) return false;
      LaneAccess a;
      a.kind = LaneAccess::kAtomic;
      a.tslot = tensor->slot;
      a.elem_size = static_cast<int>(sizeof(T));
      if (accesses.size() == kMaxAccesses) return false;
      accesses.push_back(a);
      steps.push_back(n);
      return true;
    });
  }

  // The access `target` (an Index), or -1 when it is not one a lane loop proves.
  int access(LaneAccess::Kind kind, const tir::Expr& target) {
    const tir::Expr& base = *target.args[0];
    if (base.kind != ExprKind::Var || !base.type.is_tensor_like() || target.args.size() < 2 ||
        accesses.size() == kMaxAccesses)
      return -1;
    LaneAccess a;
    a.kind = kind;
    a.tslot = base.slot;
    a.elem_size = scalar_size(target.type.scalar);
    const size_t rank = target.args.size() - 1;
    for (size_t k = 0; k < rank; ++k) {
      const tir::Expr& ix = *target.args[k + 1];
      if (!ix.type.is_scalar() || !is_int(ix.type.scalar) || !affine_shape(ix)) return -1;
      IntOperand op = c_.int_operand(ix);
      bool moves = false;
      if (op.slot >= 0) {
        if (is_let(op.slot)) return -1;  // a gather: its check belongs to its pass
        moves = op.slot == loop_slot_;
      } else if (op.terms > 0) {
        for (int t = 0; t < op.terms; ++t) {
          if (is_let(op.term_slot[t])) return -1;
          if (op.term_slot[t] != loop_slot_) continue;
          if (op.term_coef[t] != 1) return -1;
          moves = true;
        }
      } else if (ix.kind != ExprKind::Literal) {
        return -1;  // more locals than IntOperand combines
      }
      if (moves && k + 1 != rank) return -1;
      a.lane = a.lane || moves;
      a.idx.push_back(op);
    }
    if (kind == LaneAccess::kStore && !a.lane) return -1;  // every pass would store one element
    accesses.push_back(std::move(a));
    return static_cast<int>(accesses.size()) - 1;
  }

  template <class T>
  const LaneExpr<T>* load(const tir::Expr& e) {
    const int id = access(LaneAccess::kLoad, e);
    if (id < 0) return nullptr;
    auto* n = c_.make<LaneLoad<T>>();
    n->access = id;
    n->lane = accesses[id].lane;
    if (!n->lane) uniform(with_buffer(n));
    return n;
  }

  template <class T>
  const LaneExpr<T>* expr(const tir::Expr& e) {
    if (!e.type.is_scalar()) return nullptr;
    switch (e.kind) {
      case ExprKind::Match:  // lowered before this step
      case ExprKind::Field:
        tir::unlowered();
      case ExprKind::Literal: {
        auto* n = with_buffer(c_.make<LaneValue<T>>());
        n->lit = literal_value<T>(e.lit);
        uniform(n);
        return n;
      }
      case ExprKind::Var:
        return var<T>(e.slot);
      case ExprKind::Unary: {
        const LaneExpr<T>* a = expr<T>(*e.args[0]);
        if (!a) return nullptr;
        if (e.uop == tir::UnOp::Neg) {
          if constexpr (kIsInt<T> || kIsFloat<T>) return map<T, T, Neg>(a);
        } else {
          if constexpr (kIsInt<T> || std::is_same_v<T, bool>) return map<T, T, Not>(a);
        }
        return nullptr;
      }
      case ExprKind::Binary: {
        if (e.args[0]->type.scalar != e.type.scalar) return nullptr;  // a comparison
        const LaneExpr<T>* l = expr<T>(*e.args[0]);
        const LaneExpr<T>* r = l ? expr<T>(*e.args[1]) : nullptr;
        return r ? binary<T>(e.bop, l, r, *e.args[1]) : nullptr;
      }
      case ExprKind::Cast: {
        const tir::Expr& a = *e.args[0];
        if (!a.type.is_scalar()) return nullptr;
        return with_scalar(a.type.scalar, [&](auto from_tag) -> const LaneExpr<T>* {
          using From = decltype(from_tag);
          if constexpr (std::is_same_v<T, bool> && !std::is_same_v<From, bool>)
            return nullptr;
          else
            return as<T, From>(expr<From>(a));
        });
      }
      case ExprKind::Index:
        return load<T>(e);
      case ExprKind::Builtin:
        return method<T>(e);
      case ExprKind::Unit:
      case ExprKind::String:
      case ExprKind::View:
      case ExprKind::Ref:
      case ExprKind::Call:
      case ExprKind::TensorNew:
      case ExprKind::Transfer:
      case ExprKind::If:
      case ExprKind::BlockExpr:
      case ExprKind::Print:
      case ExprKind::Assert:
      case ExprKind::ArrayLit:
        return nullptr;
    }
    internal_error("unknown expression kind");
  }

  template <class T>
  const LaneExpr<T>* var(int slot) {
    if (slot == loop_slot_) {
      if constexpr (kIsInt<T>)
        return with_buffer(c_.make<LaneIndexVar<T>>());
      else
        return nullptr;
    }
    for (auto it = defined_.rbegin(); it != defined_.rend(); ++it) {
      if (it->first != slot) continue;
      auto* n = c_.make<LaneLet<T>>();
      n->let = it->second;
      return n;
    }
    if (is_let(slot)) return nullptr;  // declared later in the body
    auto* n = with_buffer(c_.make<LaneValue<T>>());
    n->slot = slot;
    uniform(n);
    return n;
  }

  // `a op b` when it cannot fail (`rhs` is b's expression).
  template <class T>
  const LaneExpr<T>* binary(BinOp op, const LaneExpr<T>* a, const LaneExpr<T>* b,
                            const tir::Expr& rhs) {
    switch (op) {
      case BinOp::Add:
        return arith<T, BinOp::Add>(a, b);
      case BinOp::Sub:
        return arith<T, BinOp::Sub>(a, b);
      case BinOp::Mul:
        return arith<T, BinOp::Mul>(a, b);
      case BinOp::BitAnd:
        return arith<T, BinOp::BitAnd>(a, b);
      case BinOp::BitOr:
        return arith<T, BinOp::BitOr>(a, b);
      case BinOp::BitXor:
        return arith<T, BinOp::BitXor>(a, b);
      case BinOp::Div:
      case BinOp::Rem:
        if constexpr (kIsInt<T>) {
          if (rhs.kind != ExprKind::Literal || rhs.lit.i == 0) return nullptr;
        }
        return op == BinOp::Div ? arith<T, BinOp::Div>(a, b) : arith<T, BinOp::Rem>(a, b);
      default:
        return nullptr;
    }
  }
  template <class T, BinOp Op>
  const LaneExpr<T>* arith(const LaneExpr<T>* a, const LaneExpr<T>* b) {
    if constexpr (kArithValid<T, Op>)
      return zip<T, Arith<Op>>(a, b);
    else
      return nullptr;
  }
  template <class T, class Fn>
  const LaneExpr<T>* zip(const LaneExpr<T>* a, const LaneExpr<T>* b) {
    auto* n = with_buffer(c_.make<LaneZip<T, Fn>>());
    n->lhs = a;
    n->rhs = b;
    return is_uniform(a) && is_uniform(b) ? hoisted<T>(n) : n;
  }

  template <class T>
  const LaneExpr<T>* method(const tir::Expr& e) {
    if constexpr (kIsInt<T> || kIsFloat<T>) {
      for (const tir::Expr* a : e.args)
        if (!a->type.is_scalar(e.type.scalar)) return nullptr;
      return with_math_method<T>(
          e.builtin,
          [&]<T (*F)(T)>() -> const LaneExpr<T>* {
            const LaneExpr<T>* a = expr<T>(*e.args[0]);
            return a ? map<T, T, Call<F>>(a) : nullptr;
          },
          [&]<T (*F)(T, T)>() -> const LaneExpr<T>* {
            const LaneExpr<T>* a = expr<T>(*e.args[0]);
            const LaneExpr<T>* b = a ? expr<T>(*e.args[1]) : nullptr;
            return b ? zip<T, Call<F>>(a, b) : nullptr;
          },
          []() -> const LaneExpr<T>* { return nullptr; });
    } else {
      return nullptr;
    }
  }
};

}  // namespace

const StmtNode* Compiler::lane_loop(const tir::Stmt& s, const StmtNode* general) {
  if (record_races || s.across == tir::Across::Blocks || s.body->tail) return nullptr;
  return with_scalar(s.start->type.scalar, [&](auto tag) -> const StmtNode* {
    using I = decltype(tag);
    if constexpr (kIsInt<I>) {
      LaneBuilder b(*this, s);
      if (!b.build(*s.body)) return nullptr;
      auto* g = static_cast<const RangeLoop<I>*>(general);
      auto* n = make<LaneLoop<I>>();
      n->slot = g->slot;
      n->start = g->start;
      n->end = g->end;
      n->inclusive = g->inclusive;
      n->loop_span = g->loop_span;
      n->general = g;
      n->accesses = std::move(b.accesses);
      n->uniforms = std::move(b.uniforms);
      n->steps = std::move(b.steps);
      n->buffers = b.buffers;
      return n;
    } else {
      return nullptr;
    }
  });
}

}  // namespace vx::interp
