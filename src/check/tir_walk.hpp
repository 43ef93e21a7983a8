// Generic walks over the typed program: f(stmt, nullptr) for every statement and f(nullptr, expr)
// for every expression, in source order, into loop bodies, spawn bodies and the blocks of `if`
// and block expressions. A `match` is walked as its lowering runs it: the scrutinee's setup, then
// for each arm a value can reach, the locals its test reads, its guard and its body; a field of a
// value (`p.x`) as its lowering reads it, without the value's other plain scalars. Used by the
// checker, its lints, the kernel rules, the CUDA emitter and the offload runner.
#pragma once
#include <functional>
#include <set>

#include "check/flat_tuples.hpp"
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
// The Vars of the locals that the test of `p` reads, in the order the test reads them (none for a
// pattern without a test, tir.hpp).
template <class F>
void walk_pattern(const Pattern& p, const F& f) {
  if (!has_test(p)) return;
  if (p.kind == Pattern::Kind::Value) walk_expr(p.var, f);
  for (const Pattern& sub : p.subs) walk_pattern(sub, f);
}
// The scalars of the flat tuple `base` that its field [first, first + count) runs, as the lowering
// runs it: the field's own and the others that have effects. A plain scalar of another field is
// not read (`m.scale` reads no other field of `m`).
template <class F>
void walk_field_of(const Expr* base, size_t first, size_t count, const F& f) {
  f(nullptr, base);
  walk_block(base->block, f);
  for (size_t k = 0; k < base->args.size(); ++k)
    if ((k >= first && k < first + count) || !plain(base->args[k])) walk_expr(base->args[k], f);
}
template <class F>
void walk_expr(const Expr* e, const F& f) {
  if (!e) return;
  f(nullptr, e);
  if (e->kind == ExprKind::Field)
    walk_field_of(e->args[0], static_cast<size_t>(e->field),
                  static_cast<size_t>(e->type.leaf_count()), f);
  else
    for (auto* a : e->args) walk_expr(a, f);
  walk_block(e->block, f);
  walk_block(e->else_block, f);
  if (e->match) {
    walk_block(e->match->setup, f);
    const size_t taken = e->match->taken();
    for (size_t k = 0; k < taken; ++k) {
      const MatchArm& arm = e->match->arms[k];
      if (k + 1 < taken) {  // the last arm taken is the chain's `else`: no test, no guard
        walk_pattern(arm.pattern, f);
        walk_expr(arm.guard, f);
      }
      walk_block(arm.body, f);
    }
  }
}

// The locals that `s` or `e` itself writes (not what runs inside it), in the typed program as in
// the lowered one: an assignment's target, the locals a tuple value is stored into
// (Expr::into_slots) unless it declares them, the locals a call writes (Expr::out_slots) and those
// its `&mut` structs' fields come back to (Expr::back_slots, typed program only). Every
// reader of what a program writes asks this, so that a form of a write the checker leaves to the
// lowering is not missed.
template <class F>
void own_writes(const Stmt* s, const Expr* e, const F& f) {
  if (s && s->kind == StmtKind::Assign && s->target)
    if (const Expr* local = plain_local(s->target)) f(local->slot);  // `x = …`, `p.n = …`
  if (!e) return;
  if (!e->declares)
    for (int slot : e->into_slots)
      if (slot >= 0) f(slot);
  for (int slot : e->out_slots) f(slot);
  for (int slot : e->back_slots) f(slot);
}

// Every local that the statement, block or expression assigns anywhere inside it (own_writes of
// each statement and expression in it), each as often as it is written; null writes nothing.
template <class F>
void writes_in(const Stmt* s, const F& f) {
  walk_stmt(s, [&](const Stmt* st, const Expr* x) { own_writes(st, x, f); });
}
template <class F>
void writes_in(const Block* b, const F& f) {
  walk_block(b, [&](const Stmt* st, const Expr* x) { own_writes(st, x, f); });
}
template <class F>
void writes_in(const Expr* e, const F& f) {
  walk_expr(e, [&](const Stmt* st, const Expr* x) { own_writes(st, x, f); });
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
