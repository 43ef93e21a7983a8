// Moves and borrows (spec/memory.md §2): which tensor locals each path has moved (E0301), saved
// and joined around branches and loops, what one pass of a loop moves checked against the next;
// and the borrows a `let` of a reference holds, which a move or an assignment of what it borrows
// may not cross while the reference is used again (E0305). The checker calls these as it checks
// statements and expressions.
#include "check/checker_impl.hpp"
#include "check/lints.hpp"

namespace vx::check {

void Checker::mark_moved(tir::Expr* e, Span at) {
  if (move_struct_tensor(e, at)) return;  // check_struct_tensor.cpp
  // The value of an `if`, a `match` or a block moves what its branches' values move (each
  // branch's tail; a binding moved on one path is moved after them, spec/memory.md §2).
  if ((e->kind == tir::ExprKind::If || e->kind == tir::ExprKind::BlockExpr ||
       e->kind == tir::ExprKind::Match) &&
      !e->type.is_tuple()) {
    for (tir::Block* b : tir::branches(e))
      if (b->tail) mark_moved(b->tail, at);
    return;
  }
  // A tensor local used by value (not through a reference) is moved.
  if (e->kind == tir::ExprKind::Var && e->type.kind == TypeKind::Tensor) {
    Local* l = lookup(e->text);
    if (l && l->slot == e->slot) {  // not a local of a block that has ended, shadowing it
      if (!l->moved) let_borrow_conflict(l->slot, l->name, at, true);
      l->moved = true;
      l->moved_at = at;
    }
  }
}

Checker::MoveState Checker::save_moves() const {
  MoveState state;
  for (const auto& scope : scopes_)
    for (const Local& l : scope) state.push_back({l.moved, l.moved_at});
  return state;
}

void Checker::restore_moves(const MoveState& state) {
  size_t i = 0;
  for (auto& scope : scopes_)
    for (Local& l : scope) {
      if (i == state.size()) return;
      l.moved = state[i].moved;
      l.moved_at = state[i].at;
      ++i;
    }
}

void Checker::merge_moves(MoveState& into, const MoveState& other) {
  for (size_t i = 0; i < into.size() && i < other.size(); ++i)
    if (!into[i].moved && other[i].moved) into[i] = other[i];
}

void Checker::join_moves(std::optional<MoveState>& at) const {
  if (at)
    merge_moves(*at, save_moves());
  else
    at = save_moves();
}

void Checker::enter_loop(const char* kind, Span head, const tir::Stmt* stmt,
                         const boost::optional<ast::Label>& label) {
  ++loop_depth_;
  loop_flows_.emplace_back();
  LoopFlow& flow = loop_flows_.back();
  flow.kind = kind;
  flow.head = head;
  flow.stmt = stmt;
  if (label) flow.label = label->name;
}

Checker::LoopFlow Checker::leave_loop(const MoveState& before, const tir::Block* body) {
  LoopFlow flow = std::move(loop_flows_.back());
  loop_flows_.pop_back();
  // The end of a pass, when the body can reach it: a body that ends in `break` (`loop { break
  // t; }`) or `continue` moves nothing into the next pass there.
  MoveState end = never_ends(body, true) ? before : save_moves();
  if (flow.at_continue) merge_moves(end, *flow.at_continue);
  size_t i = 0;
  for (auto& scope : scopes_)
    for (Local& l : scope) {
      if (i >= before.size()) break;
      if (end[i].moved && !before[i].moved) {
        auto& d = error("E0301", end[i].at, "use of moved value `" + l.name + "`",
                        "value moved here, in the previous pass of the loop");
        d.helps.push_back("give `" + l.name + "` a new value before the pass ends (`" + l.name +
                          " = …;` on every path), move it after the loop, or make a new tensor "
                          "in each pass");
        end[i].moved = false;  // reported once
      }
      ++i;
    }
  MoveState after = before;
  merge_moves(after, end);
  if (flow.at_break) merge_moves(after, *flow.at_break);
  restore_moves(after);
  --loop_depth_;
  return flow;
}

void Checker::record_let_borrow(const std::string& ref, int ref_slot, const tir::Expr* value,
                                Span at) {
  const tir::Expr* e = value;
  while (e && (e->kind == tir::ExprKind::Ref || e->kind == tir::ExprKind::View) && !e->args.empty())
    e = e->args[0];
  if (!e || e->kind != tir::ExprKind::Var) return;
  int root = -1;
  if (e->type.kind == TypeKind::Tensor) {
    root = e->slot;
  } else {  // `let r2 = &mut r[1];` of a reference `r` bound by let: borrows what `r` borrows
    for (const LetBorrow& b : let_borrows_)
      if (b.ref_slot == e->slot) root = b.root_slot;
  }
  if (root >= 0) let_borrows_.push_back({ref, ref_slot, root, at, at.begin, std::nullopt});
}

void Checker::report_let_borrow(const LetBorrow& b, const LetBorrow::Conflict& c, Span later_use) {
  auto& d = error("E0305", c.at,
                  c.is_move ? "cannot move out of `" + c.name + "` because it is borrowed"
                            : "cannot assign to `" + c.name + "` because it is borrowed",
                  c.is_move ? "move out of `" + c.name + "` occurs here"
                            : "`" + c.name + "` is assigned to here but it was already borrowed");
  d.secondary.push_back({b.at, "`" + c.name + "` is borrowed here, by `" + b.ref + "`"});
  d.secondary.push_back({later_use, "borrow later used here"});
  d.helps.push_back("use `" + b.ref + "` only before this, or borrow again after it");
}

void Checker::let_borrow_conflict(int slot, const std::string& name, Span at, bool is_move) {
  if (slot < 0) return;  // (a reported borrow's root is -1)
  for (LetBorrow& b : let_borrows_) {
    if (b.root_slot != slot || b.pending) continue;
    const Local* r = lookup(b.ref);
    if (!r || r->slot != b.ref_slot) continue;  // out of scope, or shadowed: the borrow has ended
    const LetBorrow::Conflict c{name, at, is_move};
    // A loop around this that began after the borrow and used `r`: its next pass uses it again.
    bool used_in_loop = false;
    for (const LoopFlow& loop : loop_flows_)
      if (loop.head.begin > b.at.begin && b.last_use >= loop.head.begin) used_in_loop = true;
    if (used_in_loop) {
      report_let_borrow(b, c, Span{b.last_use, b.last_use + static_cast<uint32_t>(b.ref.size())});
      continue;
    }
    b.pending = c;
  }
}

void Checker::use_let_borrow(const Local& l, Span at) {
  for (LetBorrow& b : let_borrows_) {
    if (b.ref_slot != l.slot) continue;
    b.last_use = at.begin;
    if (b.pending) {
      report_let_borrow(b, *b.pending, at);
      b.pending.reset();
      b.root_slot = -1;  // reported once
    }
  }
}

}  // namespace vx::check
