#include "rules/pass_guards.hpp"

#include <optional>
#include <utility>

#include "check/tir_walk.hpp"
#include "rules/call_accesses.hpp"

namespace vx::kr {

namespace {

std::optional<Guard::Cmp> comparison(tir::BinOp op) {
  static constexpr std::pair<tir::BinOp, Guard::Cmp> kCmps[] = {
      {tir::BinOp::Eq, Guard::Eq}, {tir::BinOp::Ne, Guard::Ne}, {tir::BinOp::Lt, Guard::Lt},
      {tir::BinOp::Le, Guard::Le}, {tir::BinOp::Gt, Guard::Gt}, {tir::BinOp::Ge, Guard::Ge}};
  for (const auto& [b, c] : kCmps)
    if (b == op) return c;
  return std::nullopt;
}

}  // namespace

bool guards_of(const tir::Expr* c, bool holds, const BuildIndex& build, std::vector<Guard>& out) {
  if (!c) return false;
  if (c->kind == tir::ExprKind::Unary && c->uop == tir::UnOp::Not && c->type.is_scalar() &&
      c->type.scalar == Scalar::Bool)
    return guards_of(c->args[0], !holds, build, out);
  if (c->kind != tir::ExprKind::Binary) return false;
  if ((c->bop == tir::BinOp::And && holds) || (c->bop == tir::BinOp::Or && !holds))
    return guards_of(c->args[0], holds, build, out) && guards_of(c->args[1], holds, build, out);
  if ((c->bop == tir::BinOp::Or && holds) || (c->bop == tir::BinOp::And && !holds)) {
    Guard either;  // the right side is read only where the left does not decide: both may say
    for (const tir::Expr* side : {c->args[0], c->args[1]})
      if (!guards_of(side, holds, build, either.any_of.emplace_back())) return false;
    out.push_back(std::move(either));
    return true;
  }
  auto cmp = comparison(c->bop);
  if (!cmp || !int_type(c->args[0]->type).bits || !int_type(c->args[1]->type).bits) return false;
  const IxNode* a = build(c->args[0]);
  const IxNode* b = build(c->args[1]);
  if (!a || !b) return false;
  out.push_back({*cmp, a, b, holds, {}});
  return true;
}

bool exits_in(const tir::Block* b, const tir::Stmt* except) {
  return tir::block_has(b, [&](const tir::Stmt* s, const tir::Expr*) {
    return s && s != except &&
           (s->kind == tir::StmtKind::Break || s->kind == tir::StmtKind::Continue ||
            s->kind == tir::StmtKind::Return);
  });
}

}  // namespace vx::kr
