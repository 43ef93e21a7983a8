#include "rules/kernel_tokens.hpp"

#include <string>

#include "check/tir_walk.hpp"
#include "rules/call_accesses.hpp"

namespace vx::kr {

void check_token(const TokenContext& c, const tir::Block* b, size_t k) {
  const tir::Function* fn_ = &c.fn;
  const tir::Stmt* let = b->stmts[k];
  if (let->slot < 0 || let->slot >= fn_->slot_count()) return;
  if (fn_->slot_types[let->slot].kind != TypeKind::Token) return;
  int tok = let->slot;
  auto is_token = [&](const tir::Stmt*, const tir::Expr* e) {
    return e && e->kind == tir::ExprKind::Var && e->slot == tok;
  };
  auto uses_token = [&](const tir::Expr* e) { return tir::expr_has(e, is_token); };
  auto stmt_uses = [&](const tir::Stmt* s) { return tir::stmt_has(s, is_token); };
  size_t end = b->stmts.size();
  for (size_t j = k + 1; j < b->stmts.size(); ++j)
    if (stmt_uses(b->stmts[j])) {
      end = j;
      break;
    }
  bool used = end < b->stmts.size() || (b->tail && uses_token(b->tail));
  if (!used) {
    auto& d =
        c.diags.error("E6036", let->span, "the token `" + let->var_name + "` is never waited for",
                      "a copy token with no `.wait()`");
    d.helps.push_back("call `" + let->var_name + ".wait();` before the tile is read");
    return;
  }
  // The tile stays borrowed until the statement that uses the token.
  const tir::Expr* copy = let->value;
  if (!copy || copy->kind != tir::ExprKind::Builtin ||
      tir::builtin_effect(copy->builtin) != tir::BuiltinEffect::CopiesTile || copy->args.size() < 2)
    return;
  int tile = c.root_slot(copy->args[0]);
  int src = c.root_slot(copy->args[1]);
  auto borrowed = place_indices(copy->args[0]);
  auto overlaps = [&](const tir::Expr* place) {
    auto idx = place_indices(place);
    for (size_t i = 0; i < borrowed.size() && i < idx.size(); ++i) {
      const auto x = c.constant(borrowed[i]);
      const auto y = c.constant(idx[i]);
      if (x && y && *x != *y) return false;
    }
    return true;
  };
  const Span ts = copy->args[0]->span;
  std::string tile_text = c.diags.file().text().substr(ts.begin, ts.end - ts.begin);
  if (!tile_text.empty() && tile_text.rfind("&mut ", 0) == 0) tile_text = tile_text.substr(5);
  // Each place once, in every statement up to the one that uses the token: in their bodies and
  // in the blocks of their expressions too. `targets`: the places assigned (a walk visits a
  // statement before its expressions).
  std::set<const tir::Expr*> targets;
  auto check_place = [&](const tir::Stmt* st, const tir::Expr* e) {
    if (st && st->kind == tir::StmtKind::Assign && st->target) targets.insert(st->target);
    if (!e) return;
    bool place =
        e->kind == tir::ExprKind::Index || (e->kind == tir::ExprKind::Ref && e != copy->args[0]);
    if (!place) return;
    int r = c.root_slot(e);
    bool conflict =
        (r == tile && tile >= 0 && overlaps(e)) || (targets.count(e) && r == src && src >= 0);
    if (!conflict || c.reported.count(e->span.begin)) return;
    c.reported.insert(e->span.begin);
    auto& d = c.diags.error("E0304", e->span,
                            r == tile ? "`" + tile_text +
                                            "` is used while a copy fills it: the "
                                            "token `" +
                                            let->var_name + "` holds its borrow until `" +
                                            let->var_name + ".wait()`"
                                      : "`" + fn_->slot_names[src] +
                                            "` is written while a copy "
                                            "reads it, before `" +
                                            let->var_name + ".wait()`",
                            "used before the `.wait()`");
    d.secondary.push_back({let->span, "the copy starts here"});
    d.helps.push_back("call `" + let->var_name + ".wait();` first");
  };
  for (size_t j = k + 1; j < end; ++j) tir::walk_stmt(b->stmts[j], check_place);
}

}  // namespace vx::kr
