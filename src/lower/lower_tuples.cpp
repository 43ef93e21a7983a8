// Tuples (lower/lower_tuples.hpp): the comparisons, prints, asserts, fields and call arguments of
// tuple values, and the tuple values stored into locals (a `let`'s, a destructuring `let`'s, a
// `match`'s scrutinee's, an assignment's, a `return`'s, an `if`'s, a `break`'s). Every scalar is
// read once, in the order spec/semantics.md §2 gives, as the checker's own consumers of a tuple
// read them (check/check_tuple.cpp).
#include "lower/lower_tuples.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "support/internal_error.hpp"

namespace vx::lower {

namespace {

using tir::Expr;
using tir::ExprKind;
using tir::FormatPiece;
using tir::Stmt;

// The pieces that print a tuple of type `t` whose scalars are arguments from `next` on, as Rust's
// `{:?}` (`(1, 2.5)`, `(7,)`) or `{:#?}` (one element a line, indented by four spaces) does.
void tuple_pieces(const Type& t, const fmt::Spec& spec, int& next, int indent, std::string& text,
                  std::vector<FormatPiece>& out) {
  const bool pretty = spec.alternate;
  // A struct as `#[derive(Debug)]` prints it: `P { x: 1.0, n: 2 }`, or `P {` and a field a line.
  text += t.is_struct() ? t.name + (pretty ? " {" : " { ") : "(";
  for (size_t i = 0; i < t.elems.size(); ++i) {
    if (pretty)
      text += "\n" + std::string(static_cast<size_t>(indent + 4), ' ');
    else if (i > 0)
      text += ", ";
    if (t.is_struct()) text += t.fields[i] + ": ";
    if (t.elems[i].is_tuple()) {
      tuple_pieces(t.elems[i], spec, next, indent + 4, text, out);
    } else {
      FormatPiece p;
      p.literal = std::move(text);
      text.clear();
      p.arg = next++;
      p.spec = spec;
      p.spec.alternate = false;  // `{:#?}` of a scalar is its `{:?}`
      out.push_back(std::move(p));
    }
    if (pretty) text += ",";
  }
  if (pretty)
    text += "\n" + std::string(static_cast<size_t>(indent), ' ');
  else if (t.elems.size() == 1 && !t.is_struct())
    text += ",";
  text += t.is_struct() ? (pretty ? "}" : " }") : ")";
}

// The format arguments of `e` from `first` on (a print's, an assert's message) with each tuple
// replaced by its scalars, and the pieces that print them; returns what must run first.
std::vector<Stmt*> expand_tuple_args(tir::FlatBuilder& build, Expr* e, size_t first) {
  bool any = false;
  for (size_t k = first; k < e->args.size(); ++k) any = any || e->args[k]->type.is_tuple();
  if (!any) return {};
  std::vector<Expr*> parts(e->args.begin() + static_cast<long>(first), e->args.end());
  // Where each argument's scalars start among the new arguments.
  std::vector<int> start;
  int n = static_cast<int>(first);
  for (const Expr* a : parts) {
    start.push_back(n);
    n += a->type.is_tuple() ? static_cast<int>(a->args.size()) : 1;
  }
  std::vector<Type> types;
  for (const Expr* a : parts) types.push_back(a->type);
  std::vector<Stmt*> pre;
  std::vector<Expr*> leaves = build.sequence(parts, pre);
  e->args.resize(first);
  e->args.insert(e->args.end(), leaves.begin(), leaves.end());
  std::vector<FormatPiece> pieces;
  std::string text;  // printed before the next piece
  for (FormatPiece& p : e->format) {
    text += p.literal;
    if (p.arg < 0) continue;
    const size_t k = static_cast<size_t>(p.arg) - first;
    if (!types[k].is_tuple()) {
      p.literal = std::move(text);
      text.clear();
      p.arg = start[k];
      pieces.push_back(std::move(p));
      continue;
    }
    int next = start[k];
    tuple_pieces(types[k], p.spec, next, 0, text, pieces);
  }
  if (!text.empty()) {
    FormatPiece p;
    p.literal = std::move(text);
    pieces.push_back(std::move(p));
  }
  e->format = std::move(pieces);
  return pre;
}

// assert_eq!(a, b[, message…]) of two tuples, its message's tuples expanded already: the
// `assert!(a == b, "assertion `left == right` failed[: message]\n  left: {:?}\n right: {:?}")`
// that rustc's assert_eq! prints; every scalar read once, before the comparison.
void assert_eq_tuples(tir::FlatBuilder& build, Expr* e, std::vector<Stmt*>& pre) {
  Expr* a = e->args[0];
  Expr* b = e->args[1];
  const std::vector<Expr*> message(e->args.begin() + 2, e->args.end());
  build.materialize(a, true);
  build.materialize(b, true);
  std::vector<Expr*> parts = {a, b};
  std::vector<Expr*> leaves = build.sequence(parts, pre);
  Expr* cond = build.compare_leaves(tir::BinOp::Eq, leaves, e->span);
  const int first = 1 + static_cast<int>(message.size());  // after the condition and the message's
  std::vector<FormatPiece> pieces;
  std::string text = "assertion `left == right` failed";
  if (!e->format.empty()) text += ": ";
  for (FormatPiece& p : e->format) {
    p.literal = text + p.literal;
    text.clear();
    if (p.arg >= 0) --p.arg;  // past the condition, where a and b were
    if (p.arg >= 0 || !p.literal.empty()) pieces.push_back(std::move(p));
  }
  fmt::Spec debug;
  debug.kind = '?';
  int next = first;
  text += "\n  left: ";
  tuple_pieces(a->type, debug, next, 0, text, pieces);
  text += "\n right: ";
  tuple_pieces(b->type, debug, next, 0, text, pieces);
  FormatPiece last;
  last.literal = std::move(text);
  pieces.push_back(std::move(last));
  e->is_assert_eq = false;
  e->format = std::move(pieces);
  e->args = {cond};
  e->args.insert(e->args.end(), message.begin(), message.end());
  e->args.insert(e->args.end(), leaves.begin(), leaves.end());
}

// `e` made `value` after `pre`, in place (a BlockExpr when `pre` is not empty).
void after_prelude(tir::FlatBuilder& build, Expr* e, std::vector<Stmt*> pre, Expr* value) {
  if (value == e && pre.empty()) return;
  if (value == e) {
    value = build.make(e->kind, e->type, e->span);
    *value = *e;
  }
  *e = *build.with_prelude(std::move(pre), value);
}

void route(tir::FlatBuilder& build, Expr* v, const std::vector<int>& slots,
           std::vector<Stmt*>& out);

// `f().1`: the other scalars still run for their effects, in order, before the field is read.
void lower_field(tir::FlatBuilder& build, Expr* e) {
  Expr* base = e->args[0];
  const size_t k = static_cast<size_t>(e->field);
  after_prelude(build, e, build.select(base, k, 1), base->args[k]);
}

// A call whose value is no tuple (a call of a tuple value is a statement, `spread`): each tuple
// argument's scalars become arguments, read in order (spec/semantics.md §2), and the fields of a
// `&mut` struct argument come back after it, then its value is read.
void lower_call(tir::FlatBuilder& build, Expr* e) {
  const auto tuple = [](const Expr* a) { return a->type.is_tuple(); };
  if (e->back_slots.empty()) {
    if (std::none_of(e->args.begin(), e->args.end(), tuple)) return;
    std::vector<Expr*> parts = e->args;
    std::vector<Stmt*> pre;
    e->args = build.sequence(parts, pre);
    return after_prelude(build, e, std::move(pre), e);
  }
  Expr* call = build.make(e->kind, e->type, e->span);
  *call = *e;
  std::vector<Stmt*> pre, post;
  build.take_apart_call(call, pre, post);
  const Span at = call->span;
  if (call->type.is_unit()) {
    pre.push_back(build.statement(call));
  } else {  // kept in a local while the fields are copied back
    Expr* result = build.into_local(call, pre);
    pre.insert(pre.end(), post.begin(), post.end());
    *e = *build.with_prelude(std::move(pre), result);
    return;
  }
  pre.insert(pre.end(), post.begin(), post.end());
  *e = *build.new_flat(Type::unit(), at);  // a block of type (): the call and the copies back
  e->block->stmts = std::move(pre);
}

// Each branch's value of the `if`, `match` or block `e` into `slots`; `e` of type `()`.
void route_branches(tir::FlatBuilder& build, Expr* e, const std::vector<int>& slots) {
  for (tir::Block* b : tir::branches(e)) {
    if (!b->tail) continue;
    Expr* tail = b->tail;
    b->tail = nullptr;
    if (tail->type.is_tuple())
      route(build, tail, slots, b->stmts);
    else
      build.set_tail(b, tail);
  }
  e->type = Type::unit();
  if (e->match) e->match->routed = true;
}

// The value `v` of a branch (a flat tuple, or an `if`, `match` or block of one) into `slots`.
void route(tir::FlatBuilder& build, Expr* v, const std::vector<int>& slots,
           std::vector<Stmt*>& out) {
  if (tir::is_flat(v)) return build.assign_flat(v, slots, out);
  route_branches(build, v, slots);
  out.push_back(build.statement(v));
}

// The tuple value that the statement `s` puts into locals (Expr::into_slots), or null.
const Expr* into_locals(const Stmt* s) {
  const bool stores = s->kind == tir::StmtKind::Expr && s->value && !s->value->into_slots.empty();
  return stores ? s->value : nullptr;
}

bool stores_flat(const Stmt* s) {
  const Expr* v = into_locals(s);
  return v && tir::is_flat(v);
}

// A call, or a field of a tuple value that is a tuple, that declares the locals of its value.
bool declares_value(const Stmt* s) {
  const Expr* v = into_locals(s);
  return v && (v->kind == ExprKind::Call || v->kind == ExprKind::Field);
}

// An `if`, `match` or block whose tuple value declares hidden locals (Checker::as_flat).
bool declares_branches(const Stmt* s) {
  const Expr* v = into_locals(s);
  return v && v->declares && !tir::is_flat(v) && !declares_value(s);
}

bool stores(const Stmt* s) { return stores_flat(s) || declares_value(s) || declares_branches(s); }

// `t = …`, `t.1 = …`: the flat tuple `v` into the locals of the place `v->text` names, at `at`.
// Every scalar is read before any is written (`t = (t.1, t.0);` swaps).
void assign_place(tir::FlatBuilder& build, Expr* v, const std::vector<int>& slots, Span at,
                  std::vector<Stmt*>& out) {
  build.materialize(v, true);
  out.insert(out.end(), v->block->stmts.begin(), v->block->stmts.end());
  for (size_t k = 0; k < slots.size() && k < v->args.size(); ++k) {
    out.push_back(build.assign_slot(slots[k], v->args[k], at));
    out.back()->target->text = v->text;  // what a diagnostic names: the place, not its scalar
  }
}

// `s`, or what it stores when it stores a flat tuple or declares the locals of a call's or a
// field's tuple value (a prelude may store one again).
void spread(tir::FlatBuilder& build, Stmt* s, std::vector<Stmt*>& out) {
  if (!stores(s)) return out.push_back(s);
  Expr* v = s->value;
  std::vector<Stmt*> pieces;
  if (declares_value(s) && v->kind == ExprKind::Field) {
    // `f().1` of a tuple: what the value runs first and its other scalars with effects, then
    // a `let` of each of the field's scalars.
    Expr* base = v->args[0];
    const size_t first = static_cast<size_t>(v->field);
    pieces = build.select(base, first, v->into_slots.size());
    for (size_t k = 0; k < v->into_slots.size(); ++k)
      pieces.push_back(build.let_slot(v->into_slots[k], base->args[first + k], v->span));
    for (Stmt* p : pieces) spread(build, p, out);
    return;
  }
  if (declares_branches(s)) {
    // Each local declared first, with its type's zero; then each branch assigns it its value
    // (route_tuple_value, when the statement is lowered).
    for (int slot : v->into_slots)
      out.push_back(build.let_slot(slot, build.zero_of(build.slot_type(slot), v->span), v->span));
    v->declares = false;
    return out.push_back(s);
  }
  if (declares_value(s)) {
    std::vector<Stmt*> post;
    build.take_apart_call(v, pieces, post);
    pieces.push_back(s);
    pieces.insert(pieces.end(), post.begin(), post.end());
    for (Stmt* p : pieces) spread(build, p, out);
    return;
  }
  const std::vector<int> slots = std::move(v->into_slots);
  v->into_slots.clear();
  if (v->declares || v->text.empty())  // a `let`'s, or into hidden locals
    build.assign_flat(v, slots, pieces, v->declares, s->span);
  else
    assign_place(build, v, slots, s->span, pieces);
  for (Stmt* p : pieces) spread(build, p, out);
}

}  // namespace

void spread_tuple_stores(tir::FlatBuilder& build, tir::Block* b) {
  if (std::none_of(b->stmts.begin(), b->stmts.end(), stores)) return;
  std::vector<Stmt*> out;
  for (Stmt* s : b->stmts) spread(build, s, out);
  b->stmts = std::move(out);
}

void route_tuple_value(tir::FlatBuilder& build, Expr* e) {
  // spread_tuple_stores takes each of these out of its block first
  if (tir::is_flat(e) || e->kind == ExprKind::Call || e->kind == ExprKind::Field)
    internal_error("a tuple value is stored into locals outside a block's statements");
  const std::vector<int> slots = std::move(e->into_slots);
  e->into_slots.clear();
  route_branches(build, e, slots);  // `e` is a statement already
}

void lower_tuple_use(tir::FlatBuilder& build, Expr* e) {
  if (e->kind == ExprKind::Field) return lower_field(build, e);
  if (e->kind == ExprKind::Call) return lower_call(build, e);
  const bool compare =
      e->kind == ExprKind::Binary && (e->bop == tir::BinOp::Eq || e->bop == tir::BinOp::Ne);
  if (compare && e->args[0]->type.is_tuple()) {
    std::vector<Expr*> parts = e->args;
    std::vector<Stmt*> pre;
    std::vector<Expr*> leaves = build.sequence(parts, pre);
    after_prelude(build, e, std::move(pre), build.compare_leaves(e->bop, leaves, e->span));
  }
  if (e->kind != ExprKind::Print && e->kind != ExprKind::Assert) return;
  const size_t first = e->kind == ExprKind::Print ? 0 : e->is_assert_eq ? 2 : 1;
  std::vector<Stmt*> pre = expand_tuple_args(build, e, first);
  if (e->is_assert_eq && e->args[0]->type.is_tuple()) assert_eq_tuples(build, e, pre);
  after_prelude(build, e, std::move(pre), e);
}

}  // namespace vx::lower
