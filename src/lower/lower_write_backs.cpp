// The write-backs of `&mut` struct parameters (lower/lower_write_backs.hpp).
#include "lower/lower_write_backs.hpp"

#include <algorithm>
#include <vector>

#include "check/lints.hpp"

namespace vx::lower {

namespace {

// Each field's local into its return slot, the last write_back_from.size() of ret_slots.
void write_back(tir::FlatBuilder& build, const tir::Function& fn, Span s,
                std::vector<tir::Stmt*>& out) {
  const size_t first = fn.ret_slots.size() - fn.write_back_from.size();
  for (size_t k = 0; k < fn.write_back_from.size(); ++k)
    out.push_back(
        build.assign_slot(fn.ret_slots[first + k], build.read_slot(fn.write_back_from[k], s), s));
}

}  // namespace

void write_back_on_return(tir::FlatBuilder& build, const tir::Function& fn, tir::Block* b) {
  const auto is_return = [](const tir::Stmt* s) { return s->kind == tir::StmtKind::Return; };
  if (fn.write_back_from.empty() || std::none_of(b->stmts.begin(), b->stmts.end(), is_return))
    return;
  std::vector<tir::Stmt*> out;
  for (tir::Stmt* s : b->stmts) {
    if (is_return(s)) {
      if (s->value && !s->value->type.is_unit()) s->value = build.into_local(s->value, out);
      write_back(build, fn, s->span, out);
    }
    out.push_back(s);
  }
  b->stmts = std::move(out);
}

void write_back_at_end(tir::FlatBuilder& build, tir::Function& fn) {
  tir::Block* body = fn.body;
  if (fn.write_back_from.empty()) return;
  if (body->tail) {
    const Span at = body->tail->span;
    body->tail = build.into_local(body->tail, body->stmts);
    write_back(build, fn, at, body->stmts);
    return;
  }
  if (!never_ends(body, false))
    write_back(build, fn, Span{body->span.end, body->span.end}, body->stmts);
}

}  // namespace vx::lower
