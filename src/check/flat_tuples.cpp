// Flat tuples (check/flat_tuples.hpp): the hidden locals of a function, and the order in which a
// tuple's scalars are read.
#include "check/flat_tuples.hpp"

namespace vx::tir {

bool plain(const Expr* e) {
  if (e->kind == ExprKind::Field) return e->type.is_scalar() && !has_effect(e->args[0]);
  return e->kind == ExprKind::Literal || e->kind == ExprKind::Var;
}

const Expr* plain_local(const Expr* e) {
  if (e->kind == ExprKind::Field && plain(e))
    return plain_local(e->args[0]->args[static_cast<size_t>(e->field)]);
  return e->kind == ExprKind::Var ? e : nullptr;
}

bool has_effect(const Expr* e) {
  if (!e->type.is_tuple()) return !plain(e);
  if (!e->block->stmts.empty()) return true;
  for (const Expr* a : e->args)
    if (!plain(a)) return true;
  return false;
}

bool is_flat(const Expr* e) {
  return e->type.is_tuple() && e->kind == ExprKind::BlockExpr && e->block && !e->block->tail &&
         static_cast<int>(e->args.size()) == e->type.leaf_count();
}

Expr* FlatBuilder::make(ExprKind kind, const Type& type, Span span) {
  Expr* e = prog_.new_expr();
  e->kind = kind;
  e->type = type;
  e->span = span;
  return e;
}

Expr* FlatBuilder::new_flat(const Type& t, Span s) {
  Expr* e = make(ExprKind::BlockExpr, t, s);
  e->block = prog_.new_block();
  e->block->span = s;
  return e;
}

int FlatBuilder::hidden_slot(const Type& t, const std::string& name, Span decl, bool is_mut) {
  const int slot = fn_->slot_count();
  fn_->slot_types.push_back(t);
  fn_->slot_names.push_back(name);
  fn_->slot_decls.push_back(decl);
  fn_->slot_mut.push_back(is_mut);
  return slot;
}

Stmt* FlatBuilder::let_slot(int slot, Expr* value, Span s) {
  Stmt* st = prog_.new_stmt();
  st->kind = StmtKind::Let;
  st->span = s;
  st->slot = slot;
  st->value = value;
  st->var_name = fn_->slot_names[static_cast<size_t>(slot)];
  return st;
}

Expr* FlatBuilder::read_slot(int slot, Span s) {
  Expr* e = make(ExprKind::Var, fn_->slot_types[static_cast<size_t>(slot)], s);
  e->slot = slot;
  e->text = fn_->slot_names[static_cast<size_t>(slot)];
  return e;
}

const Type& FlatBuilder::slot_type(int slot) const {
  return fn_->slot_types[static_cast<size_t>(slot)];
}

Expr* FlatBuilder::zero_of(const Type& t, Span s) {
  if (t.kind == TypeKind::Tensor) return nullptr;
  if (!t.is_array()) return make(ExprKind::Literal, t, s);
  // An array field of a struct: `[0; N]`, an array of arrays `[[0; M]; N]`.
  Expr* e = make(ExprKind::ArrayLit, t, s);
  Type inner = t;
  inner.dims.erase(inner.dims.begin());
  if (inner.dims.empty()) inner = Type::of(t.scalar);
  e->args = {zero_of(inner, s)};
  return e;
}

void FlatBuilder::take_apart_call(Expr* call, std::vector<Stmt*>& pre, std::vector<Stmt*>& post) {
  std::vector<Expr*> parts = call->args;
  call->args = sequence(parts, pre);
  if (call->type.is_tuple()) {  // it writes its value into the caller's locals when it returns
    call->type = Type::unit();
    call->out_slots = std::move(call->into_slots);
    call->into_slots.clear();
    call->declares = false;
  }
  const size_t first_back = call->out_slots.size();
  for (int leaf : call->back_slots)
    call->out_slots.push_back(hidden_slot(slot_type(leaf), kTupleTemp, call->span));
  for (int slot : call->out_slots)
    pre.push_back(let_slot(slot, zero_of(slot_type(slot), call->span), call->span));
  for (size_t k = 0; k < call->back_slots.size(); ++k)
    post.push_back(assign_slot(call->back_slots[k],
                               read_slot(call->out_slots[first_back + k], call->span), call->span));
  call->back_slots.clear();
}

Stmt* FlatBuilder::assign_slot(int slot, Expr* value, Span s) {
  return assign(read_slot(slot, s), value, s);
}

Stmt* FlatBuilder::assign(Expr* target, Expr* value, Span s) {
  Stmt* st = prog_.new_stmt();
  st->kind = StmtKind::Assign;
  st->span = s;
  st->target = target;
  st->value = value;
  return st;
}

Expr* FlatBuilder::field(Expr* base, int k, const Type& t, Span s) {
  Expr* e = make(ExprKind::Field, t, s);
  e->args = {base};
  e->field = k;
  return e;
}

Stmt* FlatBuilder::statement(Expr* e) {
  Stmt* st = prog_.new_stmt();
  st->kind = StmtKind::Expr;
  st->span = e->span;
  st->value = e;
  return st;
}

Expr* FlatBuilder::into_local(Expr* e, std::vector<Stmt*>& out) {
  const int slot = hidden_slot(e->type, kTupleTemp, e->span);
  out.push_back(let_slot(slot, e, e->span));
  return read_slot(slot, e->span);
}

void FlatBuilder::set_tail(Block* blk, Expr* e) {
  if (e->type.is_unit() && e->kind != ExprKind::Unit)
    blk->stmts.push_back(statement(e));  // `if c { … }` without else, a call returning ()
  else
    blk->tail = e;
}

void FlatBuilder::materialize(Expr* flat, bool all) {
  int last = all ? static_cast<int>(flat->args.size()) - 1 : -1;
  for (int k = 0; k < static_cast<int>(flat->args.size()) && !all; ++k)
    if (!plain(flat->args[static_cast<size_t>(k)])) last = k;
  for (int k = 0; k <= last; ++k) {
    Expr*& leaf = flat->args[static_cast<size_t>(k)];
    if (leaf->kind != ExprKind::Literal) leaf = into_local(leaf, flat->block->stmts);
  }
}

std::vector<Expr*> FlatBuilder::sequence(std::vector<Expr*>& parts, std::vector<Stmt*>& pre) {
  std::vector<Expr*> leaves;
  for (size_t i = 0; i < parts.size(); ++i) {
    bool later = false;
    for (size_t j = i + 1; j < parts.size(); ++j) later = later || has_effect(parts[j]);
    Expr* p = parts[i];
    if (p->type.is_tuple()) {
      materialize(p, later);
      pre.insert(pre.end(), p->block->stmts.begin(), p->block->stmts.end());
      p->block->stmts.clear();
      leaves.insert(leaves.end(), p->args.begin(), p->args.end());
      continue;
    }
    if (later && p->kind != ExprKind::Literal && !p->type.is_tensor_like() && p->type.is_scalar())
      p = into_local(p, pre);
    leaves.push_back(p);
  }
  return leaves;
}

std::vector<Stmt*> FlatBuilder::select(Expr* flat, size_t first, size_t count) {
  bool other_effects = false;
  for (size_t k = 0; k < flat->args.size(); ++k)
    other_effects = other_effects || ((k < first || k >= first + count) && !plain(flat->args[k]));
  if (other_effects) materialize(flat, true);
  std::vector<Stmt*> pre = flat->block->stmts;
  drop_leaves(flat->args, 0, first, pre);
  drop_leaves(flat->args, first + count, flat->args.size(), pre);
  return pre;
}

void FlatBuilder::drop_leaves(const std::vector<Expr*>& leaves, size_t from, size_t to,
                              std::vector<Stmt*>& out) {
  for (size_t k = from; k < to && k < leaves.size(); ++k)
    if (!plain(leaves[k])) out.push_back(statement(leaves[k]));
}

void FlatBuilder::assign_flat(Expr* flat, const std::vector<int>& slots, std::vector<Stmt*>& out,
                              bool declares, Span decl) {
  out.insert(out.end(), flat->block->stmts.begin(), flat->block->stmts.end());
  for (size_t k = 0; k < slots.size() && k < flat->args.size(); ++k) {
    if (slots[k] < 0)
      drop_leaves(flat->args, k, k + 1, out);
    else
      out.push_back(declares ? let_slot(slots[k], flat->args[k], decl)
                             : assign_slot(slots[k], flat->args[k], flat->args[k]->span));
  }
}

Expr* FlatBuilder::with_prelude(std::vector<Stmt*> pre, Expr* value) {
  if (pre.empty()) return value;
  Expr* e = make(ExprKind::BlockExpr, value->type, value->span);
  e->block = prog_.new_block();
  e->block->span = value->span;
  e->block->stmts = std::move(pre);
  set_tail(e->block, value);
  return e;
}

Expr* FlatBuilder::compare_leaves(BinOp op, const std::vector<Expr*>& leaves, Span s) {
  const size_t n = leaves.size() / 2;
  // `==` is every element's `==`, `!=` any element's `!=`.
  Expr* result = nullptr;
  for (size_t k = 0; k < n; ++k) {
    Expr* c = make(ExprKind::Binary, Type::of(Scalar::Bool), s);
    c->bop = op;
    c->args = {leaves[k], leaves[n + k]};
    if (!result) {
      result = c;
      continue;
    }
    Expr* j = make(ExprKind::Binary, Type::of(Scalar::Bool), s);
    j->bop = op == BinOp::Eq ? BinOp::And : BinOp::Or;
    j->args = {result, c};
    result = j;
  }
  return result;
}

}  // namespace vx::tir
