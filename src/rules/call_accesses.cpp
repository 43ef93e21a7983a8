#include "rules/call_accesses.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <set>

#include "check/effects.hpp"
#include "check/tir_walk.hpp"
#include "check/types.hpp"
#include "rules/pass_guards.hpp"
#include "support/internal_error.hpp"

namespace vx::kr {

IntType int_type(const Type& t) {
  if (!t.is_scalar() || !is_int(t.scalar)) return {};
  const auto& info = scalar_info(t.scalar);
  return IntType{static_cast<uint8_t>(info.bits), info.is_signed};
}

std::vector<const tir::Expr*> place_indices(const tir::Expr* e) {
  std::vector<const tir::Expr*> chain;
  while (e && (e->kind == tir::ExprKind::Index || e->kind == tir::ExprKind::View ||
               e->kind == tir::ExprKind::Ref)) {
    chain.push_back(e);
    e = e->args.empty() ? nullptr : e->args[0];
  }
  std::vector<const tir::Expr*> out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    if ((*it)->kind != tir::ExprKind::Ref)
      out.insert(out.end(), (*it)->args.begin() + 1, (*it)->args.end());
  return out;
}

std::optional<IxOp> index_op(tir::BinOp op) {
  switch (op) {
    case tir::BinOp::Add:
      return IxOp::Add;
    case tir::BinOp::Sub:
      return IxOp::Sub;
    case tir::BinOp::Mul:
      return IxOp::Mul;
    case tir::BinOp::Div:
      return IxOp::Div;
    case tir::BinOp::Rem:
      return IxOp::Rem;
    default:
      return std::nullopt;
  }
}

bool keeps_value(const Type& from, const Type& to) {
  if (!from.is_scalar() || !is_int(from.scalar) || !to.is_scalar() || !is_int(to.scalar))
    return false;
  const auto& a = scalar_info(from.scalar);
  const auto& b = scalar_info(to.scalar);
  return (b.bits > a.bits && (b.is_signed || !a.is_signed)) ||
         (a.bits == b.bits && a.is_signed == b.is_signed);
}

// The row-major offset of the indices `idx` in a tensor of type `t` (`key`: names the symbols
// of dimensions `t` does not have). Two indices `[x / W][x % W]` in a dimension of W give x:
// (x / W) * W + x % W is x for truncating division (spec/kernel-rules.md §4 step 1).
const IxNode* row_major(IndexDag& dag, const std::vector<const IxNode*>& idx, const Type& t,
                        const void* key) {
  auto dim = [&](size_t k) {
    if (k < t.dims.size() && t.dims[k] > 0) return dag.constant(t.dims[k]);
    return dag.symbol(k < t.dims.size() ? &t.dims[k] : key, "dim" + std::to_string(k));
  };
  const IxNode* off = idx[0];
  const IxNode* before = nullptr;  // the offset before the last index was added
  for (size_t k = 1; k < idx.size(); ++k) {
    const IxNode *hi = idx[k - 1], *lo = idx[k];
    if (hi->op == IxOp::Div && lo->op == IxOp::Rem && hi->a == lo->a && hi->b->is_const() &&
        lo->b->is_const() && hi->b->value == lo->b->value && k < t.dims.size() &&
        t.dims[k] == lo->b->value && (k == 1 || before)) {
      const IxNode* x = lo->a;
      off = k == 1
                ? x
                : dag.binary(
                      IxOp::Add,
                      dag.binary(IxOp::Mul, dag.binary(IxOp::Mul, before, dim(k - 1)), dim(k)), x);
      before = nullptr;  // the pair is one index: a third cannot join it
      continue;
    }
    before = off;
    off = dag.binary(IxOp::Add, dag.binary(IxOp::Mul, off, dim(k)), lo);
  }
  return off;
}

int low_zero_bits(const IxNode* n) {
  constexpr int kAll = 63;
  if (n->is_const())
    return n->value == 0 ? kAll : std::min(kAll, std::countr_zero(static_cast<uint64_t>(n->value)));
  switch (n->op) {
    case IxOp::Add:
    case IxOp::Sub:
      return std::min(low_zero_bits(n->a), low_zero_bits(n->b));
    case IxOp::Mul:
      return std::min(kAll, low_zero_bits(n->a) + low_zero_bits(n->b));
    case IxOp::Neg:
      return low_zero_bits(n->a);
    default:
      return 0;
  }
}

bool is_bits_op(tir::BinOp op) {
  return tir::binop_class(op) == tir::OpClass::Bits || tir::binop_class(op) == tir::OpClass::Shift;
}

const IxNode* bits_index(IndexDag& dag, tir::BinOp op, const IxNode* a, const IxNode* b, IntType t,
                         const NodeRange& range) {
  if (t.math()) return nullptr;
  const auto never_negative = [&](const IxNode* n) { return range(n).first >= 0; };
  if (op == tir::BinOp::BitOr || op == tir::BinOp::BitXor) {
    // `(b << 4) | l` with l in 0..16 is `b * 16 + l`.
    for (auto [m, low] : {std::pair{a, b}, std::pair{b, a}}) {
      const int k = std::min(low_zero_bits(m), static_cast<int>(t.bits) - 1);
      const auto [lo, hi] = range(low);
      if (lo >= 0 && hi < (static_cast<__int128>(1) << k)) return dag.binary(IxOp::Add, m, low, t);
    }
    return nullptr;
  }
  if (op == tir::BinOp::Shl || op == tir::BinOp::Shr) {
    if (!b->is_const() || b->value < 0 || b->value >= std::min<int64_t>(t.bits, 62)) return nullptr;
    const IxNode* power = dag.constant(int64_t{1} << b->value);
    if (op == tir::BinOp::Shl) return dag.binary(IxOp::Mul, a, power, t);
    return never_negative(a) ? dag.binary(IxOp::Div, a, power, t) : nullptr;
  }
  if (op != tir::BinOp::BitAnd) return nullptr;
  if (a->is_const()) std::swap(a, b);
  if (!b->is_const() || b->value < 0 || b->value >= (int64_t{1} << 62)) return nullptr;
  const int64_t m = b->value + 1;
  if ((m & (m - 1)) != 0 || !never_negative(a)) return nullptr;
  return dag.binary(IxOp::Rem, a, dag.constant(m), t);
}

bool shift_keeps_bounds(const IxNode* e, int64_t c, int64_t dim, std::optional<int64_t> loop_lo,
                        std::optional<int64_t> loop_hi) {
  IntType t = e->type;
  if (t.math()) return true;
  __int128 tmin = t.is_signed ? -(static_cast<__int128>(1) << (t.bits - 1)) : 0;
  __int128 tmax = t.is_signed ? (static_cast<__int128>(1) << (t.bits - 1)) - 1
                              : (static_cast<__int128>(1) << t.bits) - 1;
  __int128 lo = loop_lo ? *loop_lo : tmin, hi = loop_hi ? *loop_hi : tmax;
  __int128 span = tmax - tmin + 1, sum_lo = lo + c, sum_hi = hi + c;
  // The part above the type wraps down by 2^bits, the part below up: neither may meet the bounds.
  auto meets = [&](__int128 a, __int128 b) { return a <= dim - 1 && b >= 0; };
  if (sum_hi > tmax && meets(std::max(sum_lo, tmax + 1) - span, sum_hi - span)) return false;
  if (sum_lo < tmin && meets(sum_lo + span, std::min(sum_hi, tmin - 1) + span)) return false;
  return true;
}

void forget_assigned(const tir::Block* b, const tir::Expr* e, std::vector<const IxNode*>& values) {
  auto forget = [&](int slot) {
    if (slot >= 0 && slot < static_cast<int>(values.size())) values[slot] = nullptr;
  };
  tir::writes_in(b, forget);
  tir::writes_in(e, forget);
}

namespace {

constexpr int kMaxDepth = 8;  // calls followed, one inside the other

class Summary {
 public:
  Summary(const tir::Program& p, IndexDag& d) : prog_(p), dag_(d) {}
  std::vector<CallAccess> out;

  // The value of a call of `fn` (call_value).
  const IxNode* value(int fn, std::map<int, const IxNode*> env, int depth) {
    auto end = follow(fn, std::move(env), depth);
    return end ? end->value : nullptr;
  }

  // What a call leaves behind (null: not known).
  struct End {
    std::vector<const IxNode*> slots;  // in its return slots (tir::Function::ret_slots)
    const IxNode* value = nullptr;     // the integer it returns
  };
  // Follows the body of `fn` from its parameters' values `env`: its top level (and its block
  // statements, step), which runs once and in order. nullopt when a `return` may end it before
  // its end, or past the depth.
  std::optional<End> follow(int fn, std::map<int, const IxNode*> env, int depth) {
    if (fn < 0 || fn >= static_cast<int>(prog_.functions.size()) || depth > kMaxDepth ||
        on_stack_.count(fn))
      return std::nullopt;
    const tir::Function& g = prog_.functions[fn];
    if (!g.body) return std::nullopt;
    Frame saved = frame_;
    frame_ = {&g, {}, std::move(env), {}, depth};
    on_stack_.insert(fn);
    const tir::Block* b = g.body;
    const bool returns_int = int_type(g.ret).bits != 0;
    End e;
    bool ok = !returns_inside(nullptr, b->tail);
    for (size_t k = 0; k < b->stmts.size() && ok; ++k) {
      const tir::Stmt* s = b->stmts[k];
      // Only a last `return` ends the body where the rule follows it.
      ok = !returns_inside(s, nullptr) &&
           (s->kind != tir::StmtKind::Return || k + 1 == b->stmts.size());
      if (!ok) break;
      if (s->kind == tir::StmtKind::Return && s->value && returns_int) e.value = build(s->value);
      step(s);
    }
    std::optional<End> end;
    if (ok) {
      if (b->tail && returns_int) e.value = build(b->tail);
      forget_writes(b->tail);
      for (int slot : g.ret_slots) {
        auto it = frame_.env.find(slot);
        e.slots.push_back(it == frame_.env.end() ? nullptr : it->second);
      }
      end = std::move(e);
    }
    on_stack_.erase(fn);
    frame_ = std::move(saved);
    return end;
  }

  // The values a call `e` gives its out slots, in their order (null: not known), when its
  // arguments write no local (so that each is read with the values before the call).
  std::vector<const IxNode*> given(const tir::Expr* e,
                                   const std::function<const IxNode*(const tir::Expr*)>& read) {
    std::vector<const IxNode*> got(e->out_slots.size(), nullptr);
    const int f = e->fn_index;
    if (got.empty() || f < 0 || f >= static_cast<int>(prog_.functions.size())) return got;
    const tir::Function& g = prog_.functions[f];
    std::map<int, const IxNode*> env;
    for (size_t k = 0; k < e->args.size(); ++k) {
      if (writes_inside(e->args[k])) return got;
      if (k < g.param_slots.size() && int_type(e->args[k]->type).bits)
        if (const IxNode* n = read(e->args[k])) env[g.param_slots[k]] = n;
    }
    auto end = follow(f, std::move(env), frame_.depth + 1);
    if (end && end->slots.size() == got.size()) got = std::move(end->slots);
    return got;
  }

  // The accesses of function `fn` through the locals of `bound` (slot -> the row it stands for).
  bool function(int fn, std::map<int, std::vector<const IxNode*>> bound,
                std::map<int, const IxNode*> env, int depth) {
    if (fn < 0 || fn >= static_cast<int>(prog_.functions.size()) || depth > kMaxDepth ||
        on_stack_.count(fn))
      return false;
    const tir::Function& g = prog_.functions[fn];
    std::set<int> assigned = assigned_in(g);
    for (int s : assigned) {
      if (bound.count(s)) return false;
      env.erase(s);
    }
    Frame saved = frame_;
    frame_ = {&g, std::move(bound), std::move(env), std::move(assigned), depth};
    on_stack_.insert(fn);
    const int guarded = guarded_;
    if (exits_early(g)) ++guarded_;
    bool ok = block(g.body);
    guarded_ = guarded;
    on_stack_.erase(fn);
    frame_ = std::move(saved);
    return ok;
  }

 private:
  // A local assigned anywhere is not one value: an index that uses it is not read.
  static std::set<int> assigned_in(const tir::Function& g) {
    std::set<int> assigned;
    tir::writes_in(g.body, [&](int slot) { assigned.insert(slot); });
    return assigned;
  }

  // Whether `g` may end before the end of its body: a `break`, a `continue`, or a `return` that
  // is not its last statement.
  static bool exits_early(const tir::Function& g) {
    const tir::Stmt* last =
        g.body && !g.body->tail && !g.body->stmts.empty() ? g.body->stmts.back() : nullptr;
    return exits_in(g.body, last);
  }
  // The accesses of `b`, which a call may not get to.
  bool guarded_block(const tir::Block* b) {
    ++guarded_;
    bool ok = block(b);
    --guarded_;
    return ok;
  }

  // The accesses of a branch of `if cond` (its block where `holds`, its `else` otherwise), under
  // the condition as the kernel's own (pass_guards.hpp). The callee assigns none of the locals
  // that have a value (frame_.env), so the condition reads after the walk what it read at the `if`.
  bool branch(const tir::Expr* cond, const tir::Block* b, bool holds) {
    const size_t first = out.size();
    if (!block(b)) return false;
    guard_accesses(out, first, cond, holds, [&](const tir::Expr* x) { return build(x); });
    return true;
  }

  // Whether a `return` is inside `s` (not `s` itself) or `e`: the body may end there.
  static bool returns_inside(const tir::Stmt* s, const tir::Expr* e) {
    auto is_return = [&](const tir::Stmt* st, const tir::Expr*) {
      return st && st != s && st->kind == tir::StmtKind::Return;
    };
    return (s && tir::stmt_has(s, is_return)) || (e && tir::expr_has(e, is_return));
  }
  // Whether `e` assigns a local anywhere inside it.
  static bool writes_inside(const tir::Expr* e) {
    bool found = false;
    tir::writes_in(e, [&](int) { found = true; });
    return found;
  }
  // Every local the statement or expression `n` assigns, anywhere inside it, leaves the frame's
  // values.
  template <class Node>
  void forget_writes(const Node* n) {
    tir::writes_in(n, [&](int slot) { frame_.env.erase(slot); });
  }

  // One statement of a body's top level, which runs once, in order (follow), or of a block
  // statement there: an integer `let` or assignment gives its local the value built, a call its
  // out slots the values it gives (given); whatever else the statement assigns is no longer
  // known.
  void step(const tir::Stmt* s) {
    if (s->kind == tir::StmtKind::Expr && s->value && s->value->kind == tir::ExprKind::BlockExpr &&
        s->value->block) {  // a block statement runs its statements once, in order
      for (const tir::Stmt* inner : s->value->block->stmts) step(inner);
      forget_writes(s->value->block->tail);
      return;
    }
    int target = -1;
    const IxNode* v = nullptr;
    std::vector<const IxNode*> out;
    const tir::Function& g = *frame_.fn;
    auto is_int_slot = [&](int slot) {
      return slot >= 0 && slot < g.slot_count() && int_type(g.slot_types[slot]).bits;
    };
    if (s->kind == tir::StmtKind::Let && s->slot >= 0) {
      target = s->slot;
      if (s->value && is_int_slot(target)) v = build(s->value);
    } else if (s->kind == tir::StmtKind::Assign && s->target->kind == tir::ExprKind::Var) {
      target = s->target->slot;
      if (is_int_slot(target)) {
        v = build(s->value);
        if (s->compound) {
          auto op = index_op(s->op);
          auto now = frame_.env.find(target);
          v = op && v && now != frame_.env.end()
                  ? dag_.binary(*op, now->second, v, int_type(g.slot_types[target]))
                  : nullptr;
        }
      }
    } else if (s->kind == tir::StmtKind::Expr && s->value &&
               s->value->kind == tir::ExprKind::Call) {
      out = given(s->value, [&](const tir::Expr* x) { return build(x); });
    }
    forget_writes(s);
    if (target >= 0 && v) frame_.env[target] = v;
    for (size_t k = 0; k < out.size(); ++k)
      if (out[k]) frame_.env[s->value->out_slots[k]] = out[k];
  }

  struct Frame {
    const tir::Function* fn = nullptr;
    std::map<int, std::vector<const IxNode*>> bound;
    std::map<int, const IxNode*> env;
    std::set<int> assigned;
    int depth = 0;
  };

  // The row a place rooted at a bound local stands for, with its own indices after it; nullopt
  // when it is not rooted at one, or an index cannot be read.
  std::optional<std::vector<const IxNode*>> row(const tir::Expr* place) {
    const tir::Expr* root = tensor_root(place);
    if (!root || !frame_.bound.count(root->slot)) return std::nullopt;
    std::vector<const IxNode*> r = must_find(frame_.bound, root->slot);
    for (const tir::Expr* i : place_indices(place)) {
      const IxNode* n = build(i);
      if (!n) return std::nullopt;
      r.push_back(n);
    }
    return r;
  }
  bool rooted(const tir::Expr* e) const {
    const tir::Expr* root = tensor_root(e);
    return root && frame_.bound.count(root->slot);
  }
  std::string text(Span s) const {
    const std::string& t = prog_.file->text();
    return s.end <= t.size() && s.begin <= s.end ? t.substr(s.begin, s.end - s.begin) : "";
  }

  const IxNode* build(const tir::Expr* e) {
    switch (e->kind) {
      case tir::ExprKind::Match:  // lowered before this step
      case tir::ExprKind::Field:
        tir::unlowered();
      case tir::ExprKind::Literal:
        if (e->type.is_scalar() && is_int(e->type.scalar)) return dag_.constant(e->lit.i);
        return nullptr;
      case tir::ExprKind::Var: {
        auto it = frame_.env.find(e->slot);
        return it == frame_.env.end() ? nullptr : it->second;
      }
      case tir::ExprKind::Unary: {
        if (e->uop != tir::UnOp::Neg) return nullptr;
        const IxNode* a = build(e->args[0]);
        return a ? dag_.neg(a, int_type(e->type)) : nullptr;
      }
      case tir::ExprKind::Binary: {
        auto op = index_op(e->bop);
        const IxNode* a = op ? build(e->args[0]) : nullptr;
        const IxNode* b = a ? build(e->args[1]) : nullptr;
        return b ? dag_.binary(*op, a, b, int_type(e->type)) : nullptr;
      }
      case tir::ExprKind::Cast:
        return keeps_value(e->args[0]->type, e->type) ? build(e->args[0]) : nullptr;
      case tir::ExprKind::Builtin:
        return e->builtin == tir::BuiltinId::Dbg ? build(e->args[0]) : nullptr;
      case tir::ExprKind::Call: {
        if (e->fn_index < 0 || e->fn_index >= static_cast<int>(prog_.functions.size()))
          return nullptr;
        const tir::Function& h = prog_.functions[e->fn_index];
        std::map<int, const IxNode*> env;
        for (size_t k = 0; k < e->args.size() && k < h.param_slots.size(); ++k)
          if (int_type(e->args[k]->type).bits)
            if (const IxNode* n = build(e->args[k])) env[h.param_slots[k]] = n;
        return value(e->fn_index, std::move(env), frame_.depth + 1);
      }
      case tir::ExprKind::Unit:
      case tir::ExprKind::String:
      case tir::ExprKind::Index:
      case tir::ExprKind::View:
      case tir::ExprKind::Ref:
      case tir::ExprKind::TensorNew:
      case tir::ExprKind::Transfer:
      case tir::ExprKind::If:
      case tir::ExprKind::BlockExpr:
      case tir::ExprKind::Print:
      case tir::ExprKind::Assert:
      case tir::ExprKind::ArrayLit:
        return nullptr;
    }
    return nullptr;
  }

  bool block(const tir::Block* b) {
    if (!b) return true;
    for (const tir::Stmt* s : b->stmts)
      if (!stmt(s)) return false;
    return expr(b->tail);
  }

  bool access(const tir::Expr* place, bool write, bool read) {
    auto r = row(place);
    if (!r) return false;
    if (read) out.push_back({false, *r, text(place->span), {{}, guarded_ > 0, false}});
    if (write) out.push_back({true, *r, text(place->span), {{}, guarded_ > 0, false}});
    for (const tir::Expr* i : place_indices(place))
      if (!expr(i)) return false;
    return true;
  }

  bool stmt(const tir::Stmt* s) {
    switch (s->kind) {
      case tir::StmtKind::Let:
        if (s->value &&
            (s->value->kind == tir::ExprKind::Var || s->value->kind == tir::ExprKind::Ref) &&
            rooted(s->value)) {
          // `let r = &mut a;` or `let r = &mut a[i];`: r stands for that row.
          if (s->value->kind == tir::ExprKind::Var) return false;  // a moved tensor
          auto r = row(s->value);
          if (!r || frame_.assigned.count(s->slot)) return false;
          frame_.bound[s->slot] = *r;
          return true;
        }
        if (!expr(s->value)) return false;
        if (s->value && s->slot >= 0 && s->slot < frame_.fn->slot_count() &&
            !frame_.assigned.count(s->slot) && int_type(frame_.fn->slot_types[s->slot]).bits)
          if (const IxNode* n = build(s->value)) frame_.env[s->slot] = n;
        return true;
      case tir::StmtKind::Assign:
        if (s->target->kind == tir::ExprKind::Index && rooted(s->target))
          return access(s->target, true, s->compound) && expr(s->value);
        return expr(s->target) && expr(s->value);
      case tir::StmtKind::Expr:
      case tir::StmtKind::Return:
        return expr(s->value);
      case tir::StmtKind::While:
        return expr(s->value) && guarded_block(s->body);
      case tir::StmtKind::Loop:
      case tir::StmtKind::Spawn:
        return guarded_block(s->body);
      case tir::StmtKind::For:
        for (const tir::RangeAdapter& a : s->adapters)
          if (!expr(a.step)) return false;
        return expr(s->start) && expr(s->end) && guarded_block(s->body);
      case tir::StmtKind::Break:
      case tir::StmtKind::Continue:
        return true;
    }
    return false;
  }

  bool args(const tir::Expr* e) {
    for (const tir::Expr* a : e->args)
      if (!expr(a)) return false;
    return true;
  }

  bool expr(const tir::Expr* e) {
    if (!e) return true;
    switch (e->kind) {
      case tir::ExprKind::Match:  // lowered before this step
      case tir::ExprKind::Field:
        tir::unlowered();
      case tir::ExprKind::Var:
        return !frame_.bound.count(e->slot);  // any other use of the tensor is not read
      case tir::ExprKind::Index:
        if (rooted(e)) return access(e, false, true);
        return args(e);
      case tir::ExprKind::View:
      case tir::ExprKind::Ref:
        return !rooted(e) && args(e);
      case tir::ExprKind::Call: {
        // The parameters the tensor is lent to stand for its rows; the integers are passed on.
        std::map<int, std::vector<const IxNode*>> lent;
        std::map<int, const IxNode*> env;
        int f = e->fn_index;
        if (f < 0 || f >= static_cast<int>(prog_.functions.size())) return false;
        const tir::Function& h = prog_.functions[f];
        for (size_t k = 0; k < e->args.size() && k < h.param_slots.size(); ++k) {
          const tir::Expr* a = e->args[k];
          if ((a->kind == tir::ExprKind::Var || a->kind == tir::ExprKind::Ref ||
               a->kind == tir::ExprKind::View) &&
              rooted(a)) {
            if (a->kind == tir::ExprKind::Var && a->type.kind != TypeKind::Ref) return false;
            auto r = row(a);
            if (!r) return false;
            lent[h.param_slots[k]] = *r;
            continue;
          }
          if (!expr(a)) return false;
          if (int_type(a->type).bits)
            if (const IxNode* n = build(a)) env[h.param_slots[k]] = n;
        }
        if (lent.empty()) return true;
        return function(f, std::move(lent), std::move(env), frame_.depth + 1);
      }
      case tir::ExprKind::Builtin:
        if ((e->builtin == tir::BuiltinId::Len || e->builtin == tir::BuiltinId::Dim) &&
            e->args[0]->kind == tir::ExprKind::Var)
          return e->args.size() < 2 || expr(e->args[1]);  // a size is not an element
        for (const tir::Expr* a : e->args)
          if (a->kind != tir::ExprKind::Index && rooted(a)) return false;  // a routine's
        return args(e);
      case tir::ExprKind::If:
        return args(e) && branch(e->args[0], e->block, true) &&
               branch(e->args[0], e->else_block, false);
      case tir::ExprKind::BlockExpr:
        return block(e->block);
      case tir::ExprKind::Literal:
      case tir::ExprKind::Unit:
      case tir::ExprKind::String:
      case tir::ExprKind::Binary:
        if (e->bop == tir::BinOp::And || e->bop == tir::BinOp::Or) {  // the right side may not run
          if (!expr(e->args[0])) return false;
          ++guarded_;
          bool ok = expr(e->args[1]);
          --guarded_;
          return ok;
        }
        return args(e);
      case tir::ExprKind::Unary:
      case tir::ExprKind::Cast:
      case tir::ExprKind::TensorNew:
      case tir::ExprKind::Transfer:
      case tir::ExprKind::Print:
      case tir::ExprKind::Assert:
      case tir::ExprKind::ArrayLit:
        return args(e);
    }
    return false;
  }

  const tir::Program& prog_;
  IndexDag& dag_;
  Frame frame_;
  std::set<int> on_stack_;
  int guarded_ = 0;  // > 0: something decides whether a call gets to the code walked
};

}  // namespace

const IxNode* call_value(const tir::Program& prog, int fn, const std::vector<const IxNode*>& ints,
                         IndexDag& dag) {
  if (fn < 0 || fn >= static_cast<int>(prog.functions.size())) return nullptr;
  const tir::Function& g = prog.functions[fn];
  std::map<int, const IxNode*> env;
  for (size_t k = 0; k < ints.size() && k < g.param_slots.size(); ++k)
    if (ints[k]) env[g.param_slots[k]] = ints[k];
  Summary s(prog, dag);
  return s.value(fn, std::move(env), 0);
}

std::vector<std::pair<int, const IxNode*>> call_results(
    const tir::Program& prog, const tir::Expr* call, IndexDag& dag,
    const std::function<const IxNode*(const tir::Expr*)>& read) {
  Summary s(prog, dag);
  const std::vector<const IxNode*> got = s.given(call, read);
  std::vector<std::pair<int, const IxNode*>> out;
  for (size_t k = 0; k < got.size(); ++k) out.emplace_back(call->out_slots[k], got[k]);
  return out;
}

std::optional<std::vector<CallAccess>> call_accesses(const tir::Program& prog, int fn, int param,
                                                     const std::vector<const IxNode*>& prefix,
                                                     const std::vector<const IxNode*>& ints,
                                                     IndexDag& dag) {
  if (fn < 0 || fn >= static_cast<int>(prog.functions.size())) return std::nullopt;
  const tir::Function& g = prog.functions[fn];
  if (param < 0 || param >= static_cast<int>(g.param_slots.size())) return std::nullopt;
  std::map<int, const IxNode*> env;
  for (size_t k = 0; k < ints.size() && k < g.param_slots.size(); ++k)
    if (ints[k]) env[g.param_slots[k]] = ints[k];
  Summary s(prog, dag);
  if (!s.function(fn, {{g.param_slots[param], prefix}}, std::move(env), 0)) return std::nullopt;
  return std::move(s.out);
}

}  // namespace vx::kr
