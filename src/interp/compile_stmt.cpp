// Statements and functions (spec/semantics.md §7–§9): lets, blocks, if/while/loop, `for` (the
// general loop; compile_lane_loop.cpp makes the fused one), `across blocks` on host threads
// (host_parallel.hpp), `spawn` regions and their runner's marks, return/break/continue, and
// Compiler::compile_all, which makes every function's body.
#include <time.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <sstream>

#include "interp/compiler.hpp"
#include "interp/host_parallel.hpp"
#include "interp/interpreter.hpp"
#include "interp/race_check.hpp"
#include "support/diagnostics.hpp"

namespace vx::interp {

namespace {

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

// `while cond { … }` (HasCond) and `loop { … }` (no condition, none tested). Like the loops
// below, compiled twice: without a step count (the usual run, the same code as before limits
// existed) and with one (--max-steps, --max-seconds), chosen once per loop run.
template <bool HasCond>
struct LoopStmt final : StmtNode {
  const ExprT<bool>* cond = nullptr;
  StmtList body;
  Span span;
  template <bool Count>
  Flow passes(Frame& f, RunLimits* limits) const {
    while (!HasCond || cond->eval(f)) {
      if constexpr (Count) limits->charge(1, span);
      const Flow fl = run_list(body, f);
      if (fl == Flow::Break) break;
      if (fl >= Flow::Return) return past_loop(fl, f);
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
        if (fl >= Flow::Return) return past_loop(fl, f);
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
        if (fl >= Flow::Return) return past_loop(fl, f);
        if (this->last_pass(v, b)) break;
      }
      return Flow::Normal;
    }
    for (T v = a;; v = static_cast<T>(v + 1)) {
      f.s[slot] = to_bits<T>(v);
      if constexpr (Count) limits->charge(1, this->loop_span);
      const Flow fl = run_list(body, f);
      if (fl == Flow::Break) break;
      if (fl >= Flow::Return) return past_loop(fl, f);
      if (this->last_pass(v, b)) break;
    }
    return Flow::Normal;
  }
};

// `for v in (a..b).rev()`, `.step_by(k)` and their chains (spec/semantics.md §3). The bounds,
// then each step in order, are evaluated once, before the first pass; a step below 1 is a runtime
// error (Rust's `step_by(0)` panics), even for an empty range. The passes are a progression of
// offsets from the range's first value `lo`, which each adapter reshapes: the first offset, the
// count of passes after the first (`n`), the stride (`st`) and the direction. `.rev()` starts at
// the last pass and turns; `.step_by(k)` keeps every k-th pass (n / k after the first) k times
// as far apart. An offset is never more than the range's span, so none of this wraps, and the
// value of a pass, `lo + offset` in the type's bits, is exact. No fast path takes such a loop.
template <class T>
struct SteppedForStmt final : StmtNode {
  using U = std::make_unsigned_t<T>;
  struct Step {
    const Node* value = nullptr;  // null: `.rev()`
    bool is_signed = false;
    Span span;
  };
  int slot = -1;
  Span loop_span;
  const ExprT<T>* start = nullptr;
  const ExprT<T>* end = nullptr;
  bool inclusive = false;
  std::vector<Step> adapters;
  StmtList body;

  Flow exec(Frame& f) const override {
    const T a = start->eval(f);
    const T b = end->eval(f);
    const bool empty = inclusive ? !(a <= b) : !(a < b);
    uint64_t first = 0, n = 0, st = 1;
    bool down = false;
    if (!empty) n = static_cast<U>(static_cast<U>(b) - static_cast<U>(a)) - (inclusive ? 0 : 1);
    for (const Step& s : adapters) {
      if (!s.value) {
        first = down ? first - n * st : first + n * st;
        down = !down;
        continue;
      }
      const uint64_t k = s.value->eval_bits(f);
      if (k == 0) runtime_error(s.span, "assertion failed: step != 0 (the step of `step_by` is 0)");
      if (s.is_signed && static_cast<int64_t>(k) < 0)
        runtime_error(s.span, "the step of `step_by` is " +
                                  std::to_string(static_cast<int64_t>(k)) +
                                  ": a step is at least 1");
      if (n / k != 0) st *= k;
      n /= k;
    }
    if (empty) return Flow::Normal;
    RunLimits* const limits = f.ctx->limits;
    return limits ? passes<true>(f, a, first, n, st, down, limits)
                  : passes<false>(f, a, first, n, st, down, nullptr);
  }
  template <bool Count>
  Flow passes(Frame& f, T lo, uint64_t off, uint64_t n, uint64_t st, bool down,
              RunLimits* limits) const {
    const uint64_t base = static_cast<U>(lo);
    for (uint64_t j = 0;; ++j) {
      f.s[slot] = to_bits<T>(static_cast<T>(static_cast<U>(base + off)));
      if constexpr (Count) limits->charge(1, loop_span);
      const Flow fl = run_list(body, f);
      if (fl == Flow::Break) break;
      if (fl >= Flow::Return) return past_loop(fl, f);
      if (j == n) break;
      off = down ? off - st : off + st;
    }
    return Flow::Normal;
  }
};

// The passes of an across loop, run by `loop`, one at a time: a runtime error that leaves one
// names it ("in block 3 lane 4 (`b` = 3, `l` = 4)", issue 19). The loop variable's slot holds
// the value of the pass that failed (every RangeLoop sets it before the pass's work).
template <class T>
Flow run_named(const RangeLoop<T>& loop, Frame& f, T a, T b, const std::string& var,
               int64_t lanes) {
  try {
    return loop.run(f, a, b);
  } catch (RuntimeError& e) {
    add_pass<T>(e, var, a, f.s[loop.slot], lanes);
    throw;
  }
}
// The passes of a lane loop run over `lanes` lanes (its `lanes(N)`), or over one lane each.
inline int64_t lane_count(int64_t written, __int128 passes) {
  return written > 0 ? written : static_cast<int64_t>(std::min<__int128>(passes, INT64_MAX));
}
template <class T>
struct NamedPassesStmt final : StmtNode {
  const RangeLoop<T>* loop = nullptr;
  int64_t lanes = 0;  // `lanes(N)`; 0: one lane a pass
  std::string var;
  Flow exec(Frame& f) const override {
    const T a = loop->start->eval(f);
    const T b = loop->end->eval(f);
    if (loop->inclusive ? !(a <= b) : !(a < b)) return Flow::Normal;
    const __int128 passes =
        static_cast<__int128>(b) - static_cast<__int128>(a) + (loop->inclusive ? 1 : 0);
    return run_named(*loop, f, a, b, var, lane_count(lanes, passes));
  }
};

// `for b in a..b across blocks` with more than one host thread: the passes run on TBB tasks
// (host_parallel.hpp). The checker keeps break, continue and return from leaving the loop, so
// a pass always ends normally or with a runtime error.
template <class T>
struct AcrossBlocksStmt final : StmtNode {
  ForStmt<T> seq;               // the loop one pass at a time (one host thread)
  PrivateSumPlan private_sums;  // tensors each task sums by itself
  std::string var;
  static void pass(const void* self, Frame& f, uint64_t value, int64_t k) {
    const auto* me = static_cast<const AcrossBlocksStmt*>(self);
    f.s[me->seq.slot] = to_bits<T>(static_cast<T>(value));
    try {
      // Only an interrupt can be counted here: a run that counts steps has one host thread.
      count_steps(f.ctx, 1, me->seq.loop_span);
      run_list(me->seq.body, f);
    } catch (RuntimeError& e) {
      if (!e.names_passes)
        e.passes.push_back({true, k, me->var, std::to_string(static_cast<T>(value))});
      throw;
    }
  }
  Flow exec(Frame& f) const override {
    const T a = seq.start->eval(f);
    const T b = seq.end->eval(f);
    if (seq.inclusive ? !(a <= b) : !(a < b)) return Flow::Normal;
    const __int128 count =
        static_cast<__int128>(b) - static_cast<__int128>(a) + (seq.inclusive ? 1 : 0);
    // One host thread, or more passes than any run could make: one at a time.
    if (f.ctx->host_threads <= 1 || count > INT64_MAX) return run_named(seq, f, a, b, var, 0);
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
  std::string var;
  int64_t lanes = 0;  // a lane loop's `lanes(N)`; 0: one lane a pass
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
      try {
        rec.enter_pass(this, level, static_cast<int64_t>(v));
        ++ctx->across_open;
        Pass pass{rec, ctx, this};
        fl = run_list(body, f);
      } catch (RuntimeError& e) {
        const __int128 passes = static_cast<__int128>(b) - static_cast<__int128>(a) + inclusive;
        add_pass<T>(e, var, a, f.s[slot],
                    level == PassLevel::Block ? 0 : lane_count(lanes, passes));
        throw;
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
    const Flow fl = run_region(f);
    if (f.ctx->after_region) (*f.ctx->after_region)(*stmt, f);
    return fl;
  }
  Flow run_region(Frame& f) const {
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
// The offload marks at a place in a block (check/tir_marks.hpp), handed to the runner in order,
// then the statement that stands there, if any: a block keeps one node per statement (main's
// count of the statements that ran, RunOptions::at_end, reads them so).
struct MarkStmt final : StmtNode {
  const std::vector<tir::Mark>* marks;
  const StmtNode* then = nullptr;
  Flow exec(Frame& f) const override {
    if (f.ctx->runner)
      for (const tir::Mark& m : *marks) f.ctx->runner->at_mark(m, f);
    return then ? then->exec(f) : Flow::Normal;
  }
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

// `break 'label;` / `continue 'label;` of a loop further out than the innermost.
struct JumpStmt final : StmtNode {
  int levels;
  bool is_continue;
  JumpStmt(int n, bool cont) : levels(n), is_continue(cont) {}
  Flow exec(Frame& f) const override {
    f.jump_levels = levels;
    f.jump_continue = is_continue;
    return Flow::Jump;
  }
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

}  // namespace

StmtList Compiler::block_stmts(const tir::Block& b, Tail tail) {
  StmtList out;
  for (size_t i = 0; i < b.stmts.size(); ++i) out.push_back(marked(b, i, stmt(*b.stmts[i])));
  if (const StmtNode* m = marked(b, b.stmts.size(), nullptr)) out.push_back(m);
  if (tail == Tail::Skip) return out;
  if (b.tail)
    out.push_back(tail_stmt(*b.tail, tail));
  else if (tail == Tail::Return)
    out.push_back(make<ReturnStmt>());
  return out;
}

const StmtNode* Compiler::marked(const tir::Block& b, size_t position, const StmtNode* then) {
  const std::vector<tir::Mark>* at = marks && !record_races ? marks->at(&b, position) : nullptr;
  if (!at) return then;  // under --check-races regions stay in the interpreter: no runner acts
  auto* n = make<MarkStmt>();
  n->marks = at;
  n->then = then;
  return n;
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
  const bool tensor = in_tensor_slot(e.type);
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

const StmtNode* Compiler::let_or_assign_tensor(int slot, const tir::Expr& value_expr) {
  // `unsafe { Tensor<…>::uninit() }` (how a tile is made) is the new tensor itself.
  const tir::Expr* peeled = &value_expr;
  while (peeled->kind == tir::ExprKind::BlockExpr && peeled->block->stmts.empty() &&
         peeled->block->tail)
    peeled = peeled->block->tail;
  const tir::Expr& v = *peeled;
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
      if (in_tensor_slot(s.value->type)) return let_or_assign_tensor(s.slot, *s.value);
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
      if (in_tensor_slot(t.type)) return let_or_assign_tensor(t.slot, *s.value);
      if (s.compound) return var_compound(s);
      auto* n = make<LetBits>();
      n->slot = t.slot;
      n->value = value(*s.value);
      return n;
    }
    case StmtKind::Expr:
      return tail_stmt(*s.value, Tail::Discard);
    case StmtKind::While: {
      auto* n = make<LoopStmt<true>>();
      n->span = s.span;
      n->cond = scalar<bool>(*s.value);
      n->body = block_stmts(*s.body, Tail::Discard);
      return n;
    }
    case StmtKind::Loop: {
      auto* n = make<LoopStmt<false>>();
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
    case StmtKind::Return: {
      if (expr_block_depth_ > 0) escape_seen_ = true;
      auto* r = make<ReturnStmt>();
      if (s.value) {
        r->value = value(*s.value);
        r->is_tensor = in_tensor_slot(s.value->type);
      }
      return r;
    }
    case StmtKind::Break:
    case StmtKind::Continue:
      if (expr_block_depth_ > 0) escape_seen_ = true;
      if (s.levels > 0) return make<JumpStmt>(s.levels, s.kind == StmtKind::Continue);
      return make<FlowStmt>(s.kind == StmtKind::Break ? Flow::Break : Flow::Continue);
  }
  internal_error("unknown statement kind");
}

const StmtNode* Compiler::for_stmt(const tir::Stmt& s) {
  const Scalar sc = s.start->type.scalar;
  return with_scalar(sc, [&](auto tag) -> const StmtNode* {
    using T = decltype(tag);
    if constexpr (kIsInt<T>) {
      if (!s.adapters.empty()) {
        // Only plain loops have adapters (E6032 refuses them on an across loop); none of the
        // fast paths below (ForStore, LaneLoop, the host threads) takes one.
        auto* n = make<SteppedForStmt<T>>();
        n->slot = s.slot;
        n->loop_span = s.span;
        n->start = scalar<T>(*s.start);
        n->end = scalar<T>(*s.end);
        n->inclusive = s.inclusive;
        for (const tir::RangeAdapter& a : s.adapters) {
          typename SteppedForStmt<T>::Step step;
          step.span = a.span;
          if (a.step) {
            step.value = value(*a.step);
            step.is_signed = is_signed_int(a.step->type.scalar);
          }
          n->adapters.push_back(step);
        }
        n->body = block_stmts(*s.body, Tail::Discard);
        return n;
      }
      if (record_races && s.across != tir::Across::None) {
        auto* n = make<RecAcrossStmt<T>>();
        n->slot = s.slot;
        n->start = scalar<T>(*s.start);
        n->end = scalar<T>(*s.end);
        n->inclusive = s.inclusive;
        n->level = s.across == tir::Across::Blocks ? PassLevel::Block : PassLevel::Lane;
        n->span = s.span;
        n->body = block_stmts(*s.body, Tail::Discard);
        n->var = s.var_name;
        n->lanes = s.lanes_written ? s.lane_count : 0;
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
        n->var = s.var_name;
        return n;
      }
      const StmtNode* general = for_store(s);  // a ForStore or a ForStmt: a RangeLoop<T>
      if (!general) {
        auto* n = make<ForStmt<T>>();
        fill(*n);
        general = n;
      }
      const StmtNode* loop = lane_loop(s, general);
      if (!loop) loop = general;
      if (s.across != tir::Across::Lanes) return loop;
      auto* named = make<NamedPassesStmt<T>>();
      named->loop = static_cast<const RangeLoop<T>*>(loop);
      named->lanes = s.lanes_written ? s.lane_count : 0;
      named->var = s.var_name;
      return named;
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
    cf->returns_tensor = in_tensor_slot(fn.ret);
    for (int i = 0; i < fn.slot_count(); ++i)
      if (in_tensor_slot(fn.slot_types[i])) cf->tensor_slots.push_back(i);
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

}  // namespace vx::interp
