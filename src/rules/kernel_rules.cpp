// The structure half of the kernel rules (spec/kernel-rules.md §2-3, §6-8): walks every function
// once, checks where across loops, block routines, tiles, atomics, copies and tokens stand, and
// collects each tensor access with its hash-consed offset for disjointness.cpp.
#include "rules/kernel_rules.hpp"

#include <algorithm>
#include <functional>
#include <set>
#include <unordered_map>

#include "check/effects.hpp"
#include "check/tir_walk.hpp"
#include "rules/call_accesses.hpp"
#include "rules/index_poly.hpp"
#include "rules/kernel_access.hpp"
#include "rules/kernel_tokens.hpp"
#include "rules/loop_nest.hpp"
#include "rules/pass_guards.hpp"

namespace vx {

namespace {

using kr::int_type;
using kr::IxNode;
using kr::IxOp;
using kr::place_indices;

class RuleWalker {
 public:
  RuleWalker(const tir::Program& prog, const Machine& m, const std::vector<FunctionEffects>& sums,
             Diagnostics& d)
      : prog_(prog), m_(m), sums_(sums), diags_(d), file_(d.file()) {}

  void run(const tir::Function& fn, std::vector<kr::StoreExplain>* explain, bool maps) {
    fn_ = &fn;
    int n = fn.slot_count();
    facts_ = kr::FunctionFacts{};
    facts_.fn = &fn;
    facts_.dag = &dag_;
    facts_.decl_fors.assign(n, {});
    env_.assign(n, nullptr);
    now_.assign(n, nullptr);
    alias_.resize(n);
    for (int i = 0; i < n; ++i) alias_[i] = i;
    prefix_.assign(n, {});
    prefix_unknown_.assign(n, false);
    assigned_.clear();
    foldable_.clear();
    // Written anywhere: assigned, or given by a call (a tuple's scalars, a struct's fields).
    tir::writes_in(fn.body, [&](int slot) { assigned_.insert(slot); });
    walk_block(fn.body, nullptr);
    kr::check_disjointness(facts_, diags_, explain, maps);
  }

 private:
  // ---- helpers
  Diagnostic& error(const char* code, Span span, std::string msg, std::string label = {}) {
    return diags_.error(code, span, std::move(msg), std::move(label));
  }
  Diagnostic& error(KernelRule rule, Span span, std::string msg, std::string label = {}) {
    return kernel_rule_error(diags_, rule, span, std::move(msg), std::move(label));
  }
  std::string text(Span s) const { return file_.text().substr(s.begin, s.end - s.begin); }

  std::string machine_name() const { return "`" + m_.name + "`"; }
  bool block_code() const { return nest_.in_block_code(); }
  const char* level_word(const tir::Stmt* loop) const {
    return loop->across == tir::Across::Blocks ? "block" : "lane";
  }
  int root_slot(const tir::Expr* e) const {
    const tir::Expr* v = tensor_root(e);
    if (!v || v->slot < 0 || v->slot >= fn_->slot_count()) return -1;
    return alias_[v->slot];
  }

  // ---- index expressions
  // The values a node can take in any pass (FunctionFacts::leaf_range of its leaves).
  std::pair<__int128, __int128> range_of(const IxNode* n) const {
    return kr::value_range(n, [&](const IxNode* leaf) { return facts_.leaf_range(leaf); });
  }

  // §4 step 1, value ranges: shifts and masks (call_accesses.hpp).
  const IxNode* bits_op(const tir::Expr* e) {
    const IxNode* a = build(e->args[0]);
    const IxNode* b = build(e->args[1]);
    return kr::bits_index(dag_, e->bop, a, b, int_type(e->type),
                          [&](const IxNode* n) { return range_of(n); });
  }

  const IxNode* build(const tir::Expr* e) {
    switch (e->kind) {
      case tir::ExprKind::Match:  // lowered before this step
      case tir::ExprKind::Field:
        tir::unlowered();
      case tir::ExprKind::Literal:
        if (e->type.is_scalar() && is_int(e->type.scalar)) return dag_.constant(e->lit.i);
        break;
      case tir::ExprKind::Var: {
        int s = e->slot;
        if (s < 0 || s >= fn_->slot_count()) break;
        if (auto it = loop_of_slot_.find(s); it != loop_of_slot_.end()) {
          if (auto st = stepped_.find(it->second); st != stepped_.end()) {
            // Its values never pass the loop's end, so `a + K * j` is the value in mathematical
            // integers: no operation of it wraps.
            const IxNode* j = dag_.loop(it->second, "step(" + it->second->var_name + ")",
                                        int_type(fn_->slot_types[s]));
            return dag_.binary(IxOp::Add, st->second.first,
                               dag_.binary(IxOp::Mul, st->second.second, j));
          }
          return dag_.loop(it->second, it->second->var_name, int_type(fn_->slot_types[s]));
        }
        if (env_[s]) return env_[s];
        if (now_[s]) return now_[s];
        return dag_.var(&fn_->slot_types[s], fn_->slot_names[s], int_type(fn_->slot_types[s]));
      }
      case tir::ExprKind::Unary:
        if (e->uop == tir::UnOp::Neg) return dag_.neg(build(e->args[0]), int_type(e->type));
        break;
      case tir::ExprKind::Binary: {
        if (auto op = kr::index_op(e->bop))
          return dag_.binary(*op, build(e->args[0]), build(e->args[1]), int_type(e->type));
        if (kr::is_bits_op(e->bop))
          if (const IxNode* n = bits_op(e)) return n;
        return dag_.opaque(e, "(" + text(e->span) + ")");
      }
      case tir::ExprKind::Cast: {
        const Type& from = e->args[0]->type;
        if (from.is_scalar() && is_int(from.scalar) && e->type.is_scalar() &&
            is_int(e->type.scalar)) {
          if (kr::keeps_value(from, e->type)) return build(e->args[0]);
          // A narrowing or sign-changing cast is the identity on the values the operand can
          // take when they all fit the target type (`l as u16` with `l` in 0..256).
          const IxNode* x = build(e->args[0]);
          const auto [lo, hi] = range_of(x);
          if (kr::fits(lo, int_type(e->type)) && kr::fits(hi, int_type(e->type))) return x;
        }
        break;
      }
      case tir::ExprKind::Builtin:
        if (const IxNode* size = size_of(e)) return size;
        // `dbg!(i)` is `i` (it only prints it): `t[dbg!(b * 256 + l)]` is proved as without it.
        if (tir::builtin_kind(e->builtin) == tir::BuiltinKind::Debug) return build(e->args[0]);
        break;
      case tir::ExprKind::If:
        if (const IxNode* n = equal_arms(e)) return n;
        break;
      case tir::ExprKind::Call:
        // A helper that computes an index from its arguments (call_accesses.hpp).
        if (int_type(e->type).bits) {
          std::vector<const IxNode*> ints;
          for (const tir::Expr* x : e->args)
            ints.push_back(int_type(x->type).bits ? build(x) : nullptr);
          if (const IxNode* n = kr::call_value(prog_, e->fn_index, ints, dag_)) return n;
        }
        break;
      // Any other expression is an opaque value: its text is its name.
      case tir::ExprKind::Unit:
      case tir::ExprKind::String:
      case tir::ExprKind::Index:
      case tir::ExprKind::View:
      case tir::ExprKind::Ref:
      case tir::ExprKind::TensorNew:
      case tir::ExprKind::Transfer:
      case tir::ExprKind::BlockExpr:
      case tir::ExprKind::Print:
      case tir::ExprKind::Assert:
      case tir::ExprKind::ArrayLit:
        break;
    }
    std::string t = text(e->span);
    return dag_.opaque(e, t.empty() ? "?" : t);
  }

  // An `if` (or a `match`, an `if` chain by now) whose arms are each a value, one index as
  // canonical polynomials (spec/kernel-rules.md §4 step 1): that index, whichever arm runs.
  const IxNode* equal_arms(const tir::Expr* e) {
    if (!e->block || !e->else_block) return nullptr;
    const IxNode* first = nullptr;
    for (const tir::Block* b : {e->block, e->else_block}) {
      if (!b->stmts.empty() || !b->tail) return nullptr;
      const IxNode* n = build(b->tail);
      if (first && !forms_.same(first, n)) return nullptr;
      if (!first) first = n;
    }
    return first;
  }

  // `t.len()` / `t.dim(k)` of a tensor local: a fixed dimension's constant, or for a `?` one the
  // symbol of that dimension (the same value in every pass, 0 to 2^31 - 1; spec/types.md §3.1).
  const IxNode* size_of(const tir::Expr* e) {
    const int64_t dim = tir::queried_dim(*e);
    if (dim < 0 || e->args[0]->kind != tir::ExprKind::Var) return nullptr;
    const int s = e->args[0]->slot;
    if (s < 0 || s >= fn_->slot_count()) return nullptr;
    const Type& t = fn_->slot_types[s];
    const size_t k = static_cast<size_t>(dim);
    if (!t.is_tensor_like() || k >= t.dims.size()) return nullptr;
    if (t.dims[k] != kUnknownDim) return dag_.constant(t.dims[k]);
    return dag_.symbol(&t.dims[k], text(e->span));
  }

  // Memoised: a graph shares sub-expressions, and may be exponentially larger as a tree.
  bool foldable(const IxNode* n) {
    if (auto it = foldable_.find(n); it != foldable_.end()) return it->second;
    bool r;
    if (n->op == IxOp::Opaque) {
      r = n->too_deep;  // so that the proof says "too deep", not which `let` it stopped at
    } else if (n->op == IxOp::Var) {
      int slot = static_cast<int>(static_cast<const Type*>(n->key) - fn_->slot_types.data());
      r = !assigned_.count(slot);
    } else {
      r = n->is_leaf() || (foldable(n->a) && (!n->b || foldable(n->b)));
    }
    foldable_[n] = r;
    return r;
  }

  // The linear offset of `place` (an Index), row-major over the tensor's shape; `bounds` gets
  // what staying in bounds says about loop indices used alone in one dimension.
  // The indices of a place in its root tensor: a reference `let r = &mut m[b];` adds its row's
  // `b` before `r[l]`'s. Empty when they are not known (the row's index may have changed since).
  std::vector<const tir::Expr*> full_indices(const tir::Expr* place) const {
    auto idx = place_indices(place);
    const tir::Expr* v = tensor_root(place);
    if (!v || v->slot < 0 || v->slot >= fn_->slot_count()) return idx;
    if (prefix_unknown_[v->slot]) return {};
    const auto& pre = prefix_[v->slot];
    idx.insert(idx.begin(), pre.begin(), pre.end());
    return idx;
  }

  const IxNode* offset_of(const tir::Expr* place, const Type& t,
                          std::map<const IxNode*, std::pair<int64_t, int64_t>>* bounds = nullptr) {
    auto idx = full_indices(place);
    if (idx.empty()) return nullptr;
    if (bounds)
      for (size_t k = 0; k < idx.size() && k < t.dims.size(); ++k) {
        if (t.dims[k] <= 0) continue;
        const IxNode* e = build(idx[k]);
        int64_t shift = 0;
        if ((e->op == IxOp::Add || e->op == IxOp::Sub) && e->b->is_const() &&
            e->a->op == IxOp::Loop) {
          if (e->op == IxOp::Sub && e->b->value == INT64_MIN) continue;
          shift = e->op == IxOp::Add ? e->b->value : -e->b->value;
          auto* loop = static_cast<const tir::Stmt*>(e->a->key);
          const auto [lo, hi] = facts_.known_bounds(loop);
          if (!kr::shift_keeps_bounds(e, shift, t.dims[k], lo, hi)) continue;
          e = e->a;
        }
        if (e->op != IxOp::Loop) continue;
        int64_t lo_b, hi_b;
        if (__builtin_sub_overflow(int64_t{0}, shift, &lo_b) ||
            __builtin_sub_overflow(t.dims[k] - 1, shift, &hi_b))
          continue;
        std::pair<int64_t, int64_t> b{lo_b, hi_b};
        auto [it, fresh] = bounds->emplace(e, b);
        if (!fresh)
          it->second = {std::max(it->second.first, b.first), std::min(it->second.second, b.second)};
      }
    std::vector<const IxNode*> nodes;
    for (const tir::Expr* i : idx) nodes.push_back(build(i));
    return kr::row_major(dag_, nodes, t, place);
  }

  void record(const tir::Expr* place, Span span, bool write, const IxNode* offset,
              bool atomic = false, bool changes = false,
              std::map<const IxNode*, std::pair<int64_t, int64_t>> bounds = {}) {
    int r = root_slot(place);
    if (r < 0) return;
    kr::Access a;
    a.bounds = std::move(bounds);
    a.root = r;
    a.tensor = fn_->slot_names[r];
    a.type = &fn_->slot_types[r];
    a.write = write;
    a.atomic = atomic;
    a.changes = changes;
    a.offset = offset;
    if (offset && place->kind == tir::ExprKind::Index) {
      const auto idx = full_indices(place);
      for (size_t k = 0; k < idx.size(); ++k)
        a.indices.push_back(
            {build(idx[k]), k < a.type->dims.size() ? std::max<int64_t>(a.type->dims[k], 0) : 0});
    }
    a.span = span;
    a.text = text(span);
    a.fors = fors_;
    facts_.accesses.push_back(std::move(a));
  }

  // ---- statements
  void walk_block(const tir::Block* b, const tir::Stmt* owner) {
    if (!b) return;
    for (size_t k = 0; k < b->stmts.size(); ++k) {
      walk_stmt(b->stmts[k], owner);
      if (b->stmts[k]->kind == tir::StmtKind::Let)
        kr::check_token({*fn_, diags_, [&](const tir::Expr* e) { return root_slot(e); },
                         [&](const tir::Expr* e) -> std::optional<int64_t> {
                           const IxNode* n = build(e);
                           return n->is_const() ? std::optional<int64_t>(n->value) : std::nullopt;
                         },
                         reported_borrow_},
                        b, k);
    }
    if (b->tail) walk_expr(b->tail);
  }

  void walk_stmt(const tir::Stmt* s, const tir::Stmt* owner) {
    const size_t first = facts_.accesses.size();  // the statement's accesses: from here on
    switch (s->kind) {
      case tir::StmtKind::Let: {
        if (s->value) {
          whole_let_ = s->value;
          walk_expr(s->value);
          whole_let_ = nullptr;
        }
        if (s->slot < 0 || s->slot >= fn_->slot_count()) return;
        facts_.decl_fors[s->slot] = fors_;
        const Type& t = fn_->slot_types[s->slot];
        if (s->value && s->value->kind == tir::ExprKind::Ref) {
          int r = root_slot(s->value);
          if (r >= 0) alias_[s->slot] = r;
          // The row it names: its indices, after those of a reference it is made from. They
          // stand for the row only while the locals in them keep their values.
          if (const tir::Expr* v = tensor_root(s->value); v && v->slot >= 0) {
            auto pre = full_indices(s->value);
            bool known = !prefix_unknown_[v->slot];
            for (const tir::Expr* i : pre)
              if (tir::expr_has(i, [&](const tir::Stmt*, const tir::Expr* x) {
                    return x && x->kind == tir::ExprKind::Var && assigned_.count(x->slot);
                  }))
                known = false;
            prefix_[s->slot] = known ? pre : std::vector<const tir::Expr*>{};
            prefix_unknown_[s->slot] = !known;
          }
        }
        const tir::Expr* v = kr::block_value(s->value);  // read after it has been walked
        if (v && t.is_scalar() && is_int(t.scalar) && !assigned_.count(s->slot)) {
          const IxNode* n = build(v);
          if (foldable(n)) env_[s->slot] = n;
        } else if (t.is_scalar() && is_int(t.scalar)) {
          set_now(s->slot, v ? build(v) : nullptr);
        }
        return;
      }
      case tir::StmtKind::Assign: {
        const tir::Expr* t = s->target;
        if (t->kind == tir::ExprKind::Var) {
          // The fields of a struct (or the elements of a tuple) given at once by a call, a
          // `&mut p` write-back or a whole-value assignment: one error, naming the struct.
          std::string name = t->text;
          if (s->value && s->value->kind == tir::ExprKind::Var && s->value->text == tir::kTupleTemp)
            name = name.substr(0, name.find('.'));
          if (reported_outer_.insert({s->span.begin, name}).second)
            check_outer_write(t->slot, s->span, name);
          assign_now(s);
        } else if (t->kind == tir::ExprKind::Index && t->args[0]->type.is_array()) {
          // An array is a value of its pass: an element written is the variable written.
          check_outer_write(root_slot(t), s->span, t->text);
          for (const tir::Expr* i : place_indices(t)) walk_expr(i);
        } else if (t->kind == tir::ExprKind::Index) {
          int r = root_slot(t);
          std::map<const IxNode*, std::pair<int64_t, int64_t>> b;
          if (r >= 0) {
            const IxNode* off = offset_of(t, fn_->slot_types[r], &b);
            record(t, t->span, true, off, false, false, std::move(b));
          }
          for (const tir::Expr* i : place_indices(t)) walk_expr(i);
        }
        walk_expr(s->value);
        return;
      }
      case tir::StmtKind::Expr:
        whole_stmt_ = s->value;
        walk_expr(s->value);
        whole_stmt_ = nullptr;
        return;
      case tir::StmtKind::While:
      case tir::StmtKind::Loop:
        forget(s->body);  // each pass of the loop may start from another pass's values
        if (s->value) walk_expr(s->value);
        loops_.push_back(s);
        walk_block(s->body, s);
        kr::reach_unknown(facts_.accesses, first);
        loops_.pop_back();
        forget(s->body);
        return;
      case tir::StmtKind::For:
        walk_for(s, owner);
        return;
      case tir::StmtKind::Spawn: {
        ++spawn_;
        auto saved_loops = std::move(loops_);
        loops_.clear();
        walk_block(s->body, s);
        if (kr::exits_in(s->body)) kr::reach_unknown(facts_.accesses, first);
        loops_ = std::move(saved_loops);
        --spawn_;
        return;
      }
      case tir::StmtKind::Return:
        if (!across_.empty()) {
          error(KernelRule::LeavesAcrossLoop, s->span,
                "`return` cannot leave an `across` loop: each lane must get to the end of the loop",
                "inside the " + std::string(level_word(across_.back())) + " loop `" +
                    across_.back()->var_name + "`");
        }
        if (s->value) walk_expr(s->value);
        return;
      case tir::StmtKind::Break:
      case tir::StmtKind::Continue: {
        // The loops it leaves: from the innermost out to the one it names (a label's).
        const tir::Stmt* left = nullptr;
        for (size_t i = loops_.size(); i-- > 0 && !left;) {
          if (loops_[i]->kind == tir::StmtKind::For && loops_[i]->across != tir::Across::None)
            left = loops_[i];
          if (loops_[i] == s->jump_target || !s->jump_target) break;
        }
        if (left) {
          const char* w = s->kind == tir::StmtKind::Break ? "break" : "continue";
          auto& d = error(
              KernelRule::LeavesAcrossLoop, s->span,
              std::string("`") + w +
                  "` cannot leave an `across` loop: each lane "
                  "must get to the end of the loop",
              std::string("leaves the ") + level_word(left) + " loop `" + left->var_name + "`");
          d.helps.push_back("use an `if` around the rest of the pass instead");
        }
        return;
      }
    }
  }

  void walk_for(const tir::Stmt* s, const tir::Stmt* owner) {
    walk_expr(s->start);
    walk_expr(s->end);
    for (const tir::RangeAdapter& a : s->adapters)
      if (a.step) walk_expr(a.step);
    const IxNode* lo = build(s->start);
    const IxNode* hi = build(s->end);
    std::optional<int64_t> lo_v, hi_v;
    if (lo->is_const()) lo_v = lo->value;
    // `..INT64_MIN` is empty, and has no last value to name: leave it unknown.
    if (hi->is_const() && (s->inclusive || hi->value != INT64_MIN))
      hi_v = s->inclusive ? hi->value : hi->value - 1;
    facts_.loop_lo[s] = lo_v;
    facts_.loop_hi[s] = hi_v;
    facts_.loop_bounds[s] = {lo, hi};
    // The grid-stride loop (§4 step 10): `for c in (a..b).step_by(K)` with K a positive constant
    // and `a` not one is `a + K * j` for j = 0, 1, …, so the lane index in `a` stays a digit of
    // `c`. The loop's leaf is then j's: from 0, its end not known.
    if (s->across == tir::Across::None && s->adapters.size() == 1 && s->adapters[0].step &&
        !lo->is_const()) {
      const IxNode* k = build(s->adapters[0].step);
      if (k->is_const() && k->value > 0) {
        stepped_[s] = {lo, k};
        facts_.loop_lo[s] = 0;
        facts_.loop_hi[s] = std::nullopt;
        facts_.loop_bounds.erase(s);
      }
    }
    std::optional<int64_t> count;  // clamped to i64; `passes` says the whole number
    std::string passes;
    if (lo_v && hi_v) {
      const __int128 n = std::max<__int128>(static_cast<__int128>(*hi_v) - *lo_v + 1, 0);
      count = static_cast<int64_t>(std::min<__int128>(n, INT64_MAX));
      passes = kr::int128_text(n);
    }

    kr::NestLoop nest_loop;
    kr::NestVerdict verdict;
    if (s->across != tir::Across::None) {
      Span hdr = kr::loop_header(s, file_);
      auto fail = [&](KernelRule rule, std::string msg, std::string label) -> Diagnostic& {
        return error(rule, hdr, std::move(msg), std::move(label));
      };
      nest_loop.level = s->across;
      nest_loop.parent = !owner                                 ? kr::NestParent::Other
                         : owner->kind == tir::StmtKind::Spawn  ? kr::NestParent::Region
                         : owner->kind != tir::StmtKind::For    ? kr::NestParent::Other
                         : owner->across == tir::Across::Blocks ? kr::NestParent::BlockLoop
                         : owner->across == tir::Across::Lanes  ? kr::NestParent::LaneLoop
                                                                : kr::NestParent::Other;
      nest_loop.passes = count;
      nest_loop.lanes_written = s->lanes_written;
      nest_loop.lanes = s->lanes_written ? s->lane_count : count.value_or(0);
      if (!s->adapters.empty()) {
        // The passes of an across loop are the values of a plain range: the lanes and blocks
        // count them from `a` up by one, and the proofs of §4 take each pass as one of them.
        const tir::RangeAdapter& a = s->adapters.front();
        auto& d = fail(KernelRule::AcrossPlainRange,
                       "an `across` loop runs over a plain range, `a..b` or `a..=b`: `." +
                           std::string(a.step ? "step_by" : "rev") + "()` is for a sequential loop",
                       "the range of an `across` loop has an adapter");
        d.notes.push_back(
            "the kernel rules prove over plain ranges: each pass of an across loop is one value "
            "of `a..b`, a lane or a block, counted from `a` up by one, and the passes run in no "
            "order, so `.rev()` would mean nothing and `.step_by(k)` would leave lanes idle");
        d.helps.push_back(a.step ? "take the value from the pass: `for p in 0..n across lanes { "
                                   "let i = a + p * k; … }`"
                                 : "take the value from the pass: `for p in 0..n across lanes { "
                                   "let i = n - 1 - p; … }`");
      } else if (spawn_ == 0) {
        auto& d =
            fail(KernelRule::OutsideSpawn, "an `across` loop must be inside a `spawn on` region",
                 "outside any `spawn on` region");
        d.helps.push_back("wrap the loop in `spawn on(Topology::Device) { … }`");
      } else if ((verdict = nest_.check(nest_loop))) {
        report_nest_fault(verdict, s, hdr, passes);
      } else if (s->across == tir::Across::Lanes) {
        kr::lane_warnings(diags_, s, hdr, verdict.lanes, count);
      }
    }

    if (s->slot >= 0 && s->slot < fn_->slot_count()) loop_of_slot_[s->slot] = s;
    fors_.push_back(s);
    if (s->slot >= 0 && s->slot < fn_->slot_count()) facts_.decl_fors[s->slot] = fors_;
    facts_.loop_fors[s] = fors_;
    loops_.push_back(s);
    if (s->across != tir::Across::None) {
      across_.push_back(s);
      facts_.across_loops.push_back(s);
      nest_.enter(nest_loop, verdict);
    }
    forget(s->body);
    const size_t first = facts_.accesses.size();
    walk_block(s->body, s);
    // A pass gets to the body when the range is not empty: known for constant bounds only.
    if (!lo_v || !hi_v || *lo_v > *hi_v) kr::reach_unknown(facts_.accesses, first);
    forget(s->body);
    if (s->across != tir::Across::None) {
      across_.pop_back();
      nest_.leave();
    }
    loops_.pop_back();
    fors_.pop_back();
  }

  // A fault of the loop nest's shape (loop_nest.hpp), in Vx's words.
  void report_nest_fault(const kr::NestVerdict& v, const tir::Stmt* s, Span hdr,
                         const std::string& passes) {
    auto fail = [&](std::string msg, std::string label) -> Diagnostic& {
      return error(v.rule, hdr, std::move(msg), std::move(label));
    };
    const std::string lanes = std::to_string(v.lanes);
    switch (v.fault) {
      case kr::NestFault::None:
        return;
      case kr::NestFault::MachineWithoutLanes: {
        auto& d = fail("the machine " + machine_name() +
                           " has no blocks and lanes, so it cannot run an `across` loop",
                       "an `across` loop");
        d.notes.push_back(
            "the machine comes from `--machine`; an NVIDIA or an Apple GPU has "
            "blocks and lanes");
        return;
      }
      case kr::NestFault::BlockInLaneLoop:
        fail("a block loop cannot be inside a lane loop",
             "inside the lane loop `" + across_.back()->var_name + "`");
        return;
      case kr::NestFault::BlockNotDirect:
        fail("the block loop must be directly in the `spawn on` region",
             "not directly in the region")
            .helps.push_back("move the loop out of the statement around it");
        return;
      case kr::NestFault::BlocksTooDeep:
        fail(kr::too_deep_message(tir::Across::Blocks, "block"), "a fourth block loop");
        return;
      case kr::NestFault::GridTooLarge:
        fail("a grid of " + m_.name + " has at most " + std::to_string(v.limit) +
                 " blocks in a dimension, and this loop asks for " + passes,
             "too many blocks");
        return;
      case kr::NestFault::LaneOutsideBlock:
        fail("a lane loop must be inside a block loop", "not in a block loop");
        return;
      case kr::NestFault::LaneNotDirect:
        fail("a lane loop inside another lane loop must be directly in its body",
             "not directly in the lane loop `" + across_.back()->var_name + "`");
        return;
      case kr::NestFault::LanesTooDeep:
        fail(kr::too_deep_message(tir::Across::Lanes, "lane"), "a fourth lane loop");
        return;
      case kr::NestFault::NoLanes:
        fail("a block has at least one lane, and this loop asks for " + lanes, "no lanes")
            .helps.push_back("write a number of lanes from 1 up: `across lanes(256)`");
        return;
      case kr::NestFault::LanesNotConstant:
        fail("the number of lanes must be a constant", "the range is not constant")
            .helps.push_back("write the number of lanes: `across lanes(256)`");
        return;
      case kr::NestFault::TooManyLanes: {
        auto& d = fail("a block has at most " + std::to_string(v.limit) + " lanes on " +
                           machine_name() + ", and this loop asks for " + lanes,
                       "too many lanes");
        if (s->lane_count == 0)
          d.helps.push_back(
              "write a smaller number of lanes: `across lanes(256)`; some lanes "
              "then run more than one pass");
        return;
      }
      case kr::NestFault::TooManyLanesInNest:
        fail("the lane loops in each other ask for " + std::to_string(v.asked) +
                 " lanes; a block has at most " + std::to_string(v.limit) + " on " + machine_name(),
             "too many lanes");
        return;
    }
  }

  // A write to a variable declared outside the innermost across loop.
  void check_outer_write(int slot, Span span, const std::string& name) {
    if (across_.empty() || slot < 0) return;
    const tir::Stmt* loop = across_.back();
    if (facts_.declared_inside(slot, loop)) return;
    auto& d =
        error(KernelRule::WritesOuterVariable, span,
              "a pass of this " + std::string(level_word(loop)) + " loop cannot write `" + name +
                  "`, which is declared outside the loop: the passes run at the "
                  "same time and would all write it",
              "writes `" + name + "`");
    d.secondary.push_back(
        {kr::loop_header(loop, file_), std::string("the ") + level_word(loop) + " loop"});
    d.helps.push_back(
        "declare the variable in the loop, or write an element of a tensor that "
        "the loop's index fixes");
  }

  // ---- expressions
  void walk_expr(const tir::Expr* e) {
    if (!e) return;
    switch (e->kind) {
      case tir::ExprKind::Match:  // lowered before this step
      case tir::ExprKind::Field:
        tir::unlowered();
      case tir::ExprKind::Index: {
        int r = e->args[0]->type.is_array() ? -1 : root_slot(e);  // an array: no shared memory
        std::map<const IxNode*, std::pair<int64_t, int64_t>> b;
        if (r >= 0) {
          const IxNode* off = offset_of(e, fn_->slot_types[r], &b);
          record(e, e->span, false, off, false, false, std::move(b));
        }
        for (const tir::Expr* i : place_indices(e)) walk_expr(i);
        return;
      }
      case tir::ExprKind::View:
      case tir::ExprKind::Ref:
        for (const tir::Expr* i : place_indices(e)) walk_expr(i);
        return;
      case tir::ExprKind::Call:
        walk_call(e);
        // The locals the call gives values (a tuple's scalars, a `&mut` struct's fields coming
        // back) hold what it computed: what the rule reads of the callee, or not known.
        for (auto [slot, v] : kr::call_results(prog_, e, dag_, [&](auto* x) { return build(x); }))
          set_now(slot, v);
        return;
      case tir::ExprKind::Builtin:
        walk_builtin(e);
        return;
      case tir::ExprKind::TensorNew:
        walk_tensor_new(e);
        break;
      case tir::ExprKind::Print:
        if (!across_.empty()) {
          const tir::Stmt* loop = across_.back();
          auto& d =
              error(KernelRule::PrintsInPass, e->span,
                    std::string(e->newline ? "`println!`" : "`print!`") +
                        " cannot be in an `across` loop: its passes run in any order, so "
                        "the output would too",
                    std::string("in the ") + level_word(loop) + " loop `" + loop->var_name + "`");
          d.helps.push_back("write the values into a tensor and print them after the region");
        }
        break;
      case tir::ExprKind::If: {
        walk_expr(e->args.empty() ? nullptr : e->args[0]);
        // Each arm starts from the values before the `if`; after it, what an arm assigns is
        // not known.
        const auto before = now_;
        for (const tir::Block* arm : {e->block, e->else_block}) {
          const size_t first = facts_.accesses.size();
          walk_block(arm, nullptr);
          now_ = before;  // the condition's values (pass_guards.hpp)
          kr::guard_accesses(facts_.accesses, first, e->args.empty() ? nullptr : e->args[0],
                             arm == e->block, build_);
        }
        forget(e->block);
        forget(e->else_block);
        return;
      }
      case tir::ExprKind::BlockExpr:
        walk_block(e->block, nullptr);
        return;
      case tir::ExprKind::Binary:
        if (e->bop == tir::BinOp::And || e->bop == tir::BinOp::Or) {
          // The right side may not run: what it assigns is not known after it.
          walk_expr(e->args[0]);
          const size_t first = facts_.accesses.size();
          auto values = now_;  // the values the left side read (pass_guards.hpp)
          walk_expr(e->args[1]);
          std::swap(now_, values);
          kr::guard_accesses(facts_.accesses, first, e->args[0], e->bop == tir::BinOp::And, build_);
          std::swap(now_, values);
          for (const tir::Expr* a : e->args) forget_in(a);
          return;
        }
        break;
      case tir::ExprKind::Literal:
      case tir::ExprKind::Unit:
      case tir::ExprKind::String:
      case tir::ExprKind::Var:
      case tir::ExprKind::Unary:
      case tir::ExprKind::Cast:
      case tir::ExprKind::Transfer:
      case tir::ExprKind::Assert:
      case tir::ExprKind::ArrayLit:
        break;
    }
    for (const tir::Expr* a : e->args) walk_expr(a);
  }

  // ---- the values of assigned integer locals, statement by statement (§4 step 1)
  // `now_[slot]`: the value a `let mut` integer local holds here, when every assignment on the
  // way is one the rule reads and its leaves do not change; null: not known (a leaf of its own).
  void set_now(int slot, const IxNode* v) {
    if (slot >= 0 && slot < static_cast<int>(now_.size()))
      now_[slot] = v && foldable(v) ? v : nullptr;
  }
  void assign_now(const tir::Stmt* s) {
    const int slot = s->target->slot;
    if (slot < 0 || slot >= fn_->slot_count()) return;
    const Type& t = fn_->slot_types[slot];
    if (!t.is_scalar() || !is_int(t.scalar)) return;
    const IxNode* v = build(s->value);
    if (s->compound) {
      auto op = kr::index_op(s->op);
      v = op && now_[slot] ? dag_.binary(*op, now_[slot], v, int_type(t)) : nullptr;
    }
    set_now(slot, v);
  }
  void forget(const tir::Block* b) { kr::forget_assigned(b, nullptr, now_); }
  void forget_in(const tir::Expr* e) { kr::forget_assigned(nullptr, e, now_); }

  void walk_call(const tir::Expr* e) {
    int f = e->fn_index;
    bool valid = f >= 0 && f < static_cast<int>(prog_.functions.size());
    if (valid && !across_.empty()) {
      const tir::Stmt* loop = across_.back();
      if (sums_[f].prints) {
        auto& d = error(
            KernelRule::PrintsInPass, e->span,
            "`" + prog_.functions[f].name +
                "` prints, and `println!` cannot be in "
                "an `across` loop: its passes run in any order",
            std::string("called in the ") + level_word(loop) + " loop `" + loop->var_name + "`");
        d.secondary.push_back({prog_.functions[f].span, "defined here"});
      }
      for (size_t i = 0; i < e->args.size(); ++i) {
        const tir::Expr* a = e->args[i];
        if (a->type.kind != TypeKind::Ref) continue;
        bool w = i < sums_[f].writes.size() && sums_[f].writes[i];
        int r = root_slot(a);
        if (r >= 0 && record_call_accesses(e, i, r)) continue;  // checked as the caller's
        if (w && r >= 0 && !facts_.declared_inside(r, loop)) {
          auto& d = error(KernelRule::CallWritesArgument, e->span,
                          "`" + prog_.functions[f].name + "` can write through its argument `" +
                              text(a->span) + "`, and every pass of this " + level_word(loop) +
                              " loop would write the same `" + fn_->slot_names[r] + "`",
                          "a call that can write `" + fn_->slot_names[r] + "`");
          d.secondary.push_back(
              {kr::loop_header(loop, file_), std::string("the ") + level_word(loop) + " loop"});
          d.secondary.push_back({prog_.functions[f].span, "defined here"});
          d.helps.push_back(
              "write the elements in the loop itself, at an index that the "
              "loop's index fixes");
        }
      }
    }
    for (size_t i = 0; i < e->args.size(); ++i) {
      const tir::Expr* a = e->args[i];
      if (a->type.kind == TypeKind::Ref && !summarised_.count({e, i})) {
        bool w = valid && i < sums_[f].writes.size() && sums_[f].writes[i];
        record(a, a->span, w, nullptr);
      }
      walk_expr(a);
    }
  }

  // §3 rule 3: the accesses a call in an across loop makes through its reference argument `i`
  // (root slot `r`), recorded as the caller's when every use of the parameter is an element at
  // indices the rule reads (call_accesses.hpp). Whether it did.
  bool record_call_accesses(const tir::Expr* call, size_t i, int r) {
    const tir::Expr* a = call->args[i];
    const tir::Expr* v = tensor_root(a);
    if (!v || v->slot < 0 || v->slot >= fn_->slot_count() || prefix_unknown_[v->slot]) return false;
    std::vector<const IxNode*> prefix, ints;
    for (const tir::Expr* x : full_indices(a)) prefix.push_back(build(x));
    for (const tir::Expr* x : call->args)
      ints.push_back(int_type(x->type).bits ? build(x) : nullptr);
    auto found = kr::call_accesses(prog_, call->fn_index, static_cast<int>(i), prefix, ints, dag_);
    if (!found) return false;
    const Type& t = fn_->slot_types[r];
    for (const kr::CallAccess& c : *found) {
      kr::Access acc;
      acc.root = r;
      acc.tensor = fn_->slot_names[r];
      acc.type = &t;
      acc.write = c.write;
      acc.offset = kr::row_major(dag_, c.indices, t, call);
      for (size_t k = 0; k < c.indices.size(); ++k)
        acc.indices.push_back(
            {c.indices[k], k < t.dims.size() ? std::max<int64_t>(t.dims[k], 0) : 0});
      acc.span = call->span;
      acc.text = c.place + "` in `" + prog_.functions[call->fn_index].name + "(…)";
      acc.fors = fors_;
      acc.reach = c.reach;
      facts_.accesses.push_back(std::move(acc));
    }
    summarised_.insert({call, i});
    return true;
  }

  void walk_builtin(const tir::Expr* e) {
    const tir::BuiltinId id = e->builtin;
    const tir::BuiltinRow& row = tir::builtin_row(id);
    const std::string name = row.spelling;
    // builtins.def's place and form: a routine of all the lanes of a block stands in block code,
    // as the whole value of a `let` or as a statement of its own (a token's `let` is E6036's).
    if (row.place == tir::BuiltinPlace::BlockCode && spawn_ > 0) {
      if (!block_code()) {
        error(KernelRule::LanesRoutinePlacement, e->span,
              "`" + name +
                  "` runs with all the lanes of a block, so it must be in the code of a block: in "
                  "a block loop, outside its lane loops",
              nest_.lane_loops() > 0 ? "inside a lane loop" : "not in a block loop");
      } else if (row.form == tir::BuiltinForm::Let && row.result != tir::BuiltinResult::Token &&
                 whole_let_ != e) {
        auto& d = error(KernelRule::LanesRoutinePlacement, e->span,
                        "`" + name + "` must be the whole value of a `let` in the code of a block",
                        "part of a larger expression");
        d.helps.push_back("write `let s = " + name + "(…);` and use `s`");
      } else if (row.form == tir::BuiltinForm::Statement && whole_stmt_ != e) {
        error(KernelRule::LanesRoutinePlacement, e->span,
              "`" + name + "` must be a statement of its own in the code of a block",
              "part of a larger expression");
      }
    }
    if (row.kind == tir::BuiltinKind::Copy && spawn_ > 0 && m_.device != DeviceKind::None &&
        m_.copy_engine == CopyEngine::None) {
      auto& d = error(KernelRule::NoCopyEngine, e->span,
                      "the machine " + machine_name() + " has no copy engine for `" + name + "`",
                      "not on this machine");
      d.helps.push_back("copy the tile with a lane loop: `tile[t] = x[i + t];`");
    }
    if (row.result == tir::BuiltinResult::Token && whole_let_ != e) {
      auto& d = error("E6036", e->span, "the token of this copy is never waited for",
                      "the token is dropped");
      d.helps.push_back("write `let tok = " + name +
                        "(…);` and `tok.wait();` before the "
                        "tile is read");
    }
    if (is_atomic(id) && spawn_ > 0 && m_.device != DeviceKind::None && !e->args.empty()) {
      Scalar sc = e->args[0]->type.scalar;
      if (!m_.has_atomic(sc)) {
        std::string have;
        for (Scalar c : {Scalar::I32, Scalar::U32, Scalar::I64, Scalar::U64, Scalar::F32})
          if (m_.has_atomic(c))
            have += (have.empty() ? "" : ", ") + std::string(scalar_info(c).name);
        error(KernelRule::AtomicsUnavailable, e->span,
              "the machine " + machine_name() + " has no atomics on " + scalar_info(sc).name +
                  "; it has them on " + (have.empty() ? "nothing" : have),
              "not on this machine");
      }
      const tir::Expr* ord = e->args.back();
      if (m_.atomic_relaxed_only && ord->kind == tir::ExprKind::Literal &&
          ord->lit.i != static_cast<int64_t>(tir::AtomicOrdering::Relaxed)) {
        auto& d = error(KernelRule::AtomicsUnavailable, ord->span,
                        "the machine " + machine_name() +
                            " has atomics with "
                            "`AtomicOrdering::Relaxed` only",
                        "not on this machine");
        d.helps.push_back("use `AtomicOrdering::Relaxed`, and `scoped_fence` where order matters");
      }
    }
    // The accesses, as builtins.def's effect column says: one element (its linear index the
    // second argument) of an atomic, a whole tile of a lanes:: routine, and the source of a copy.
    const bool writes = tir::builtin_writes_first(id);
    switch (row.effect) {
      case tir::BuiltinEffect::AtomicLoad:
      case tir::BuiltinEffect::AtomicChange:
        if (e->args.size() >= 2)
          record(e->args[0], e->span, writes, build(e->args[1]), true, writes);
        break;
      case tir::BuiltinEffect::ReadsTile:
      case tir::BuiltinEffect::WritesTile:
      case tir::BuiltinEffect::CopiesTile:
        if (!e->args.empty()) record(e->args[0], e->args[0]->span, writes, nullptr);
        if (row.effect == tir::BuiltinEffect::CopiesTile && e->args.size() > 1)
          record(e->args[1], e->args[1]->span, false, nullptr);
        break;
      case tir::BuiltinEffect::Pure:
      case tir::BuiltinEffect::Shape:
      case tir::BuiltinEffect::Orders:
        break;
    }
    for (size_t i = 0; i < e->args.size(); ++i) {
      const tir::Expr* a = e->args[i];
      // A query of a tensor's shape reads none of its elements.
      bool shape_only = i == 0 && row.effect == tir::BuiltinEffect::Shape;
      if (shape_only && a->kind == tir::ExprKind::Var) continue;
      walk_expr(a);
    }
  }

  void walk_tensor_new(const tir::Expr* e) {
    if (e->type.kind != TypeKind::Tensor || e->type.memory != Memory::Smem || spawn_ == 0) return;
    if (!block_code()) {
      auto& d = error(KernelRule::TilePlacement, e->span,
                      "a tile in shared memory is made in the code of a block: in a block loop, "
                      "outside its lane loops",
                      nest_.lane_loops() > 0 ? "inside a lane loop" : "not in a block loop");
      d.notes.push_back("a tile lives as long as the code of the block that makes it");
      return;
    }
    int64_t n = e->type.static_size();
    if (n <= 0) return;
    const tir::Stmt* block = nullptr;
    for (auto it = across_.rbegin(); it != across_.rend(); ++it)
      if ((*it)->across == tir::Across::Blocks) {
        block = *it;
        break;
      }
    int64_t bytes = n * std::max(1, scalar_info(e->type.scalar).bits / 8);
    int64_t& total = smem_bytes_[block];
    int64_t before = total;
    total += bytes;
    if (total > m_.smem_per_block && before <= m_.smem_per_block) {
      auto& d = error(KernelRule::TileSize, e->span,
                      "the tiles of this block need " + std::to_string(total) +
                          " bytes of shared memory, and a block of " + machine_name() + " has " +
                          std::to_string(m_.smem_per_block),
                      "this tile does not fit");
      d.helps.push_back("use smaller tiles, or tile the work in steps");
    }
  }

  const tir::Program& prog_;
  const Machine& m_;
  const std::vector<FunctionEffects>& sums_;
  Diagnostics& diags_;
  const SourceFile& file_;
  const tir::Function* fn_ = nullptr;
  kr::IndexDag dag_;
  kr::FunctionFacts facts_;
  std::vector<const IxNode*> env_;
  std::unordered_map<const IxNode*, bool> foldable_;
  std::vector<int> alias_;
  std::vector<std::vector<const tir::Expr*>> prefix_;  // a reference local: its row's indices
  std::vector<bool> prefix_unknown_;
  std::set<int> assigned_;
  std::vector<const IxNode*> now_;  // set_now
  kr::PolyForms forms_;             // equal_arms's comparisons
  // The reference arguments whose accesses a call's summary recorded (record_call_accesses).
  std::set<std::pair<const tir::Expr*, size_t>> summarised_;
  std::map<int, const tir::Stmt*> loop_of_slot_;
  // A stepped plain loop whose start is not a constant: its start and step (`a + K * j`).
  std::map<const tir::Stmt*, std::pair<const IxNode*, const IxNode*>> stepped_;
  std::map<const tir::Stmt*, int64_t> smem_bytes_;
  std::set<uint32_t> reported_borrow_;
  std::set<std::pair<uint32_t, std::string>> reported_outer_;  // a span and the name written

  int spawn_ = 0;
  kr::LoopNest nest_{m_};
  std::vector<const tir::Stmt*> fors_, across_, loops_;
  const kr::BuildIndex build_ = [this](const tir::Expr* e) { return build(e); };
  const tir::Expr* whole_let_ = nullptr;
  const tir::Expr* whole_stmt_ = nullptr;
};

}  // namespace

bool check_kernel_rules(const tir::Program& program, const Machine& machine, Diagnostics& diags,
                        std::vector<kr::StoreExplain>* explain, bool maps) {
  size_t before = diags.error_count();
  std::vector<FunctionEffects> sums = function_effects(program);
  for (const tir::Function& fn : program.functions) {
    if (!fn.body) continue;
    RuleWalker walker(program, machine, sums, diags);
    walker.run(fn, explain, maps);
  }
  if (explain)
    std::stable_sort(explain->begin(), explain->end(),
                     [](const kr::StoreExplain& a, const kr::StoreExplain& b) {
                       return a.span.begin < b.span.begin;
                     });
  return diags.error_count() == before;
}

}  // namespace vx
