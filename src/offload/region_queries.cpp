// The emitter's questions about typed statements (region_queries.hpp).
#include "offload/region_queries.hpp"

#include <algorithm>
#include <functional>

#include "check/tir_walk.hpp"
#include "support/internal_error.hpp"

namespace vx::offload {

using tir::Expr;
using tir::ExprKind;
using tir::Stmt;
using tir::stmt_has;
using tir::StmtKind;
using tir::walk_expr;

int lane_count(const Stmt& s, int64_t const_count) {
  if (s.lane_count > 0) return s.lane_count;
  return const_count > 0 ? static_cast<int>(std::min<int64_t>(const_count, 1024)) : 256;
}
int64_t constant_count(const Stmt& s) {
  if (s.start->kind != ExprKind::Literal || s.end->kind != ExprKind::Literal) return -1;
  const int64_t a = s.start->lit.i, b = s.end->lit.i;
  if (b < a || (!s.inclusive && b == a)) return 0;
  return (b - a) + (s.inclusive ? 1 : 0);
}
int base_slot(const Expr* e) {
  while (e && (e->kind == ExprKind::View || e->kind == ExprKind::Ref)) e = e->args[0];
  return e && e->kind == ExprKind::Var ? e->slot : -1;
}

bool has_lane_loop(const Stmt* s) {
  return stmt_has(s, [](const Stmt* st, const Expr*) {
    return st && st->kind == StmtKind::For && st->across == tir::Across::Lanes;
  });
}
const Expr* strip(const Expr* e) {
  while (e && e->kind == ExprKind::BlockExpr && e->block && e->block->stmts.empty() &&
         e->block->tail)
    e = e->block->tail;
  return e;
}

// builtins.def's form: a collective call stands as the whole value of a `let` or as a statement
// of its own.
bool is_collective_stmt(const Stmt* s) {
  const Expr* v = strip(s->value);
  if (!v) return false;
  if (s->kind == StmtKind::Let && v->kind == ExprKind::TensorNew) return true;
  if (v->kind != ExprKind::Builtin) return false;
  const tir::BuiltinForm form = tir::builtin_form(v->builtin);
  return (s->kind == StmtKind::Let && form == tir::BuiltinForm::Let) ||
         (s->kind == StmtKind::Expr && form == tir::BuiltinForm::Statement);
}
bool has_collective(const Stmt* s) {
  return stmt_has(s, [](const Stmt* st, const Expr* e) {
    if (st) return is_collective_stmt(st);
    return e->kind == ExprKind::Builtin && tir::is_collective(e->builtin);
  });
}
bool escapes(const Stmt* s) {
  std::function<bool(const tir::Block*)> blk;
  std::function<bool(const Stmt*)> st;
  std::function<bool(const Expr*)> ex = [&](const Expr* e) -> bool {
    if (!e) return false;
    for (auto* a : e->args)
      if (ex(a)) return true;
    return blk(e->block) || blk(e->else_block);
  };
  blk = [&](const tir::Block* b) -> bool {
    if (!b) return false;
    for (auto* x : b->stmts)
      if (st(x)) return true;
    return ex(b->tail);
  };
  st = [&](const Stmt* x) -> bool {
    switch (x->kind) {
      case StmtKind::Break:
      case StmtKind::Continue:
        return true;
      case StmtKind::While:
      case StmtKind::Loop:
      case StmtKind::For:
        for (const Expr* e : x->exprs())
          if (ex(e)) return true;
        return false;
      case StmtKind::Let:
      case StmtKind::Assign:
      case StmtKind::Expr:
      case StmtKind::Spawn:
      case StmtKind::Return:
        return ex(x->target) || ex(x->value) || blk(x->body);
    }
    internal_error("unknown statement kind");
  };
  return st(s);
}
bool expr_impure(const Expr* e) {
  bool found = false;
  walk_expr(e, [&](const Stmt* st, const Expr* x) {
    if (st) {
      if (st->kind == StmtKind::Assign && st->target && st->target->kind == ExprKind::Index)
        found = true;
      return;
    }
    if (x->kind == ExprKind::Builtin &&
        (tir::builtin_acts_on_memory(x->builtin) || tir::is_collective(x->builtin)))
      found = true;
    if (x->kind == ExprKind::Print || x->kind == ExprKind::Assert) found = true;
  });
  return found;
}

}  // namespace vx::offload
