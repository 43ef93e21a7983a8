// The interpreter: the sequential meaning of Vx (spec/semantics.md, DESIGN §3), run from an
// executable tree compiled once from the typed program.
//
// Layout of the executable tree
// -----------------------------
// * Every TIR expression becomes one Node (nodes.hpp). Scalar expressions are ExprT<T> for the
//   C++ storage type T of their Vx type (int8_t … uint64_t, F16, BF16, float, double, bool), so
//   `a + b` on f32 is a Binary<float, Add, …> whose eval() returns a float: no variant, no tag
//   test per value. Operands that are locals or constants are read in place by their parent
//   (OpAny, IntOperand) instead of being nodes of their own, which saves a virtual call per leaf.
// * Locals are frame slots, numbered as the TIR numbers them (tir::Function::slot_types). A Frame
//   holds an array of 8-byte scalar slots (integers sign/zero-extended, floats as bits) and a
//   parallel array of TensorSlots (a tensor the local owns, or a view of another's elements).
// * Tensors are row-major and contiguous; a view `t[i]` of a rank-n tensor is a pointer into the
//   same data with the dims suffix, so indexing is Horner's rule over dims. Indexing a local is
//   fused per rank (IndexLoadSlots<T, R> in compile_index.cpp): one call reads the view, checks
//   every index against its dimension, checks the init flag of an SMEM tile, and loads.
// * A `for` loop whose body is `let`s and one element store or atomic (the usual lane loop, and
//   many host loops) is a LaneLoop (compile_lane_loop.cpp): it proves once, from the range, that
//   every pass's accesses are in bounds and that running a chunk of passes together reads what
//   running them in order would, then computes each expression for 128 passes at a time in a
//   tight loop over arrays. When a proof fails, the general loop (ForStmt, ForStore) runs the
//   range one pass at a time, so errors stay where the sequential run has them.
// * Statements are StmtNodes whose exec() returns a Flow (normal, break, continue, return), so
//   loops need no exceptions. A `break`/`return` inside a block that is an operand of an
//   expression (`let x = { if c { return 1; } 2 };`) is the one rare case that unwinds, with a
//   FlowEscape caught by the enclosing statement (only statements that can need it get a catch).
// * Calls take a frame from the callee's pool (no allocation once warm) and count the depth.
// * Runtime errors throw RuntimeError, caught once in run_program; nothing on the normal path
//   throws or allocates, except making a tensor and printing.
// * A RegionRunner may take a `spawn on` region first (interpreter.hpp). In the interpreter, the
//   blocks of an `across blocks` loop run on TBB tasks, each with a copy of the frame
//   (host_parallel.hpp); lane loops, and everything with VX_HOST_THREADS=1, run one pass at a
//   time, in order.
#include "interp/interpreter.hpp"

#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <sstream>

#include "interp/compiler.hpp"
#include "interp/host_parallel.hpp"
#include "interp/race_check.hpp"
#include "support/diagnostics.hpp"

namespace vx::interp {

// ---- Runtime basics -----------------------------------------------------------------------------

int scalar_size(Scalar s) {
  return with_scalar(s, [](auto v) { return static_cast<int>(sizeof(v)); });
}

int64_t tensor_bytes(Scalar elem, const std::vector<int64_t>& dims, bool uninit) {
  __int128 n = 1;
  for (int64_t x : dims) {
    n *= x < 0 ? 0 : x;
    if (n > INT64_MAX) return INT64_MAX;
  }
  const __int128 b = n * (scalar_size(elem) + (uninit ? 1 : 0));
  return b > INT64_MAX ? INT64_MAX : static_cast<int64_t>(b);
}

TensorStorage::TensorStorage(Scalar e, Memory m, std::vector<int64_t> d, bool uninit)
    : elem(e), memory(m), dims(std::move(d)) {
  size = 1;
  for (int64_t x : dims) size *= x;
  const size_t data_bytes = static_cast<size_t>(size) * static_cast<size_t>(scalar_size(e));
  data =
      static_cast<std::byte*>(::operator new (data_bytes ? data_bytes : 1, std::align_val_t{64}));
  if (uninit) {
    try {
      init.reset(new uint8_t[size ? size : 1]());
    } catch (...) {
      ::operator delete (data, std::align_val_t{64});
      throw;
    }
  }
  bytes = static_cast<int64_t>(data_bytes) + (uninit ? size : 0);
  g_tensor_bytes.fetch_add(bytes, std::memory_order_relaxed);
}

TensorStorage::~TensorStorage() {
  g_tensor_bytes.fetch_sub(bytes, std::memory_order_relaxed);
  if (memory == Memory::Hbm && g_hbm_free_listener.hook)
    g_hbm_free_listener.hook(g_hbm_free_listener.context, data,
                             static_cast<size_t>(size) * static_cast<size_t>(scalar_size(elem)));
  ::operator delete (data, std::align_val_t{64});
}

namespace {

// 1536 -> "1536 bytes (1.5 KiB)".
std::string byte_text(int64_t b) {
  std::string s = std::to_string(b) + " bytes";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(b);
  int u = -1;
  while (v >= 1024 && u < 5) {
    v /= 1024;
    ++u;
  }
  if (u >= 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " (%.1f %s)", v, units[u]);
    s += buf;
  }
  return s;
}

// A tensor of `dims` is about to be made at `span`: a runtime error when it would take the live
// tensors past the memory budget.
void check_tensor_budget(Scalar elem, const std::vector<int64_t>& dims, bool uninit, Span span) {
  const int64_t need = tensor_bytes(elem, dims, uninit);
  const int64_t live = g_tensor_bytes.load(std::memory_order_relaxed);
  if (need <= g_memory_limit - live) return;
  std::string shape;
  for (size_t k = 0; k < dims.size(); ++k) shape += (k ? ", " : "") + std::to_string(dims[k]);
  runtime_error(span, "out of memory: a tensor of [" + shape + "] needs " + byte_text(need) +
                          ", with " + byte_text(live) + " of tensors live; the limit is " +
                          byte_text(g_memory_limit) + " (VX_MEMORY_LIMIT)");
}

}  // namespace

RunLimits RunLimits::starting_now(int64_t max_steps, double max_seconds) {
  RunLimits limits;
  if (max_steps > 0) limits.max_steps = max_steps;
  if (max_seconds > 0) {
    limits.max_seconds = max_seconds;
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    const double ns = max_seconds * 1e9;
    limits.deadline_ns = static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec +
                         (ns >= 9e18 ? int64_t{9000000000000000000} : static_cast<int64_t>(ns));
  }
  return limits;
}

void RunLimits::charge(int64_t n, Span span) {
  const int64_t before = steps;
  steps = n > INT64_MAX - steps ? INT64_MAX : steps + n;
  if (steps > max_steps)
    runtime_error(span, "step limit reached: more than " + std::to_string(max_steps) +
                            " steps (loop passes and calls; --max-steps)");
  // The clock is read once every 2^14 steps (and at every bulk count).
  if (max_seconds > 0 && (n > 1 || (before >> 14) != (steps >> 14))) {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    const int64_t now = static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
    if (now > deadline_ns) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g", max_seconds);
      runtime_error(span, std::string("time limit reached: the run took more than ") + buf +
                              " s (--max-seconds)");
    }
  }
}

void TensorSlot::own(std::unique_ptr<TensorStorage> s) {
  view.data = s->data;
  view.init = s->init.get();
  view.dims = s->dims.data();
  view.rank = static_cast<int>(s->dims.size());
  view.size = s->size;
  view.storage = s.get();
  owned = std::move(s);
}

void runtime_error(Span span, std::string message) { throw RuntimeError{span, std::move(message)}; }

void internal_error(const std::string& what, const char* file_name, int line) {
  std::string file = file_name;
  if (const auto at = file.rfind("src/"); at != std::string::npos) file.erase(0, at);
  throw InternalError("internal error in the interpreter: " + what + " (at " + file + ":" +
                      std::to_string(line) + "; this is a bug in vx)");
}

std::string int_operand_text(uint64_t bits, bool is_unsigned) {
  return is_unsigned ? std::to_string(bits) : std::to_string(static_cast<int64_t>(bits));
}

void index_error(Span span, const std::string& name, int dim, uint64_t index, bool is_unsigned,
                 int64_t len) {
  runtime_error(span, "index out of bounds: the len is " + std::to_string(len) +
                          " but the index is " + int_operand_text(index, is_unsigned) +
                          " (dimension " + std::to_string(dim) + " of `" + name + "`)");
}

std::string element_text(const TensorView& v, int64_t offset) {
  std::vector<int64_t> idx(v.rank);
  for (int k = v.rank - 1; k >= 0; --k) {
    idx[k] = v.dims[k] ? offset % v.dims[k] : 0;
    offset = v.dims[k] ? offset / v.dims[k] : 0;
  }
  std::string s = "[";
  for (int k = 0; k < v.rank; ++k) s += (k ? ", " : "") + std::to_string(idx[k]);
  return s + "]";
}

void uninit_error(Span span, const std::string& name, const TensorView& v, int64_t offset) {
  runtime_error(span, "read of uninitialised element " + element_text(v, offset) +
                          " of SMEM tile `" + name + "`");
}

std::string div_zero_message(tir::BinOp op) {
  return op == tir::BinOp::Div ? "attempt to divide by zero"
                               : "attempt to calculate the remainder with a divisor of zero";
}

void shift_error(Span span, bool left, uint64_t amount, bool amount_unsigned, Scalar lhs) {
  runtime_error(span, std::string("attempt to shift ") + (left ? "left" : "right") + " by " +
                          int_operand_text(amount, amount_unsigned) +
                          ", which is out of range for " + scalar_info(lhs).name);
}

void record_access(Frame& f, const TensorView& v, int64_t offset, const std::string& name,
                   bool write, Span span) {
  ExecContext* ctx = f.ctx;
  if (!ctx->races || ctx->across_open == 0) return;
  // A storage's identity is a number given at its first recorded access, not its address: a
  // tile or register tensor freed by one pass may be allocated again at the same address by the
  // next, and is still another buffer.
  static std::atomic<uint64_t> next_id{1};
  const void* buffer = v.data;
  int64_t element = offset;
  if (TensorStorage* st = v.storage) {
    if (st->race_id == 0) st->race_id = next_id.fetch_add(1, std::memory_order_relaxed);
    buffer = reinterpret_cast<const void*>(static_cast<uintptr_t>(st->race_id));
    element += static_cast<int64_t>(v.data - st->data) / scalar_size(st->elem);
  }
  if (const RaceReport* r = ctx->races->access(buffer, name, element, write, false, span))
    runtime_error(span, "data race: " + r->message());
}

uint64_t Node::eval_bits(Frame&) const { internal_error("a tensor used as a scalar"); }
void Node::eval_tensor(Frame& f, TensorSlot& out) const {
  (void)f;
  (void)out;
  internal_error("a scalar used as a tensor");
}
const TensorView& Node::place(Frame& f, TensorSlot& tmp) const {
  eval_tensor(f, tmp);
  return tmp.view;
}

namespace {

// ---- Expressions that are not scalar arithmetic -------------------------------------------------

struct UnitNode final : Node {
  uint64_t eval_bits(Frame&) const override { return 0; }
};

// A unit or token local.
struct BitsVarNode final : Node {
  int slot;
  explicit BitsVarNode(int s) : slot(s) {}
  uint64_t eval_bits(Frame& f) const override { return f.s[slot]; }
};

// A tensor-like local. As a value it moves an owned tensor out (the checker made the local
// dead); as a place it lends its elements.
struct TensorVarNode final : Node {
  int slot;
  explicit TensorVarNode(int s) : slot(s) {}
  void eval_tensor(Frame& f, TensorSlot& out) const override {
    TensorSlot& s = f.t[slot];
    if (&s == &out) return;
    out.view = s.view;
    if (s.owned) {
      out.owned = std::move(s.owned);
      s.view = {};
    } else {
      out.owned.reset();
    }
  }
  const TensorView& place(Frame& f, TensorSlot&) const override { return f.t[slot].view; }
};

// `&x` / `&mut x`: a view of x's elements.
struct RefNode final : Node {
  const Node* inner;
  explicit RefNode(const Node* n) : inner(n) {}
  void eval_tensor(Frame& f, TensorSlot& out) const override {
    const TensorView v = inner->place(f, out);
    out.view = v;
  }
  const TensorView& place(Frame& f, TensorSlot& tmp) const override { return inner->place(f, tmp); }
};

// `t[i]…` with fewer indices than the rank: the sub-tensor, as a view.
struct ViewNode final : Node {
  const Node* base;
  std::vector<IntOperand> idx;
  int elem_size;
  std::string name;
  Span span;
  void eval_tensor(Frame& f, TensorSlot& out) const override {
    const TensorView v = base->place(f, out);
    int64_t off = 0;
    for (size_t k = 0; k < idx.size(); ++k) {
      const uint64_t i = idx[k].get(f);
      if (i >= static_cast<uint64_t>(v.dims[k]))
        index_error(span, name, static_cast<int>(k), i, idx[k].is_unsigned, v.dims[k]);
      off = off * v.dims[k] + static_cast<int64_t>(i);
    }
    TensorView sub = v;
    sub.dims = v.dims + idx.size();
    sub.rank = v.rank - static_cast<int>(idx.size());
    sub.size = 1;
    for (int k = 0; k < sub.rank; ++k) sub.size *= sub.dims[k];
    off *= sub.size;
    sub.data = v.data + off * elem_size;
    if (v.init) sub.init = v.init + off;
    out.view = sub;
  }
  const TensorView& place(Frame& f, TensorSlot& tmp) const override {
    eval_tensor(f, tmp);
    return tmp.view;
  }
};

// `Tensor<T, D, M>::fill(v)` / `::uninit()`.
template <class T>
struct TensorNewNode final : Node {
  const ExprT<T>* fill = nullptr;  // null: uninit
  Scalar elem;
  Memory memory;
  std::vector<int64_t> dims;
  Span span;
  std::unique_ptr<TensorStorage> make() const {
    check_tensor_budget(elem, dims, fill == nullptr, span);
    try {
      return std::make_unique<TensorStorage>(elem, memory, dims, fill == nullptr);
    } catch (const std::bad_alloc&) {
      runtime_error(
          span, "out of memory making a tensor of " + std::to_string(dims.size()) + " dimensions");
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
    auto s = make();
    fill_into(f, *s);
    out.own(std::move(s));
  }
  // `let t = Tensor…` into a slot that already owns a tensor of the same shape (a tile of the
  // last block pass, dead now): reuse its storage.
  void into_slot(Frame& f, TensorSlot& slot) const {
    if (slot.owned && slot.owned->elem == elem && slot.owned->dims == dims &&
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

// `transfer(x, M)`: moves the tensor; only its memory tag changes.
struct TransferNode final : Node {
  const Node* arg;
  Memory memory;
  void eval_tensor(Frame& f, TensorSlot& out) const override {
    TensorSlot tmp;
    arg->eval_tensor(f, tmp);
    if (tmp.owned) tmp.owned->memory = memory;
    out = std::move(tmp);
  }
};

// A block or `if` used as a value. Statements run first; a break/continue/return that leaves
// the block unwinds with FlowEscape (see the layout note).
struct BlockValueNode final : Node {
  const ExprT<bool>* cond = nullptr;  // null: a plain block
  StmtList then_stmts;
  const Node* then_tail = nullptr;
  bool has_else = false;
  StmtList else_stmts;
  const Node* else_tail = nullptr;

  const Node* run(Frame& f) const {
    const bool take_then = cond == nullptr || cond->eval(f);
    if (!take_then && !has_else) return nullptr;
    const Flow fl = run_list(take_then ? then_stmts : else_stmts, f);
    if (fl != Flow::Normal) throw FlowEscape{fl};
    return take_then ? then_tail : else_tail;
  }
  uint64_t eval_bits(Frame& f) const override {
    const Node* tail = run(f);
    return tail ? tail->eval_bits(f) : 0;
  }
  void eval_tensor(Frame& f, TensorSlot& out) const override {
    const Node* tail = run(f);
    if (!tail) internal_error("a block without a tensor value");
    tail->eval_tensor(f, out);
  }
};

// A call of a user function.
struct CallNode final : Node {
  int fn_index;
  std::vector<const Node*> args;
  std::vector<bool> arg_is_tensor;
  Span span;

  Frame* enter(Frame& f, CompiledFunction*& cf) const {
    ExecContext* ctx = f.ctx;
    cf = (*ctx->functions)[fn_index].get();
    Frame* callee = cf->acquire(ctx);
    const std::vector<int>& params = cf->fn->param_slots;
    for (size_t i = 0; i < args.size(); ++i) {
      if (arg_is_tensor[i]) {
        TensorSlot tmp;
        args[i]->eval_tensor(f, tmp);
        callee->t[params[i]] = std::move(tmp);
      } else {
        callee->s[params[i]] = args[i]->eval_bits(f);
      }
    }
    count_steps(ctx, 1, span);
    if (++ctx->depth > ctx->max_depth) {
      runtime_error(
          span, "stack overflow: more than " + std::to_string(ctx->max_depth) + " nested calls");
    }
    run_list(cf->body, *callee);
    --ctx->depth;
    return callee;
  }
  uint64_t eval_bits(Frame& f) const override {
    CompiledFunction* cf;
    Frame* callee = enter(f, cf);
    const uint64_t r = callee->ret_bits;
    cf->release(callee);
    return r;
  }
  void eval_tensor(Frame& f, TensorSlot& out) const override {
    CompiledFunction* cf;
    Frame* callee = enter(f, cf);
    TensorSlot r = std::move(callee->ret_tensor);
    cf->release(callee);
    out = std::move(r);
  }
};

// ---- Statements ---------------------------------------------------------------------------------

struct LetBits final : StmtNode {
  int slot;
  const Node* value;
  Flow exec(Frame& f) const override {
    f.s[slot] = value->eval_bits(f);
    return Flow::Normal;
  }
};

// `let x = leaf;` (a local, a constant, an element load): the leaf read in place.
template <class T>
struct LetLeaf final : StmtNode {
  int slot;
  Leaf<T> value;
  Flow exec(Frame& f) const override {
    f.s[slot] = to_bits<T>(value.get(f));
    return Flow::Normal;
  }
};

struct LetTensor final : StmtNode {
  int slot;
  const Node* value;
  Flow exec(Frame& f) const override {
    TensorSlot tmp;
    value->eval_tensor(f, tmp);
    f.t[slot] = std::move(tmp);
    return Flow::Normal;
  }
};

template <class T>
struct LetTensorNew final : StmtNode {
  int slot;
  const TensorNewNode<T>* value;
  Flow exec(Frame& f) const override {
    value->into_slot(f, f.t[slot]);
    return Flow::Normal;
  }
};

struct ExprStmt final : StmtNode {
  const Node* value;
  bool is_tensor;
  Flow exec(Frame& f) const override {
    if (is_tensor) {
      TensorSlot tmp;
      value->eval_tensor(f, tmp);
    } else {
      value->eval_bits(f);
    }
    return Flow::Normal;
  }
};

struct IfStmt final : StmtNode {
  const ExprT<bool>* cond;
  StmtList then_list, else_list;
  Flow exec(Frame& f) const override { return run_list(cond->eval(f) ? then_list : else_list, f); }
};

struct BlockStmt final : StmtNode {
  StmtList list;
  Flow exec(Frame& f) const override { return run_list(list, f); }
};

// The loops below are compiled twice: without a step count (the usual run, the same code as
// before limits existed) and with one (--max-steps, --max-seconds), chosen once per loop run.
struct WhileStmt final : StmtNode {
  const ExprT<bool>* cond;
  StmtList body;
  Span span;
  template <bool Count>
  Flow passes(Frame& f, RunLimits* limits) const {
    while (cond->eval(f)) {
      if constexpr (Count) limits->charge(1, span);
      const Flow fl = run_list(body, f);
      if (fl == Flow::Break) break;
      if (fl == Flow::Return) return fl;
    }
    return Flow::Normal;
  }
  Flow exec(Frame& f) const override {
    RunLimits* const limits = f.ctx->limits;
    return limits ? passes<true>(f, limits) : passes<false>(f, nullptr);
  }
};

struct LoopStmt final : StmtNode {
  StmtList body;
  Span span;
  template <bool Count>
  Flow passes(Frame& f, RunLimits* limits) const {
    for (;;) {
      if constexpr (Count) limits->charge(1, span);
      const Flow fl = run_list(body, f);
      if (fl == Flow::Break) break;
      if (fl == Flow::Return) return fl;
    }
    return Flow::Normal;
  }
  Flow exec(Frame& f) const override {
    RunLimits* const limits = f.ctx->limits;
    return limits ? passes<true>(f, limits) : passes<false>(f, nullptr);
  }
};

// `for v in a..b` / `a..=b` (also across blocks / lanes: one pass at a time, in order).
template <class T>
struct ForStmt final : RangeLoop<T> {
  StmtList body;
  Flow run(Frame& f, T a, T b) const override {
    RunLimits* const limits = f.ctx->limits;
    return limits ? passes<true>(f, a, b, limits) : passes<false>(f, a, b, nullptr);
  }
  template <bool Count>
  Flow passes(Frame& f, T a, T b, RunLimits* limits) const {
    const int slot = this->slot;
    if (body.size() == 2) {  // `let x = …; t[…] = …;`: both called directly
      const StmtNode* first = body[0];
      const StmtNode* second = body[1];
      for (T v = a;; v = static_cast<T>(v + 1)) {
        f.s[slot] = to_bits<T>(v);
        if constexpr (Count) limits->charge(1, this->loop_span);
        Flow fl = first->exec(f);
        if (fl == Flow::Normal) fl = second->exec(f);
        if (fl == Flow::Break) break;
        if (fl == Flow::Return) return fl;
        if (this->last_pass(v, b)) break;
      }
      return Flow::Normal;
    }
    if (body.size() == 1) {  // the usual kernel loop: one statement, called directly
      const StmtNode* only = body[0];
      for (T v = a;; v = static_cast<T>(v + 1)) {
        f.s[slot] = to_bits<T>(v);
        if constexpr (Count) limits->charge(1, this->loop_span);
        const Flow fl = only->exec(f);
        if (fl == Flow::Break) break;
        if (fl == Flow::Return) return fl;
        if (this->last_pass(v, b)) break;
      }
      return Flow::Normal;
    }
    for (T v = a;; v = static_cast<T>(v + 1)) {
      f.s[slot] = to_bits<T>(v);
      if constexpr (Count) limits->charge(1, this->loop_span);
      const Flow fl = run_list(body, f);
      if (fl == Flow::Break) break;
      if (fl == Flow::Return) return fl;
      if (this->last_pass(v, b)) break;
    }
    return Flow::Normal;
  }
};

// `for b in a..b across blocks` with more than one host thread: the passes run on TBB tasks
// (host_parallel.hpp). The checker keeps break, continue and return from leaving the loop, so
// a pass always ends normally or with a runtime error.
template <class T>
struct AcrossBlocksStmt final : StmtNode {
  ForStmt<T> seq;               // the loop one pass at a time (one host thread)
  PrivateSumPlan private_sums;  // tensors each task sums by itself
  static void pass(const void* self, Frame& f, uint64_t value) {
    const ForStmt<T>& loop = static_cast<const AcrossBlocksStmt*>(self)->seq;
    f.s[loop.slot] = to_bits<T>(static_cast<T>(value));
    run_list(loop.body, f);
  }
  Flow exec(Frame& f) const override {
    if (f.ctx->host_threads <= 1) return seq.exec(f);
    const T a = seq.start->eval(f);
    const T b = seq.end->eval(f);
    if (seq.inclusive ? !(a <= b) : !(a < b)) return Flow::Normal;
    const __int128 count =
        static_cast<__int128>(b) - static_cast<__int128>(a) + (seq.inclusive ? 1 : 0);
    if (count > INT64_MAX) return seq.run(f, a, b);  // more passes than any run could make
    run_blocks_parallel(f, static_cast<int64_t>(count), to_bits<T>(a), &pass, this, private_sums);
    return Flow::Normal;
  }
};

// `--check-races`: an across loop whose passes are announced to the recorder; the end of a lane
// loop is the block's barrier.
template <class T>
struct RecAcrossStmt final : StmtNode {
  int slot;
  const ExprT<T>* start;
  const ExprT<T>* end;
  bool inclusive;
  PassLevel level;
  Span span;
  StmtList body;
  Flow exec(Frame& f) const override {
    ExecContext* ctx = f.ctx;
    RaceRecorder& rec = *ctx->races;
    const T a = start->eval(f);
    const T b = end->eval(f);
    Flow result = Flow::Normal;
    if (inclusive ? !(a <= b) : !(a < b)) {
      if (level == PassLevel::Lane) rec.end_phase();
      return result;
    }
    struct Pass {  // leaves the pass however the body ends
      RaceRecorder& rec;
      ExecContext* ctx;
      const void* loop;
      ~Pass() {
        rec.leave_pass(loop);
        --ctx->across_open;
      }
    };
    for (T v = a;; v = static_cast<T>(v + 1)) {
      f.s[slot] = to_bits<T>(v);
      count_steps(ctx, 1, span);
      Flow fl;
      {
        rec.enter_pass(this, level, static_cast<int64_t>(v));
        ++ctx->across_open;
        Pass pass{rec, ctx, this};
        fl = run_list(body, f);
      }
      if (fl == Flow::Break) break;
      if (fl == Flow::Return) {
        result = fl;
        break;
      }
      if (inclusive ? v == b : static_cast<T>(v + 1) == b) break;
    }
    if (level == PassLevel::Lane) rec.end_phase();
    return result;
  }
};

// `--check-races`: a region run in the interpreter (never offloaded), with the recorder told
// where it starts and ends.
struct RecSpawnStmt final : StmtNode {
  StmtList body;
  Flow exec(Frame& f) const override {
    RaceRecorder& rec = *f.ctx->races;
    rec.enter_region();
    const Flow fl = run_list(body, f);
    rec.leave_region();
    return fl;
  }
};

// VX_TIME_KERNEL=1: one line per region run in the interpreter, like the offload tier's: the
// wall time, then the CPU time of the process (all host threads) over the same span.
double process_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

void report_region_time(const ExecContext& ctx, Span span, double ms, double cpu_ms) {
  const SourceFile& file = *ctx.program->file;
  const LineCol lc = file.line_col(span.begin);
  std::ostringstream line;
  line << "vx: kernel " << file.path() << ":" << lc.line << ":" << lc.col << ": " << ms
       << " ms, host, " << ctx.host_threads << (ctx.host_threads == 1 ? " thread" : " threads")
       << ", cpu " << cpu_ms << " ms\n";
  *ctx.err << line.str() << std::flush;
}

struct SpawnStmt final : StmtNode {
  const tir::Stmt* stmt;
  StmtList body;
  Flow exec(Frame& f) const override {
    if (f.ctx->runner && f.ctx->runner->run_region(*stmt, f)) return Flow::Normal;
    if (!f.ctx->time_kernel) return run_list(body, f);
    const double cpu0 = process_cpu_ms();
    const auto t0 = std::chrono::steady_clock::now();
    const Flow fl = run_list(body, f);
    const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - t0;
    report_region_time(*f.ctx, stmt->span, ms.count(), process_cpu_ms() - cpu0);
    return fl;
  }
};

// An offload mark (offload/marks.hpp): the runner acts there; the interpreter does nothing.
struct MarkStmt final : StmtNode {
  const tir::Stmt* stmt;
  Flow exec(Frame& f) const override {
    if (f.ctx->runner) f.ctx->runner->at_mark(*stmt, f);
    return Flow::Normal;
  }
};

struct NoStmt final : StmtNode {
  Flow exec(Frame&) const override { return Flow::Normal; }
};

struct ReturnStmt final : StmtNode {
  const Node* value = nullptr;
  bool is_tensor = false;
  Flow exec(Frame& f) const override {
    if (!value) {
      f.ret_bits = 0;
    } else if (is_tensor) {
      TensorSlot tmp;
      value->eval_tensor(f, tmp);
      f.ret_tensor = std::move(tmp);
    } else {
      f.ret_bits = value->eval_bits(f);
    }
    return Flow::Return;
  }
};

struct FlowStmt final : StmtNode {
  Flow flow;
  explicit FlowStmt(Flow fl) : flow(fl) {}
  Flow exec(Frame&) const override { return flow; }
};

struct CatchFlow final : StmtNode {
  const StmtNode* inner;
  explicit CatchFlow(const StmtNode* s) : inner(s) {}
  Flow exec(Frame& f) const override {
    try {
      return inner->exec(f);
    } catch (const FlowEscape& e) {
      return e.flow;
    }
  }
};

bool is_tensor_type(const vx::Type& t) { return t.is_tensor_like(); }

std::string var_name(const tir::Expr& e) {
  if (e.kind == tir::ExprKind::Var) return e.text;
  if (!e.args.empty()) return var_name(*e.args[0]);
  return "tensor";
}

}  // namespace

std::string tensor_name(const tir::Expr& e) { return var_name(e); }

// ---- The compiler: statements and generic expressions -------------------------------------------

std::string Compiler::source_text(Span span) const {
  const std::string& text = program_.file->text();
  if (span.begin > span.end || span.end > text.size()) return "";
  return text.substr(span.begin, span.end - span.begin);
}

namespace {

// `e` as constant + Σ coef·local, when it is made of locals, constants, +, - and * by a constant
// (all in e's integer type, so wrapping modulo 2^64 and then to the width is exact).
bool affine_terms(const tir::Expr& e, uint64_t scale, IntOperand& op) {
  using tir::BinOp;
  using tir::ExprKind;
  if (e.kind == ExprKind::Literal) {
    op.constant += scale * static_cast<uint64_t>(e.lit.i);
    return true;
  }
  if (e.kind == ExprKind::Var && e.type.is_scalar()) {
    for (int k = 0; k < op.terms; ++k) {
      if (op.term_slot[k] == e.slot) {
        op.term_coef[k] += scale;
        return true;
      }
    }
    if (op.terms == 3) return false;
    op.term_slot[op.terms] = e.slot;
    op.term_coef[op.terms] = scale;
    ++op.terms;
    return true;
  }
  if (e.kind != ExprKind::Binary) return false;
  const tir::Expr& l = *e.args[0];
  const tir::Expr& r = *e.args[1];
  switch (e.bop) {
    case BinOp::Add:
      return affine_terms(l, scale, op) && affine_terms(r, scale, op);
    case BinOp::Sub:
      return affine_terms(l, scale, op) && affine_terms(r, uint64_t{0} - scale, op);
    case BinOp::Mul:
      if (r.kind == ExprKind::Literal)
        return affine_terms(l, scale * static_cast<uint64_t>(r.lit.i), op);
      if (l.kind == ExprKind::Literal)
        return affine_terms(r, scale * static_cast<uint64_t>(l.lit.i), op);
      return false;
    default:
      return false;
  }
}

}  // namespace

IntOperand Compiler::int_operand(const tir::Expr& e) {
  IntOperand op;
  op.is_unsigned = e.type.is_scalar() && is_int(e.type.scalar) && !is_signed_int(e.type.scalar);
  if (e.kind == tir::ExprKind::Var && e.type.is_scalar()) {
    op.slot = e.slot;
    return op;
  }
  if (e.type.is_scalar() && is_int(e.type.scalar) && e.kind == tir::ExprKind::Binary) {
    IntOperand affine = op;
    affine.shift = static_cast<uint8_t>(64 - 8 * scalar_size(e.type.scalar));
    if (affine_terms(e, 1, affine) && affine.terms > 0) return affine;
  }
  op.e = value(e);
  return op;
}

TensorOperand Compiler::tensor_operand(const tir::Expr& e) {
  TensorOperand op;
  const tir::Expr* x = &e;
  if (x->kind == tir::ExprKind::Ref && x->args[0]->kind == tir::ExprKind::Var) x = x->args[0];
  if (x->kind == tir::ExprKind::Var && is_tensor_type(x->type))
    op.slot = x->slot;
  else
    op.node = value(e);
  return op;
}

const Node* Compiler::value(const tir::Expr& e) {
  using tir::ExprKind;
  switch (e.kind) {
    case ExprKind::Literal:
      return with_scalar(e.type.scalar, [&](auto tag) -> const Node* {
        using T = decltype(tag);
        return make<LitNode<T>>(literal_value<T>(e.lit));
      });
    case ExprKind::Unit:
    case ExprKind::String:
      return make<UnitNode>();
    case ExprKind::Var:
      if (e.type.is_scalar()) {
        return with_scalar(e.type.scalar, [&](auto tag) -> const Node* {
          return make<VarNode<decltype(tag)>>(e.slot);
        });
      }
      if (is_tensor_type(e.type)) return make<TensorVarNode>(e.slot);
      return make<BitsVarNode>(e.slot);
    case ExprKind::Unary:
      return unary(e);
    case ExprKind::Binary:
      return binary(e);
    case ExprKind::Cast:
      return cast(e);
    case ExprKind::Index:
      return index_load(e);
    case ExprKind::View: {
      auto* n = make<ViewNode>();
      n->base = value(*e.args[0]);
      for (size_t k = 1; k < e.args.size(); ++k) n->idx.push_back(int_operand(*e.args[k]));
      n->elem_size = scalar_size(e.type.scalar);
      n->name = var_name(e);
      n->span = e.span;
      return n;
    }
    case ExprKind::Ref:
      return make<RefNode>(value(*e.args[0]));
    case ExprKind::Call: {
      auto* n = make<CallNode>();
      n->fn_index = e.fn_index;
      n->span = e.span;
      for (const tir::Expr* a : e.args) {
        n->args.push_back(value(*a));
        n->arg_is_tensor.push_back(is_tensor_type(a->type));
      }
      return n;
    }
    case ExprKind::Builtin:
      return builtin(e);
    case ExprKind::TensorNew:
      return with_scalar(e.type.scalar, [&](auto tag) -> const Node* {
        using T = decltype(tag);
        auto* n = make<TensorNewNode<T>>();
        if (e.builtin_fill) n->fill = scalar<T>(*e.args[0]);
        n->elem = e.type.scalar;
        n->memory = e.type.memory;
        n->dims = e.type.dims;
        n->span = e.span;
        return n;
      });
    case ExprKind::Transfer: {
      auto* n = make<TransferNode>();
      n->arg = value(*e.args[0]);
      n->memory = e.type.memory;
      return n;
    }
    case ExprKind::If:
      return block_value(e.block, e.args[0], e.else_block, e.type);
    case ExprKind::BlockExpr:
      return block_value(e.block, nullptr, nullptr, e.type);
    case ExprKind::Print:
      return print(e);
    case ExprKind::Assert:
      return assert_(e);
  }
  internal_error("unknown expression kind");
}

const Node* Compiler::block_value(const tir::Block* b, const tir::Expr* cond,
                                  const tir::Block* else_b, const vx::Type&) {
  auto* n = make<BlockValueNode>();
  if (cond) n->cond = scalar<bool>(*cond);
  ++expr_block_depth_;
  n->then_stmts = block_stmts(*b, Tail::Skip);
  if (b->tail) n->then_tail = value(*b->tail);
  if (else_b) {
    n->has_else = true;
    n->else_stmts = block_stmts(*else_b, Tail::Skip);
    if (else_b->tail) n->else_tail = value(*else_b->tail);
  }
  --expr_block_depth_;
  return n;
}

StmtList Compiler::block_stmts(const tir::Block& b, Tail tail) {
  StmtList out;
  for (const tir::Stmt* s : b.stmts) out.push_back(stmt(*s));
  if (tail == Tail::Skip) return out;
  if (b.tail)
    out.push_back(tail_stmt(*b.tail, tail));
  else if (tail == Tail::Return)
    out.push_back(make<ReturnStmt>());
  return out;
}

// The tail of a block that is run as a statement (Discard) or that is a function's value
// (Return). `if` and blocks stay statements, so a `return` inside them needs no unwinding.
const StmtNode* Compiler::tail_stmt(const tir::Expr& e, Tail tail) {
  if (e.kind == tir::ExprKind::If) {
    auto* n = make<IfStmt>();
    n->cond = scalar<bool>(*e.args[0]);
    n->then_list = block_stmts(*e.block, tail);
    if (e.else_block)
      n->else_list = block_stmts(*e.else_block, tail);
    else if (tail == Tail::Return)
      n->else_list.push_back(make<ReturnStmt>());
    return n;
  }
  if (e.kind == tir::ExprKind::BlockExpr) {
    auto* n = make<BlockStmt>();
    n->list = block_stmts(*e.block, tail);
    return n;
  }
  const bool tensor = is_tensor_type(e.type);
  if (tail == Tail::Return) {
    auto* r = make<ReturnStmt>();
    r->value = value(e);
    r->is_tensor = tensor;
    return r;
  }
  auto* x = make<ExprStmt>();
  x->value = value(e);
  x->is_tensor = tensor;
  return x;
}

const StmtNode* Compiler::stmt(const tir::Stmt& s) {
  const bool outer = escape_seen_;
  escape_seen_ = false;
  const StmtNode* n = stmt_inner(s);
  if (escape_seen_ && expr_block_depth_ == 0) {
    n = make<CatchFlow>(n);
    escape_seen_ = false;
  }
  escape_seen_ = escape_seen_ || outer;
  return n;
}

const StmtNode* Compiler::let_or_assign_tensor(int slot, const tir::Expr& v) {
  if (v.kind == tir::ExprKind::TensorNew) {
    return with_scalar(v.type.scalar, [&](auto tag) -> const StmtNode* {
      using T = decltype(tag);
      auto* n = make<LetTensorNew<T>>();
      n->slot = slot;
      n->value = static_cast<const TensorNewNode<T>*>(value(v));
      return n;
    });
  }
  auto* n = make<LetTensor>();
  n->slot = slot;
  n->value = value(v);
  return n;
}

const StmtNode* Compiler::stmt_inner(const tir::Stmt& s) {
  using tir::StmtKind;
  switch (s.kind) {
    case StmtKind::Let: {
      if (!s.value) return make<BlockStmt>();
      if (is_tensor_type(s.value->type)) return let_or_assign_tensor(s.slot, *s.value);
      if (s.value->type.is_scalar() &&
          (is_leaf(*s.value) || s.value->kind == tir::ExprKind::Index)) {
        const StmtNode* let = with_scalar(s.value->type.scalar, [&](auto tag) -> const StmtNode* {
          using T = decltype(tag);
          Leaf<T> leaf_value;
          const Node* node = nullptr;
          if (!leaf<T>(*s.value, leaf_value, &node)) return nullptr;
          auto* n = make<LetLeaf<T>>();
          n->slot = s.slot;
          n->value = leaf_value;
          return n;
        });
        if (let) return let;
      }
      auto* n = make<LetBits>();
      n->slot = s.slot;
      n->value = value(*s.value);
      return n;
    }
    case StmtKind::Assign: {
      const tir::Expr& t = *s.target;
      if (t.kind == tir::ExprKind::Index) return index_store(s);
      if (is_tensor_type(t.type)) return let_or_assign_tensor(t.slot, *s.value);
      if (s.compound) return var_compound(s);
      auto* n = make<LetBits>();
      n->slot = t.slot;
      n->value = value(*s.value);
      return n;
    }
    case StmtKind::Expr:
      return tail_stmt(*s.value, Tail::Discard);
    case StmtKind::While: {
      auto* n = make<WhileStmt>();
      n->span = s.span;
      n->cond = scalar<bool>(*s.value);
      n->body = block_stmts(*s.body, Tail::Discard);
      return n;
    }
    case StmtKind::Loop: {
      auto* n = make<LoopStmt>();
      n->span = s.span;
      n->body = block_stmts(*s.body, Tail::Discard);
      return n;
    }
    case StmtKind::For:
      return for_stmt(s);
    case StmtKind::Spawn: {
      if (record_races) {
        auto* n = make<RecSpawnStmt>();
        n->body = block_stmts(*s.body, Tail::Discard);
        return n;
      }
      auto* n = make<SpawnStmt>();
      n->stmt = &s;
      n->body = block_stmts(*s.body, Tail::Discard);
      return n;
    }
    case StmtKind::OffloadMark: {
      if (record_races) return make<NoStmt>();  // regions stay in the interpreter: no runner acts
      auto* n = make<MarkStmt>();
      n->stmt = &s;
      return n;
    }
    case StmtKind::Return: {
      if (expr_block_depth_ > 0) escape_seen_ = true;
      auto* r = make<ReturnStmt>();
      if (s.value) {
        r->value = value(*s.value);
        r->is_tensor = is_tensor_type(s.value->type);
      }
      return r;
    }
    case StmtKind::Break:
      if (expr_block_depth_ > 0) escape_seen_ = true;
      return make<FlowStmt>(Flow::Break);
    case StmtKind::Continue:
      if (expr_block_depth_ > 0) escape_seen_ = true;
      return make<FlowStmt>(Flow::Continue);
  }
  internal_error("unknown statement kind");
}

const StmtNode* Compiler::for_stmt(const tir::Stmt& s) {
  const Scalar sc = s.start->type.scalar;
  return with_scalar(sc, [&](auto tag) -> const StmtNode* {
    using T = decltype(tag);
    if constexpr (kIsInt<T>) {
      if (record_races && s.across != tir::Across::None) {
        auto* n = make<RecAcrossStmt<T>>();
        n->slot = s.slot;
        n->start = scalar<T>(*s.start);
        n->end = scalar<T>(*s.end);
        n->inclusive = s.inclusive;
        n->level = s.across == tir::Across::Blocks ? PassLevel::Block : PassLevel::Lane;
        n->span = s.span;
        n->body = block_stmts(*s.body, Tail::Discard);
        return n;
      }
      auto fill = [&](ForStmt<T>& n) {
        n.slot = s.slot;
        n.start = scalar<T>(*s.start);
        n.end = scalar<T>(*s.end);
        n.inclusive = s.inclusive;
        n.loop_span = s.span;
        n.body = block_stmts(*s.body, Tail::Discard);
      };
      if (s.across == tir::Across::Blocks) {
        auto* n = make<AcrossBlocksStmt<T>>();
        fill(n->seq);
        n->private_sums = private_sum_tensors(s);
        return n;
      }
      const StmtNode* general = for_store(s);  // a ForStore or a ForStmt: a RangeLoop<T>
      if (!general) {
        auto* n = make<ForStmt<T>>();
        fill(*n);
        general = n;
      }
      if (const StmtNode* lanes = lane_loop(s, general)) return lanes;
      return general;
    } else {
      internal_error("a for loop over a non-integer range");
    }
  });
}

std::vector<std::unique_ptr<CompiledFunction>> Compiler::compile_all() {
  std::vector<std::unique_ptr<CompiledFunction>> out;
  for (const tir::Function& fn : program_.functions) {
    auto cf = std::make_unique<CompiledFunction>();
    cf->fn = &fn;
    cf->index = static_cast<int>(out.size());
    cf->returns_tensor = is_tensor_type(fn.ret);
    for (int i = 0; i < fn.slot_count(); ++i)
      if (is_tensor_type(fn.slot_types[i])) cf->tensor_slots.push_back(i);
    out.push_back(std::move(cf));
  }
  for (size_t i = 0; i < program_.functions.size(); ++i) {
    expr_block_depth_ = 0;
    escape_seen_ = false;
    if (program_.functions[i].body)
      out[i]->body = block_stmts(*program_.functions[i].body, Tail::Return);
  }
  return out;
}

// ---- Running ------------------------------------------------------------------------------------

namespace {

// VX_MEMORY_LIMIT: bytes, with an optional K, M, G or T suffix (powers of 1024); unset: half of
// the physical memory (8 GiB when that is unknown). Sets `error` when the value is not a size.
int64_t memory_limit(std::string* error) {
  const char* env = std::getenv("VX_MEMORY_LIMIT");
  if (!env || !*env) {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) return static_cast<int64_t>(pages) * page / 2;
    return int64_t{8} << 30;
  }
  const std::string s = env;
  size_t i = 0;
  unsigned __int128 v = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9' && v <= INT64_MAX) v = v * 10 + (s[i++] - '0');
  int shift = 0;
  if (i + 1 == s.size()) {
    const char c = s[i] & ~0x20;  // upper case
    shift = c == 'K' ? 10 : c == 'M' ? 20 : c == 'G' ? 30 : c == 'T' ? 40 : -1;
    if (shift > 0) ++i;
  }
  if (i == 0 || i != s.size() || shift < 0 || (v << shift) > INT64_MAX) {
    *error = "VX_MEMORY_LIMIT=" + s +
             " is not a size (a number of bytes, with an optional K, M, G or T suffix)";
    return 0;
  }
  return static_cast<int64_t>(v << shift);
}

struct RunJob {
  const tir::Program* program;
  const RunOptions* options;
  int status = 0;
};

int run_on_this_thread(const tir::Program& program, const RunOptions& options) {
  std::ostream& err = *options.err;
  std::string limit_error;
  g_memory_limit = memory_limit(&limit_error);
  if (!limit_error.empty()) {
    render_plain_error(err, limit_error, options.error_format);
    return 2;
  }
  RunLimits limits = RunLimits::starting_now(options.max_steps, options.max_seconds);
  const bool limited = limits.limited();
  try {
    if (program.main_index < 0 || program.main_index >= static_cast<int>(program.functions.size()))
      internal_error("the program has no main");
    Compiler compiler(program);
    compiler.record_races = options.race_recorder != nullptr;
    auto functions = compiler.compile_all();
    HostThreads threads;
    ExecContext ctx;
    ctx.out = options.out;
    ctx.err = options.err;
    ctx.runner = options.runner;
    ctx.races = options.race_recorder;
    ctx.functions = &functions;
    ctx.program = &program;
    ctx.max_depth = options.max_call_depth;
    // With a step or time limit the blocks run in order on this thread: the count is the same
    // from run to run, and so is where it stops.
    ctx.host_threads = limited ? 1 : threads.count();
    if (limited) ctx.limits = &limits;
    const char* time_kernel = std::getenv("VX_TIME_KERNEL");
    ctx.time_kernel = time_kernel && std::strcmp(time_kernel, "1") == 0;
    ctx.pools.resize(functions.size());
    CompiledFunction& main_fn = *functions[program.main_index];
    Frame* frame = main_fn.acquire(&ctx);
    int status = 0;
    try {
      run_list(main_fn.body, *frame);
      if (main_fn.fn->ret.is_scalar(Scalar::I32))
        status = static_cast<int>(static_cast<uint32_t>(frame->ret_bits) & 0xFF);
    } catch (...) {
      options.out->flush();
      throw;
    }
    options.out->flush();
    return status;
  } catch (const RuntimeError& e) {
    Diagnostic d;
    d.message = "runtime error: " + e.message;
    d.span = e.span;
    if (options.report_error)
      options.report_error(err, d);
    else
      render_human(err, *program.file, d);
    err.flush();
    return 101;
  } catch (const FlowEscape&) {
    render_plain_error(err,
                       "internal error: a break or return left its function in the interpreter "
                       "(this is a bug in vx)",
                       options.error_format);
    return 70;
  } catch (const InternalError& e) {
    render_plain_error(err, e.what(), options.error_format);
    return 70;
  } catch (const std::bad_alloc&) {
    render_plain_error(err, "runtime error: out of memory", options.error_format);
    return 101;
  }
}

void* run_thread(void* p) {
  auto* job = static_cast<RunJob*>(p);
  job->status = run_on_this_thread(*job->program, *job->options);
  return nullptr;
}

}  // namespace

int run_program(const tir::Program& program, const RunOptions& options) {
  RunJob job{&program, &options};
  pthread_attr_t attr;
  pthread_t thread;
  // 10,000 nested Vx calls take a few tens of MiB of C++ stack; reserve plenty (only touched
  // pages are committed).
  const size_t stack = size_t{1} << 30;
  if (pthread_attr_init(&attr) == 0) {
    const bool ok = pthread_attr_setstacksize(&attr, stack) == 0 &&
                    pthread_create(&thread, &attr, run_thread, &job) == 0;
    pthread_attr_destroy(&attr);
    if (ok) {
      pthread_join(thread, nullptr);
      return job.status;
    }
  }
  return run_on_this_thread(program, options);
}

}  // namespace vx::interp
