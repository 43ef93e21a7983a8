// Generic walks over the typed program: f(stmt, nullptr) for every statement and f(nullptr, expr)
// for every expression, in source order, into loop bodies, spawn bodies and the blocks of `if`
// and block expressions. Used by the CUDA emitter and the offload runner.
#pragma once
#include <functional>
#include <set>

#include "check/tir.hpp"

namespace vx::tir {

template <class F>
void walk_expr(const Expr* e, const F& f);
template <class F>
void walk_block(const Block* b, const F& f);
template <class F>
void walk_stmt(const Stmt* s, const F& f) {
  if (!s) return;
  f(s, nullptr);
  for (const Expr* e : s->exprs()) walk_expr(e, f);
  walk_block(s->body, f);
}
template <class F>
void walk_block(const Block* b, const F& f) {
  if (!b) return;
  for (auto* s : b->stmts) walk_stmt(s, f);
  walk_expr(b->tail, f);
}
template <class F>
void walk_expr(const Expr* e, const F& f) {
  if (!e) return;
  f(nullptr, e);
  for (auto* a : e->args) walk_expr(a, f);
  walk_block(e->block, f);
  walk_block(e->else_block, f);
}

// Whether pred holds somewhere in the statement, the block or the expression.
inline bool stmt_has(const Stmt* s, const std::function<bool(const Stmt*, const Expr*)>& pred) {
  bool found = false;
  walk_stmt(s, [&](const Stmt* st, const Expr* e) { found = found || pred(st, e); });
  return found;
}
inline bool block_has(const Block* b, const std::function<bool(const Stmt*, const Expr*)>& pred) {
  bool found = false;
  walk_block(b, [&](const Stmt* st, const Expr* e) { found = found || pred(st, e); });
  return found;
}
inline bool expr_has(const Expr* x, const std::function<bool(const Stmt*, const Expr*)>& pred) {
  bool found = false;
  walk_expr(x, [&](const Stmt* st, const Expr* e) { found = found || pred(st, e); });
  return found;
}

// The values a block's code drops: an expression statement's, and `let _ = …`'s.
inline std::set<const Expr*> dropped_values(const Block* b) {
  std::set<const Expr*> dropped;
  walk_block(b, [&](const Stmt* s, const Expr*) {
    if (s && (s->kind == StmtKind::Expr || (s->kind == StmtKind::Let && s->var_name == "_")))
      dropped.insert(s->value);
  });
  return dropped;
}

// An atomic that changes its element and whose returned value is used (not in `dropped`): the
// value depends on the order of the passes (spec/kernel-rules.md §8).
inline bool atomic_result_used(const Expr* e, const std::set<const Expr*>& dropped) {
  return e && e->kind == ExprKind::Builtin &&
         builtin_effect(e->builtin) == BuiltinEffect::AtomicChange && !e->type.is_unit() &&
         !dropped.count(e);
}

}  // namespace vx::tir
