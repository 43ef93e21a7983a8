// The control-flow lints (lint_flow.hpp): `unused_assignments`, a set of live locals carried
// backward from the end of the function through each statement and expression in reverse order
// of running; `unconditional_recursion`, a forward walk of what runs without calling the
// function itself.
#include "check/lint_flow.hpp"

#include <map>
#include <set>

#include "support/internal_error.hpp"

namespace vx::lint {

using tir::Block;
using tir::Expr;
using tir::ExprKind;
using tir::Stmt;
using tir::StmtKind;

namespace {

using Live = std::vector<bool>;  // by slot: whether a read may come before the next store

Live joined(Live a, const Live& b) {
  for (size_t i = 0; i < a.size(); ++i) a[i] = a[i] || b[i];
  return a;
}

// How an expression runs what it holds, for the walks of this file.
enum class Shape {
  Read,          // a local's value (Var)
  Call,          // a user function's call, after its arguments in order
  InOrder,       // its arguments in order
  ShortCircuit,  // `&&`, `||`: the left side, then maybe the right
  If,            // the condition, then one branch
  Block,         // a block expression: the block, then a flat tuple's scalars
  Unlowered,     // a form that the lowering leaves none of (a `match`, a field of a value)
};

Shape shape(const Expr* e) {
  switch (e->kind) {
    case ExprKind::Var:
      return Shape::Read;
    case ExprKind::Call:
      return Shape::Call;
    case ExprKind::Binary:
      return tir::binop_class(e->bop) == tir::OpClass::Logic ? Shape::ShortCircuit : Shape::InOrder;
    case ExprKind::If:
      return Shape::If;
    case ExprKind::BlockExpr:
      return Shape::Block;
    case ExprKind::Match:
    case ExprKind::Field:
      return Shape::Unlowered;
    case ExprKind::Literal:
    case ExprKind::Unit:
    case ExprKind::String:
    case ExprKind::Unary:
    case ExprKind::Cast:
    case ExprKind::Index:
    case ExprKind::View:
    case ExprKind::Ref:
    case ExprKind::Builtin:
    case ExprKind::TensorNew:
    case ExprKind::Transfer:
    case ExprKind::Print:
    case ExprKind::Assert:
    case ExprKind::ArrayLit:
      return e->block || e->else_block || e->match ? Shape::Unlowered : Shape::InOrder;
  }
  internal_error("unknown expression kind");
}

class Liveness {
 public:
  Liveness(const tir::Function& f, const std::vector<bool>& tracked) : f_(f), tracked_(tracked) {}

  std::vector<DeadStore> run() {
    const Live none(tracked_.size(), false);
    const Live entry = block(f_.body, none);
    std::vector<DeadStore> out;
    if (opaque_) return out;
    for (const auto& [s, dead] : dead_)
      if (dead) out.push_back({s->kind == StmtKind::Let ? s->slot : s->target->slot, s});
    for (int slot : f_.param_slots)
      if (is_tracked(slot) && !entry[static_cast<size_t>(slot)]) out.push_back({slot, nullptr});
    return out;
  }

 private:
  bool is_tracked(int slot) const {
    return slot >= 0 && static_cast<size_t>(slot) < tracked_.size() &&
           tracked_[static_cast<size_t>(slot)];
  }

  Live block(const Block* b, Live after) {
    if (!b) return after;
    after = expr(b->tail, std::move(after));
    for (auto it = b->stmts.rbegin(); it != b->stmts.rend(); ++it) after = stmt(*it, after);
    return after;
  }

  // The arguments in reverse: they run in order.
  Live args(const Expr* e, Live after) {
    for (auto it = e->args.rbegin(); it != e->args.rend(); ++it) after = expr(*it, after);
    return after;
  }

  Live expr(const Expr* e, Live after) {
    if (!e) return after;
    switch (shape(e)) {
      case Shape::Read:
        if (is_tracked(e->slot)) after[static_cast<size_t>(e->slot)] = true;
        return after;
      case Shape::Call:
      case Shape::InOrder:
        return args(e, std::move(after));
      case Shape::ShortCircuit: {
        const Live right = expr(e->args[1], after);
        return expr(e->args[0], joined(after, right));
      }
      case Shape::If: {
        const Live then_live = block(e->block, after);
        const Live else_live = e->else_block ? block(e->else_block, after) : after;
        return expr(e->args[0], joined(then_live, else_live));
      }
      case Shape::Block:
        return block(e->block, args(e, std::move(after)));
      case Shape::Unlowered:
        opaque_ = true;
        return after;
    }
    internal_error("unknown expression shape");
  }

  // A jump's destination's live set, recorded by the loop it names.
  Live jump(const std::map<const Stmt*, Live>& to, const Stmt* s) {
    const auto it = to.find(s->jump_target);
    if (it == to.end()) {
      opaque_ = true;
      return Live(tracked_.size(), false);
    }
    return expr(s->value, it->second);
  }

  // A loop's head, to a fixed point: `head(h)` is the live set before the head given `h` there.
  template <class Head>
  Live loop(const Stmt* s, const Live& after, const Head& head) {
    Live h(tracked_.size(), false);
    for (;;) {
      break_to_[s] = after;
      continue_to_[s] = h;
      Live next = head(h);
      if (next == h) return h;  // the last walk of the body saw the fixed point
      h = std::move(next);
    }
  }

  Live stmt(const Stmt* s, Live after) {
    switch (s->kind) {
      case StmtKind::Let:
        if (is_tracked(s->slot)) {
          const size_t k = static_cast<size_t>(s->slot);
          if (s->value) dead_[s] = !after[k];
          after[k] = false;
        }
        return expr(s->value, std::move(after));
      case StmtKind::Assign:
        if (s->target && s->target->kind == ExprKind::Var) {
          if (is_tracked(s->target->slot)) {
            const size_t k = static_cast<size_t>(s->target->slot);
            dead_[s] = !after[k];
            after[k] = s->compound;  // `x op= v` reads `x`
          }
          return expr(s->value, std::move(after));
        }
        return expr(s->value, expr(s->target, std::move(after)));  // an element: reads its place
      case StmtKind::Expr:
        return expr(s->value, std::move(after));
      case StmtKind::Return:
        return expr(s->value, Live(tracked_.size(), false));
      case StmtKind::Break:
        return jump(break_to_, s);
      case StmtKind::Continue:
        return jump(continue_to_, s);
      case StmtKind::Loop:
        return loop(s, after, [&](const Live& h) { return block(s->body, h); });
      case StmtKind::While:
        return loop(s, after, [&](const Live& h) {
          return expr(s->value, joined(after, block(s->body, h)));
        });
      case StmtKind::For: {
        Live head = loop(s, after, [&](const Live& h) { return joined(after, block(s->body, h)); });
        for (auto it = s->adapters.rbegin(); it != s->adapters.rend(); ++it)
          head = expr(it->step, std::move(head));
        return expr(s->start, expr(s->end, std::move(head)));
      }
      case StmtKind::Spawn:
        return block(s->body, std::move(after));
    }
    internal_error("unknown statement kind");
  }

  const tir::Function& f_;
  const std::vector<bool>& tracked_;
  std::map<const Stmt*, Live> break_to_, continue_to_;
  std::map<const Stmt*, bool> dead_;  // each store's verdict at its last walk, the fixed point's
  bool opaque_ = false;
};

// Whether control reaches each point without having called the function `self`: a walk forward
// of only the code such a run reaches. A run that calls it stops being followed there.
class FreeRuns {
 public:
  explicit FreeRuns(int self) : self_(self) {}

  // Whether a run can leave the function without calling itself, and the calls met.
  bool leaves(const tir::Function& f) {
    if (block(f.body)) leaves_ = true;
    return leaves_;
  }
  const std::vector<const Expr*>& calls() const { return calls_; }

 private:
  // Each returns whether `x`, entered by such a run, can complete without a call of `self`.
  bool block(const Block* b) {
    if (!b) return true;
    for (const Stmt* s : b->stmts)
      if (!stmt(s)) return false;
    return expr(b->tail);
  }

  bool args(const Expr* e) {
    for (const Expr* a : e->args)
      if (!expr(a)) return false;
    return true;
  }

  bool expr(const Expr* e) {
    if (!e) return true;
    switch (shape(e)) {
      case Shape::Read:
      case Shape::InOrder:
        return args(e);
      case Shape::Call:
        if (!args(e)) return false;
        if (e->fn_index != self_) return true;
        calls_.push_back(e);
        return false;
      case Shape::ShortCircuit:
        if (!expr(e->args[0])) return false;
        expr(e->args[1]);  // it may not run
        return true;
      case Shape::If: {
        if (!expr(e->args[0])) return false;
        const bool then_completes = block(e->block);
        const bool else_completes = block(e->else_block);  // none: it completes
        return then_completes || else_completes;
      }
      case Shape::Block:
        return block(e->block) && args(e);
      case Shape::Unlowered:  // say that a run leaves: no warning
        leaves_ = true;
        return true;
    }
    internal_error("unknown expression shape");
  }

  bool stmt(const Stmt* s) {
    for (const Expr* e : s->exprs())
      if (!expr(e)) return false;
    switch (s->kind) {
      case StmtKind::Let:
      case StmtKind::Assign:
      case StmtKind::Expr:
        return true;
      case StmtKind::Return:
        leaves_ = true;
        return false;
      case StmtKind::Break:
        broken_.insert(s->jump_target);
        return false;
      case StmtKind::Continue:
        return false;
      case StmtKind::Loop:
        block(s->body);
        return broken_.count(s) > 0;
      case StmtKind::While:  // its condition ran above: false, it ends
      case StmtKind::For:    // no pass, it ends
        block(s->body);
        return true;
      case StmtKind::Spawn:
        return block(s->body);
    }
    internal_error("unknown statement kind");
  }

  int self_;
  bool leaves_ = false;
  std::set<const Stmt*> broken_;  // the loops that such a run leaves by a `break`
  std::vector<const Expr*> calls_;
};

}  // namespace

std::vector<const Expr*> unconditional_recursion(const tir::Function& f, int self) {
  FreeRuns runs(self);
  if (runs.leaves(f)) return {};
  return runs.calls();
}

std::vector<DeadStore> dead_stores(const tir::Function& f, const std::vector<bool>& tracked) {
  return Liveness(f, tracked).run();
}

}  // namespace vx::lint
