#include "offload/marks.hpp"

#include <functional>
#include <vector>

#include "check/tir_walk.hpp"

namespace vx::offload {

using tir::ExprKind;

void mark_checkpoints(const tir::Program& program, tir::Marks& marks) {
  std::function<void(const tir::Block*)> blk;
  std::function<void(const tir::Expr*)> ex = [&](const tir::Expr* e) {
    if (!e) return;
    for (auto* a : e->args) ex(a);
    blk(e->block);
    blk(e->else_block);
  };
  blk = [&](const tir::Block* b) {
    if (!b) return;
    for (size_t i = 0; i < b->stmts.size(); ++i) {
      const tir::Stmt* s = b->stmts[i];
      ex(s->target);
      ex(s->value);
      if (s->kind == tir::StmtKind::Spawn) {
        marks.add(b, i + 1, {tir::MarkKind::Checkpoint, s->span});
        continue;
      }
      blk(s->body);
    }
    ex(b->tail);
  };
  for (const auto& f : program.functions) blk(f.body);
}

void mark_sync_points(const tir::Program& program, OffloadMarks& out) {
  // Functions that run a region, directly or through calls (a fixed point over the call graph).
  std::vector<bool> regions(program.functions.size(), false);
  auto runs_region = [&](const tir::Stmt* st, const tir::Expr* e) {
    return st ? st->kind == tir::StmtKind::Spawn
              : e->kind == ExprKind::Call && regions[static_cast<size_t>(e->fn_index)];
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t f = 0; f < program.functions.size(); ++f) {
      if (regions[f]) continue;
      if (tir::block_has(program.functions[f].body, runs_region)) regions[f] = changed = true;
    }
  }
  auto tensors = [](const tir::Stmt*, const tir::Expr* e) {
    return e && (e->type.is_tensor_like() || e->kind == ExprKind::TensorNew ||
                 e->kind == ExprKind::Transfer);
  };
  // Host work on tensor data in an expression (a reference passed to a call is not: the callee's
  // own statements have their marks; a length is not: shapes never change on the device).
  auto reads = [](const tir::Stmt*, const tir::Expr* e) {
    if (!e) return false;
    if (e->kind == ExprKind::Index || e->kind == ExprKind::TensorNew ||
        e->kind == ExprKind::Transfer)
      return true;
    if (e->kind != ExprKind::Builtin && e->kind != ExprKind::Print && e->kind != ExprKind::Assert)
      return false;
    if (e->kind == ExprKind::Builtin &&
        tir::builtin_effect(e->builtin) == tir::BuiltinEffect::Shape)  // reads no element
      return false;
    for (const tir::Expr* a : e->args)
      if (a->type.is_tensor_like()) return true;
    return false;
  };
  auto has_block = [](const tir::Stmt*, const tir::Expr* e) {
    return e && (e->block || e->else_block);
  };
  std::function<void(const tir::Block*)> blk = [&](const tir::Block* b) {
    if (!b) return;
    for (size_t i = 0; i < b->stmts.size(); ++i) {
      const tir::Stmt* s = b->stmts[i];
      // A region: the runner syncs what it captures.
      if (s->kind == tir::StmtKind::Spawn) continue;
      if (!tir::stmt_has(s, runs_region)) {
        if (!tir::stmt_has(s, tensors)) continue;
        out.marks.add(b, i, {tir::MarkKind::Sync, s->span});
        ++out.syncs;
        continue;
      }
      // A statement that runs regions: its own expressions (a loop's range, a condition) read
      // host data between launches where no mark can stand; such programs sync after every launch.
      for (const tir::Expr* e : s->exprs())
        if (tir::expr_has(e, reads)) out.eager = true;
      if (s->kind == tir::StmtKind::Let || s->kind == tir::StmtKind::Assign ||
          s->kind == tir::StmtKind::Expr || s->kind == tir::StmtKind::Return)
        out.eager = out.eager || tir::expr_has(s->value, has_block);
      blk(s->body);
    }
    if (b->tail && tir::expr_has(b->tail, reads)) {
      if (tir::expr_has(b->tail, runs_region) || tir::expr_has(b->tail, has_block)) {
        out.eager = true;
      } else {
        out.marks.add(b, b->stmts.size(), {tir::MarkKind::Sync, b->tail->span});
        ++out.syncs;
      }
    }
  };
  // Functions called inside regions (directly or through calls) get no marks: a mark must not
  // run in the middle of a region. Host code calls them with tensor arguments, so the calling
  // statement mentions a tensor and has its own mark.
  std::vector<bool> in_region(program.functions.size(), false);
  std::function<void(const tir::Block*)> from_region = [&](const tir::Block* b) {
    tir::walk_block(b, [&](const tir::Stmt*, const tir::Expr* e) {
      if (e && e->kind == ExprKind::Call && !in_region[static_cast<size_t>(e->fn_index)]) {
        in_region[static_cast<size_t>(e->fn_index)] = true;
        from_region(program.functions[static_cast<size_t>(e->fn_index)].body);
      }
    });
  };
  for (const auto& f : program.functions)
    tir::walk_block(f.body, [&](const tir::Stmt* st, const tir::Expr*) {
      if (st && st->kind == tir::StmtKind::Spawn) from_region(st->body);
    });
  for (size_t f = 0; f < program.functions.size(); ++f)
    if (!in_region[f]) blk(program.functions[f].body);
}

OffloadMarks offload_marks(const tir::Program& program) {
  OffloadMarks out;
  mark_checkpoints(program, out.marks);
  mark_sync_points(program, out);
  return out;
}

}  // namespace vx::offload
