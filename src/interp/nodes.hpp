// The node interfaces of the executable tree (see interpreter.cpp for the layout), the execution
// context and the small typed nodes that every other node file uses. Internal to src/interp.
#pragma once
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <ostream>
#include <string>
#include <vector>

#include "check/tir.hpp"
#include "interp/arith.hpp"
#include "interp/runtime.hpp"
#include "support/force_inline.hpp"

namespace vx::interp {

class RegionRunner;
class RaceRecorder;
struct CompiledFunction;

// The frames of one function, reused from call to call (no allocation once warm).
struct FramePool {
  std::vector<std::unique_ptr<Frame>> frames;
  std::vector<Frame*> free;
};

// Per-task copies of tensors that an across-blocks loop updates only by integer Relaxed
// atomic_fetch_add/sub whose old values nobody reads (host_parallel.hpp): the task adds into its
// copy, and the copy is added to the tensor once, when the task ends.
struct PrivateSums {
  struct Entry {
    std::byte* data = nullptr;  // the tensor's elements
    int elem_bytes = 0;
    std::vector<uint64_t> sums;  // per element, wrapping (the low elem_bytes * 8 bits count)
  };
  std::vector<Entry> entries;
  // The sums of the tensor whose elements start at `data`, or null.
  uint64_t* find(const std::byte* data) {
    for (auto& e : entries)
      if (e.data == data) return e.sums.data();
    return nullptr;
  }
};

// What the frames of one thread of a run share: the output streams, the function table, the
// call depth and the frame pools. The main thread has one; each host task that runs blocks of an
// `across blocks` loop forks its own (host_parallel.hpp): it copies the settings and starts with
// empty frame pools, so no two threads share anything they write. `limits` (--max-steps,
// --max-seconds, spec/semantics.md §8.1) is one per run, null when neither is set; a run with
// limits uses one host thread, so the count is deterministic.
struct ExecSettings {
  std::ostream* out = nullptr;
  std::ostream* err = nullptr;
  RegionRunner* runner = nullptr;
  const std::vector<std::unique_ptr<CompiledFunction>>* functions = nullptr;
  const tir::Program* program = nullptr;
  int depth = 0;
  int max_depth = 10000;
  int host_threads = 1;                 // > 1: the blocks of an across-blocks loop run on TBB tasks
  bool time_kernel = false;             // VX_TIME_KERNEL=1: one line on err per region run here
  bool concurrent = false;              // other threads may run blocks now: atomics must be real
  PrivateSums* private_sums = nullptr;  // a block task's own sums of some tensors' atomic adds
  RaceRecorder* races = nullptr;        // `--check-races`: only the recording nodes read these two
  int across_open = 0;                  // across passes open now
  RunLimits* limits = nullptr;  // null: no step or time limit (the usual run: one test a pass)
  // RunOptions::after_region, or null.
  const std::function<void(const tir::Stmt&, Frame&)>* after_region = nullptr;
};

struct ExecContext : ExecSettings {
  std::vector<FramePool> pools;  // one per function, indexed like `functions`

  // A context for another thread of the same run.
  void fork_into(ExecContext& child) const {
    static_cast<ExecSettings&>(child) = *this;
    child.pools.resize(pools.size());
  }
};

// Counts `n` steps (loop passes, calls) against --max-steps / --max-seconds, when set.
inline void count_steps(const ExecContext* ctx, int64_t n, Span span) {
  if (RunLimits* l = ctx->limits) [[unlikely]]
    l->charge(n, span);
}

// An expression. Scalar, unit and token values travel as slot bits (eval_bits); tensor-like
// values as a TensorSlot (eval_tensor: moves an owned tensor out of a local, or gives a view).
// `place` gives the elements of a tensor-like expression without moving it (for indexing,
// references and built-in receivers); `tmp` keeps a temporary alive when there is one.
struct Node {
  virtual ~Node() = default;
  virtual uint64_t eval_bits(Frame& f) const;
  virtual void eval_tensor(Frame& f, TensorSlot& out) const;
  virtual const TensorView& place(Frame& f, TensorSlot& tmp) const;
};

// A scalar expression of C++ type T: the typed interface that arithmetic nodes call directly.
template <class T>
struct ExprT : Node {
  virtual T eval(Frame& f) const = 0;
};

// Gives eval_bits to a final typed node D without a second virtual call.
template <class D, class T>
struct ExprImpl : ExprT<T> {
  uint64_t eval_bits(Frame& f) const final {
    return to_bits<T>(static_cast<const D*>(this)->D::eval(f));
  }
};

// ---- Operands: how a typed node reads a child ----------------------------------------------

[[noreturn]] void uninit_error(Span span, const std::string& name, const TensorView& v,
                               int64_t offset);
[[noreturn]] void index_error(Span span, const std::string& name, int dim, uint64_t index,
                              bool is_unsigned, int64_t len);

// An integer used as an index, a count or a shift amount, as slot bits (sign- or zero-extended,
// so an unsigned compare against a size also rejects negative values): a local read in place,
// an affine combination of locals and constants (`b * 256 + l`, computed modulo 2^64 and wrapped
// to the type's width, which is exactly the type's wrapping arithmetic), or any integer node.
struct IntOperand {
  int slot = -1;
  const Node* e = nullptr;
  bool is_unsigned = false;
  uint8_t terms = 0;  // > 0: affine
  uint8_t shift = 0;  // 64 - the type's width
  int term_slot[3] = {};
  uint64_t term_coef[3] = {};
  uint64_t constant = 0;
  VX_FORCE_INLINE uint64_t get(Frame& f) const {
    if (slot >= 0) return f.s[slot];
    if (terms) {
      uint64_t r = constant;
      for (int k = 0; k < terms; ++k) r += term_coef[k] * f.s[term_slot[k]];
      return is_unsigned ? (r << shift) >> shift
                         : static_cast<uint64_t>(static_cast<int64_t>(r << shift) >> shift);
    }
    return e->eval_bits(f);
  }
};

// The offset of [s[slots[0]], …] in v, each index checked against its dimension in order.
VX_FORCE_INLINE int64_t slot_offset(Frame& f, const TensorView& v, int rank, const int* slots,
                                    const bool* is_unsigned, Span span, const std::string& name) {
  int64_t off = 0;
  for (int k = 0; k < rank; ++k) {
    const uint64_t i = f.s[slots[k]];
    const int64_t d = v.dims[k];
    if (i >= static_cast<uint64_t>(d)) [[unlikely]]
      index_error(span, name, k, i, is_unsigned[k], d);
    off = off * d + static_cast<int64_t>(i);
  }
  return off;
}

// The offset of [i0, i1, …] in v, checking each index against its dimension before the next
// is evaluated.
VX_FORCE_INLINE int64_t operand_offset(Frame& f, const TensorView& v, int rank,
                                       const IntOperand* idx, Span span, const std::string& name) {
  int64_t off = 0;
  for (int k = 0; k < rank; ++k) {
    const uint64_t i = idx[k].get(f);
    const int64_t d = v.dims[k];
    if (i >= static_cast<uint64_t>(d)) [[unlikely]]
      index_error(span, name, k, i, idx[k].is_unsigned, d);
    off = off * d + static_cast<int64_t>(i);
  }
  return off;
}

// `t[i]…[k]` of a tensor local of rank 1 to 3 (the kernel case): the view, each index
// evaluated and checked in order (before the next is evaluated), the init flag of an SMEM tile,
// the load. Read in place by a parent node (OpAny, LetLeaf) or by the IndexLoadSlots node.
template <class T>
struct SlotLoad {
  int tslot = 0;
  int rank = 0;
  IntOperand idx[3];
  Span span;
  std::string name;
  VX_FORCE_INLINE T get(Frame& f) const {
    const TensorView& v = f.t[tslot].view;
    const int64_t off = operand_offset(f, v, rank, idx, span, name);
    if (v.init && !v.init[off]) [[unlikely]]
      uninit_error(span, name, v, off);
    return reinterpret_cast<const T*>(v.data)[off];
  }
};

template <class T>
struct IndexLoadSlots final : ExprT<T> {
  SlotLoad<T> ld;
  T eval(Frame& f) const override { return ld.get(f); }
  uint64_t eval_bits(Frame& f) const override { return to_bits<T>(ld.get(f)); }
};

// A leaf read in place by a typed node: a local, a constant, an element load of a tensor local
// with local indices, or an integer local converted to a float (`i as f32`).
template <class T>
struct Leaf {
  enum Kind : uint8_t { kVar, kLit, kLoad, kFromSigned, kFromUnsigned };
  Kind kind = kLit;
  int slot = -1;
  T lit{};
  const SlotLoad<T>* load = nullptr;
  VX_FORCE_INLINE T get(Frame& f) const {
    if (kind == kVar) return from_bits<T>(f.s[slot]);
    if (kind == kLit) return lit;
    if (kind == kLoad) return load->get(f);
    if constexpr (std::is_floating_point_v<T>) {
      if (kind == kFromSigned) return static_cast<T>(static_cast<int64_t>(f.s[slot]));
      return static_cast<T>(f.s[slot]);
    }
    return lit;
  }
};

// `a op b` for an operator that cannot fail: +, -, * and, on floats, /.
template <class T>
VX_FORCE_INLINE T safe_arith(tir::BinOp op, T a, T b) {
  if constexpr (!std::is_same_v<T, bool>) {
    switch (op) {
      case tir::BinOp::Add:
        return op_add(a, b);
      case tir::BinOp::Sub:
        return op_sub(a, b);
      case tir::BinOp::Mul:
        return op_mul(a, b);
      default:
        if constexpr (std::is_floating_point_v<T>) return op_div(a, b, Span{});
        break;
    }
  }
  return a;
}

// A child read by a typed node: a leaf, `x op y` or `(x op y) op2 z` of leaves with operators
// that cannot fail (safe_arith; `a * 2.0 + b` is the common kernel shape), or a node. A runtime
// kind (one well-predicted branch) instead of a template parameter keeps the number of node
// classes, and so the compile time, small, while still saving the virtual calls for leaves and
// for the small operations right above them.
template <class T>
struct OpAny {
  enum Kind : uint8_t { kExpr, kLeaf, kBin, kBin2 };
  Kind kind = kExpr;
  tir::BinOp op = tir::BinOp::Add;
  tir::BinOp op2 = tir::BinOp::Add;
  Leaf<T> x, y, z;
  const ExprT<T>* e = nullptr;
  VX_FORCE_INLINE T get(Frame& f) const {
    if (kind == kLeaf) return x.get(f);
    if (kind == kExpr) return e->eval(f);
    const T a = x.get(f);
    const T b = y.get(f);
    const T ab = safe_arith(op, a, b);
    if (kind == kBin) return ab;
    return safe_arith(op2, ab, z.get(f));
  }
};

std::string int_operand_text(uint64_t bits, bool is_unsigned);

// A tensor-like argument (`&t`, `t`, `&t[i]`, …): a local's view read in place, or a node's place.
struct TensorOperand {
  int slot = -1;
  const Node* node = nullptr;
  const TensorView& get(Frame& f, TensorSlot& tmp) const;
};

// The value of a TIR literal as T.
template <class T>
inline T literal_value(const tir::Literal& lit) {
  if constexpr (std::is_same_v<T, bool>)
    return lit.i != 0;
  else if constexpr (kIsInt<T>)
    return static_cast<T>(lit.i);
  else if constexpr (kIsHalf<T>)
    return half_from_f64<T>(lit.f);
  else
    return static_cast<T>(lit.f);
}

// ---- Leaf nodes ---------------------------------------------------------------------------------

template <class T>
struct LitNode final : ExprImpl<LitNode<T>, T> {
  T v;
  explicit LitNode(T value) : v(value) {}
  T eval(Frame&) const override { return v; }
};

template <class T>
struct VarNode final : ExprImpl<VarNode<T>, T> {
  int slot;
  explicit VarNode(int s) : slot(s) {}
  T eval(Frame& f) const override { return from_bits<T>(f.s[slot]); }
};

// Adapts a node that only gives bits (a call, an `if`, a block) to the typed interface.
template <class T>
struct FromBits final : ExprImpl<FromBits<T>, T> {
  const Node* inner;
  explicit FromBits(const Node* n) : inner(n) {}
  T eval(Frame& f) const override { return from_bits<T>(inner->eval_bits(f)); }
};

inline const TensorView& TensorOperand::get(Frame& f, TensorSlot& tmp) const {
  return slot >= 0 ? f.t[slot].view : node->place(f, tmp);
}

// ---- Statements ---------------------------------------------------------------------------------

// Jump: a labelled `break` or `continue` whose loop is further out than the innermost (the
// frame holds how far); every loop passes on a Return or a Jump it gets (past_loop).
enum class Flow : uint8_t { Normal, Break, Continue, Return, Jump };

struct StmtNode {
  virtual ~StmtNode() = default;
  virtual Flow exec(Frame& f) const = 0;
};

using StmtList = std::vector<const StmtNode*>;

inline Flow run_list(const StmtList& list, Frame& f) {
  for (const StmtNode* s : list) {
    const Flow fl = s->exec(f);
    if (fl != Flow::Normal) return fl;
  }
  return Flow::Normal;
}

// A loop whose body ended with `fl`, Return or Jump: what the loop's own statement gives. A Jump
// leaves this loop, and reaches the loop it names as a Break or a Continue.
inline Flow past_loop(Flow fl, Frame& f) {
  if (fl != Flow::Jump || --f.jump_levels > 0) return fl;
  return f.jump_continue ? Flow::Continue : Flow::Break;
}

// The passes of a non-empty range a..b or a..=b (at most INT64_MAX).
template <class I>
int64_t range_passes(I a, I b, bool inclusive) {
  const __int128 n = static_cast<__int128>(b) - static_cast<__int128>(a) + (inclusive ? 1 : 0);
  return n > INT64_MAX ? INT64_MAX : static_cast<int64_t>(n);
}

// `for v in a..b` / `a..=b` over the integer type I: exec evaluates the bounds once and, when the
// range is not empty, hands it to run, which makes the passes. A specialised loop that has already
// evaluated the bounds can then give the range to a general one (compile_lane_loop.cpp).
template <class I>
struct RangeLoop : StmtNode {
  int slot = -1;   // the loop variable
  Span loop_span;  // the `for` statement, where --max-steps stops
  const ExprT<I>* start = nullptr;
  const ExprT<I>* end = nullptr;
  bool inclusive = false;
  Flow exec(Frame& f) const final {
    const I a = start->eval(f);
    const I b = end->eval(f);
    if (inclusive ? !(a <= b) : !(a < b)) return Flow::Normal;
    return run(f, a, b);
  }
  // The passes a, a + 1, …, up to b (exclusive or inclusive); the range is not empty. The
  // counter never steps past the end, so `0u8..=255` stops.
  virtual Flow run(Frame& f, I a, I b) const = 0;
  bool last_pass(I v, I b) const { return inclusive ? v == b : static_cast<I>(v + 1) == b; }
};

// Thrown when break/continue/return leaves a block that is an expression's operand (rare: the
// usual statement-level `if` and blocks return a Flow instead); caught by the enclosing statement.
struct FlowEscape {
  Flow flow;
};

// A compiled function: its body; its frames come from the calling thread's ExecContext.
struct CompiledFunction {
  const tir::Function* fn = nullptr;
  int index = 0;  // in ExecContext::functions and ExecContext::pools
  StmtList body;
  std::vector<int> tensor_slots;  // slots to release when a call ends
  bool returns_tensor = false;

  Frame* acquire(ExecContext* ctx) const {
    FramePool& pool = ctx->pools[index];
    if (pool.free.empty()) {
      pool.frames.push_back(std::make_unique<Frame>(fn->slot_count()));
      pool.frames.back()->ctx = ctx;
      return pool.frames.back().get();
    }
    Frame* fr = pool.free.back();
    pool.free.pop_back();
    return fr;
  }
  void release(Frame* fr) const {
    for (int s : tensor_slots) fr->t[s].clear();
    fr->ret_tensor.clear();
    fr->ctx->pools[index].free.push_back(fr);
  }
};

// ---- Helpers shared by the node files -----------------------------------------------------------

// `[i, j]` of a linear offset in a view.
std::string element_text(const TensorView& v, int64_t offset);
// `--check-races`: reports one element access of `v` (at `offset` in the view) to the recorder
// when an across pass is open; a collision stops the run with a runtime error at `span`. Only
// the recording nodes (compiled when a recorder is installed) call it.
void record_access(Frame& f, const TensorView& v, int64_t offset, const std::string& name,
                   bool write, Span span, bool atomic = false);
// The name of the tensor local under an index, view or reference (for messages).
std::string tensor_name(const tir::Expr& e);

// A tensor of `dims` is about to be made at `span`: a runtime error when it would take the live
// tensors past the memory budget (VX_MEMORY_LIMIT).
void check_tensor_budget(Scalar elem, const std::vector<int64_t>& dims, bool uninit, Span span);

// ---- A node that two node files make
// -------------------------------------------------------------

// `fill_dims([n, …], v)`: the dimensions from the sizes, each checked against its limits and the
// type's dimension (kUnknownDim: any), else a runtime error at the size (spec/types.md §3.1).
std::vector<int64_t> run_time_dims(Frame& f, const std::vector<int64_t>& type_dims,
                                   const std::vector<IntOperand>& sizes,
                                   const std::vector<Span>& spans, Span span);

// `Tensor<T, D, M>::fill(v)` / `::uninit()` / `::fill_dims([n, …], v)` (`sizes` not empty).
template <class T>
struct TensorNewNode final : Node {
  const ExprT<T>* fill = nullptr;  // null: uninit
  Scalar elem;
  Memory memory;
  std::vector<int64_t> dims;
  std::vector<IntOperand> sizes;  // fill_dims: one per dimension
  std::vector<Span> size_spans;
  Span span;
  std::unique_ptr<TensorStorage> make(Frame& f) const {
    if (!sizes.empty()) return make(run_time_dims(f, dims, sizes, size_spans, span));
    return make(dims);
  }
  std::unique_ptr<TensorStorage> make(const std::vector<int64_t>& shape) const {
    check_tensor_budget(elem, shape, fill == nullptr, span);
    try {
      return std::make_unique<TensorStorage>(elem, memory, shape, fill == nullptr);
    } catch (const std::bad_alloc&) {
      runtime_error(
          span, "out of memory making a tensor of " + std::to_string(shape.size()) + " dimensions");
    }
  }
  // Fills a storage in place (also used to reuse a tile's storage on the next block pass).
  void fill_into(Frame& f, TensorStorage& s) const {
    if (fill) {
      const T v = fill->eval(f);
      T* p = reinterpret_cast<T*>(s.data);
      for (int64_t i = 0; i < s.size; ++i) p[i] = v;
    } else {
      std::memset(s.init.get(), 0, static_cast<size_t>(s.size));
    }
  }
  void eval_tensor(Frame& f, TensorSlot& out) const override {
    auto s = make(f);
    fill_into(f, *s);
    out.own(std::move(s));
  }
  // `let t = Tensor…` into a slot that already owns a tensor of the same shape (a tile of the
  // last block pass, dead now): reuse its storage.
  void into_slot(Frame& f, TensorSlot& slot) const {
    if (sizes.empty() && slot.owned && slot.owned->elem == elem && slot.owned->dims == dims &&
        (fill != nullptr) == (slot.owned->init == nullptr)) {
      fill_into(f, *slot.owned);
      slot.owned->memory = memory;
      slot.owned->race_id = 0;  // a new tensor for --check-races
      slot.own(std::move(slot.owned));
      return;
    }
    TensorSlot tmp;
    eval_tensor(f, tmp);
    slot = std::move(tmp);
  }
};

}  // namespace vx::interp
