// Tuples (spec/types.md §8). The checker gives every scalar of a tuple a local of its own and
// takes tuple values apart where they are used, so that every back end (the interpreter, the
// kernel rules, the CUDA emitter) runs tuples unchanged: a tuple local is its scalars' locals, a
// function that returns a tuple leaves its scalars in locals of its own (tir::Function::ret_slots)
// that the call copies into the caller's (tir::Expr::out_slots, made by the lowering). The typed
// program keeps `==` and `!=` of two tuples, tuples printed, assert_eq! of two tuples, a scalar
// field of a value and a tuple field of a value with effects (tir::ExprKind::Field; a tuple
// field of scalars of a value without effects is a flat tuple of such fields), a call's tuple
// arguments, the fields of its `&mut` structs that come back (tir::Expr::back_slots), and a tuple
// value that goes into locals (a call's, a `let`'s, a destructuring `let`'s, an assignment's, a
// `return`'s, an `if`'s, a `break`'s) is a statement naming them (tir::Expr::into_slots); the
// lowering takes those apart (lower/lower_tuples.cpp). Both build with check/flat_tuples.hpp.
#include <algorithm>
#include <boost/variant/get.hpp>
#include <charconv>
#include <functional>

#include "check/checker_impl.hpp"
#include "check/tir_walk.hpp"

namespace vx::check {

namespace {

bool tuple_element_ok(const Type& t) {
  return t.is_scalar() || (t.is_tuple() && !t.struct_ref && !holds_tensor(t)) || t.is_error();
}

}  // namespace

tir::FlatBuilder Checker::flat() { return tir::FlatBuilder(prog_, fn_); }

tir::Expr* Checker::new_flat(const Type& t, Span s) { return flat().new_flat(t, s); }

int Checker::hidden_slot(const Type& t, const std::string& name, Span decl, bool is_mut) {
  return flat().hidden_slot(t, name, decl, is_mut);
}

std::vector<int> Checker::leaf_slots(const Type& t, const std::string& name, Span decl,
                                     bool is_mut) {
  if (!t.is_tuple()) return {hidden_slot(t, name, decl, is_mut)};
  std::vector<int> out;
  for (size_t i = 0; i < t.elems.size(); ++i) {
    const std::string field = t.is_struct() ? t.fields[i] : std::to_string(i);
    std::vector<int> sub = leaf_slots(t.elems[i], name + "." + field, decl, is_mut);
    out.insert(out.end(), sub.begin(), sub.end());
  }
  return out;
}

tir::Stmt* Checker::let_slot(int slot, tir::Expr* value, Span s) {
  return flat().let_slot(slot, value, s);
}

tir::Expr* Checker::read_slot(int slot, Span s) { return flat().read_slot(slot, s); }

tir::Stmt* Checker::assign_slot(int slot, tir::Expr* value, Span s) {
  return flat().assign_slot(slot, value, s);
}

void Checker::materialize(tir::Expr* e, bool all) { flat().materialize(e, all); }

std::vector<tir::Expr*> Checker::sequence(std::vector<tir::Expr*>& parts,
                                          std::vector<tir::Stmt*>& pre) {
  return flat().sequence(parts, pre);
}

void Checker::drop_leaves(const std::vector<tir::Expr*>& leaves, size_t from, size_t to,
                          std::vector<tir::Stmt*>& out) {
  flat().drop_leaves(leaves, from, to, out);
}

tir::Expr* Checker::with_prelude(std::vector<tir::Stmt*> pre, tir::Expr* value) {
  return flat().with_prelude(std::move(pre), value);
}

void Checker::route_into(tir::Expr* e, const std::vector<int>& slots,
                         std::vector<tir::Stmt*>& out) {
  // The lowering assigns the scalars (lower/lower_tuples.cpp): a flat tuple's after its prelude,
  // each branch's value of an `if`, a `match` or a block.
  e->into_slots = slots;
  out.push_back(flat().statement(e));
}

tir::Expr* Checker::zero_of(const Type& t, Span s) { return flat().zero_of(t, s); }

tir::Expr* Checker::as_flat(tir::Expr* e) {
  if (!e->type.is_tuple() || is_flat(e)) return e;
  if (e->type.struct_ref) {  // it would be a copy, not the struct (check_struct_ref.cpp)
    auto& d = error("E0202", e->span,
                    "a reference to a struct cannot be the value of an `if`, a `match` or a block",
                    "`" + type_name(e->type) + "` chosen here");
    d.helps.push_back("borrow in each branch where it is used, or copy the struct: `*r`");
    return error_expr(e->span);
  }
  if (holds_tensor(e->type)) move_branch_values(e);  // check_struct_tensor.cpp
  // As a call's value: the lowering declares the locals and routes each branch's value into them
  // (lower/lower_tuples.cpp).
  return declared_value(e);
}

Type Checker::resolve_tuple(const ast::TupleType& t) {
  if (t.elems.size() == 1 && !t.trailing_comma) return resolve_type(t.elems[0]);  // `(T)`
  Type r = Type::kind_only(TypeKind::Tuple);
  for (const ast::Type& e : t.elems) {
    Type et = resolve_type(e);
    if (et.is_error()) return et;
    if (!tuple_element_ok(et)) {
      auto& d =
          error("E0104", span(e), "a tuple holds scalars and tuples, not `" + type_name(et) + "`",
                "cannot be an element of a tuple");
      d.notes.push_back("spec/types.md §8: tuples of tensors, references and `&str` are not in Vx");
      return Type::error();
    }
    r.elems.push_back(et);
  }
  return r;
}

tir::Expr* Checker::check_tuple_lit(const ast::Paren& p, const Type* expected, Span s) {
  std::vector<const ast::Expr*> elems = {&p.inner.get()};
  for (const ast::Expr& e : p.rest) elems.push_back(&e);
  const bool typed = expected && expected->is_tuple() && expected->elems.size() == elems.size();
  Type t = Type::kind_only(TypeKind::Tuple);
  std::vector<tir::Expr*> parts;
  bool bad = false;
  for (size_t i = 0; i < elems.size(); ++i) {
    tir::Expr* v = check_expr(*elems[i], typed ? &expected->elems[i] : nullptr);
    if (v->type.is_error()) {
      bad = true;
      continue;
    }
    if (!tuple_element_ok(v->type)) {
      auto& d = error("E0104", span(*elems[i]),
                      "a tuple holds scalars and tuples, not `" + type_name(v->type) + "`",
                      "cannot be an element of a tuple");
      d.notes.push_back("spec/types.md §8: tuples of tensors, references and `&str` are not in Vx");
      bad = true;
      continue;
    }
    t.elems.push_back(v->type);
    parts.push_back(v);
  }
  if (bad) return error_expr(s);
  tir::Expr* flat = new_flat(t, s);
  flat->args = sequence(parts, flat->block->stmts);
  return flat;
}

tir::Expr* Checker::tuple_var(const Local& l, Span s) {
  tir::Expr* flat = new_flat(l.type, s);
  for (int slot : l.leaves) {
    tir::Expr* r = read_slot(slot, s);
    flat->args.push_back(r);
  }
  return flat;
}

bool Checker::tuple_index(const Type& base, const ast::FieldSuffix& f, Span s, Type& elem,
                          int& first, bool reads) {
  if (base.is_error()) return false;
  if (base.is_struct()) {  // check_struct.cpp
    const int k = struct_field(base, f, s, reads);
    if (k < 0) return false;
    first = 0;
    for (int i = 0; i < k; ++i) first += base.elems[static_cast<size_t>(i)].leaf_count();
    elem = base.elems[static_cast<size_t>(k)];
    return true;
  }
  if (!base.is_tuple()) {
    if (base.is_scalar())
      error("E0211", s,
            "`" + type_name(base) + "` is a primitive type and therefore doesn't have fields",
            "not a tuple");
    else
      error("E0211", s, "no field `" + f.name + "` on type `" + type_name(base) + "`",
            "not a tuple");
    return false;
  }
  const size_t n = base.elems.size();
  size_t index = n;
  // `t.1`: a decimal index without leading zeros; `t.x`, `t.01` name no element.
  const bool decimal =
      !f.name.empty() && f.name.size() <= 9 && (f.name == "0" || f.name[0] != '0') &&
      std::all_of(f.name.begin(), f.name.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (decimal) std::from_chars(f.name.data(), f.name.data() + f.name.size(), index);
  if (index >= n) {
    auto& d = error("E0211", span(f), "no field `" + f.name + "` on type `" + type_name(base) + "`",
                    "unknown field");
    d.helps.push_back("the tuple's elements are `.0` to `." + std::to_string(n - 1) + "`");
    return false;
  }
  first = 0;
  for (size_t i = 0; i < index; ++i) first += base.elems[i].leaf_count();
  elem = base.elems[index];
  return true;
}

tir::Expr* Checker::tuple_field(tir::Expr* base, const ast::FieldSuffix& f, Span s) {
  Type elem;
  int first = 0;
  if (!tuple_index(base->type, f, s, elem, first)) return error_expr(s);
  const int count = elem.leaf_count();
  const size_t end = static_cast<size_t>(first + count);
  const bool effects = tir::has_effect(base);
  const auto field_of = [&](int k, const Type& t) { return flat().field(base, k, t, s); };
  if (elem.is_scalar() && !effects && end <= base->args.size()) {
    tir::Expr* leaf = base->args[static_cast<size_t>(first)];
    // `u.1.0`: a field of `u.1`, itself the fields of `u`, is the field of `u`
    return leaf->kind == tir::ExprKind::Field ? leaf : field_of(first, elem);
  }
  if (elem.is_scalar() || (elem.is_tuple() && !holds_tensor(elem) && effects)) {
    tir::Expr* e = field_of(first, elem);  // `f().1`
    return elem.is_scalar() ? e : declared_value(e);
  }
  const auto scalar = [](const tir::Expr* x) { return x->type.is_scalar(); };
  if (elem.is_tuple() && end <= base->args.size() &&
      std::all_of(base->args.begin() + first, base->args.begin() + static_cast<long>(end),
                  scalar)) {
    // `u.1` of a local: each of its scalars a field of the value, which the lowering reads
    tir::Expr* flat = new_flat(elem, s);
    for (int k = first; k < first + count; ++k)
      flat->args.push_back(field_of(k, base->args[static_cast<size_t>(k)]->type));
    return flat;
  }
  std::vector<tir::Stmt*> pre =
      flat().select(base, static_cast<size_t>(first), static_cast<size_t>(count));
  if (!elem.is_tuple()) return with_prelude(pre, base->args[static_cast<size_t>(first)]);
  tir::Expr* flat = new_flat(elem, s);
  flat->block->stmts = std::move(pre);
  flat->args.assign(base->args.begin() + first, base->args.begin() + first + count);
  note_struct_part(base, flat, f.name);  // check_struct_tensor.cpp
  return flat;
}

tir::Expr* Checker::tuple_compare(const OpTree& t, tir::BinOp op, tir::Expr* a, tir::Expr* b) {
  if (op != tir::BinOp::Eq && op != tir::BinOp::Ne) {
    auto& d = error("E0202", t.op_span,
                    "cannot apply `" + t.op + "` to `" + type_name(a->type) + "` and `" +
                        type_name(b->type) + "`",
                    "tuples are compared with `==` and `!=` only");
    d.notes.push_back("spec/types.md §8: Vx does not order tuples");
    return error_expr(t.span);
  }
  // The typed program keeps the comparison; the lowering compares the scalars
  // (lower/lower_tuples.cpp).
  tir::Expr* e = make(tir::ExprKind::Binary, Type::of(Scalar::Bool), t.span);
  e->bop = op;
  e->args = {a, b};
  return e;
}

void Checker::declare_tuple(const std::string& name, const Type& t, bool is_mut, Span decl,
                            tir::Expr* value, std::vector<tir::Stmt*>& out,
                            std::vector<int>* slots) {
  if (value && !is_flat(value)) {  // a tuple that a refused expression left
    if (!diags_.has_errors()) error("E0200", value->span, "Vx cannot keep a tuple here");
    value = nullptr;
  }
  Local l{name, -1, t, is_mut, false, decl, {}, {}, nullptr};
  l.leaves = leaf_slots(t, name, decl, is_mut);
  if (!l.leaves.empty()) fn_->aggregates[l.leaves.front()] = {t, l.leaves};
  if (holds_tensor(t)) struct_leaf_slots_.insert(l.leaves.begin(), l.leaves.end());
  if (slots) *slots = l.leaves;
  if (value) {  // a statement of the value that declares the locals: the lowering makes the lets
    value->into_slots = l.leaves;
    value->declares = true;
    out.push_back(flat().statement(value));
    out.back()->span = decl;
  } else if (!slots) {  // `let t: (i32, f32);`
    for (int leaf : l.leaves) out.push_back(let_slot(leaf, nullptr, decl));
  }
  scopes_.back().push_back(std::move(l));
}

void Checker::bind_pattern(const ast::LetPattern& p, const Type& t, size_t first,
                           std::set<std::string>& names, std::vector<int>& slots) {
  ast::visit(
      p,
      [&](const ast::BindPat& b) {
        const std::string& name = b.name.name;
        if (name == "_") return;  // the elements are still evaluated
        if (!names.insert(name).second)
          error("E0102", span(b.name),
                "identifier `" + name + "` is bound more than once in the same pattern",
                "used in a pattern more than once");
        if (!t.is_tuple()) {
          slots[first] = declare(name, t, b.is_mut, span(b.name));
          return;
        }
        std::vector<tir::Stmt*> none;  // declared only: the destructuring `let` stores them
        std::vector<int> leaves;
        declare_tuple(name, t, b.is_mut, span(b.name), nullptr, none, &leaves);
        std::copy(leaves.begin(), leaves.end(), slots.begin() + static_cast<long>(first));
      },
      [&](const ast::x3::forward_ast<ast::TuplePat>& pat) {
        const ast::TuplePat& tp = pat.get();
        // A struct is not taken apart by a tuple pattern (`let (x, n) = p;`), as in Rust (E0308).
        if (!t.is_tuple() || t.is_struct() || t.elems.size() != tp.elems.size()) {
          auto& d = error("E0200", span(tp),
                          !t.is_tuple() || t.is_struct()
                              ? "mismatched types: expected `" + type_name(t) + "`, found a tuple"
                              : "mismatched types: expected a tuple with " +
                                    std::to_string(t.elems.size()) + " element" +
                                    (t.elems.size() == 1 ? "" : "s") + ", found one with " +
                                    std::to_string(tp.elems.size()) + " element" +
                                    (tp.elems.size() == 1 ? "" : "s"),
                          "expected `" + type_name(t) + "`");
          (void)d;
          declare_unchecked(tp);
          return;
        }
        size_t at = first;
        for (size_t i = 0; i < tp.elems.size(); ++i) {
          bind_pattern(tp.elems[i], t.elems[i], at, names, slots);
          at += static_cast<size_t>(t.elems[i].leaf_count());
        }
      });
}

void Checker::declare_unchecked(const ast::TuplePat& p) {
  for (const ast::LetPattern& e : p.elems) {
    ast::visit(
        e,
        [&](const ast::BindPat& b) { declare(b.name.name, Type::error(), b.is_mut, span(b.name)); },
        [&](const ast::x3::forward_ast<ast::TuplePat>& tp) { declare_unchecked(tp.get()); });
  }
}

void Checker::check_let_tuple(const ast::LetTupleStmt& l, Span s, std::vector<tir::Stmt*>& out) {
  Type declared;
  const bool has_type = l.type.has_value();
  if (has_type) declared = resolve_type(*l.type);
  if (!l.init) {
    error("E0200", span(l.pat), "a `let` that takes a tuple apart needs a value",
          "write `let (a, b) = …;`");
    declare_unchecked(l.pat);
    return;
  }
  tir::Expr* v = check_expr(*l.init, has_type ? &declared : nullptr);
  if (has_type) v = coerce(v, declared, span(*l.init));
  const bool tuple = v->type.is_tuple() && !v->type.is_struct();  // a struct is no tuple
  if (!tuple && !v->type.is_error())
    error("E0200", span(l.pat),
          "mismatched types: expected `" + type_name(v->type) + "`, found a tuple",
          "expected `" + type_name(v->type) + "`");
  if (!tuple) {
    declare_unchecked(l.pat);
    return;
  }
  // A statement of the value that declares the names' locals, and drops the scalars a `_` binds
  // (-1): the lowering makes the lets (lower/lower_tuples.cpp).
  std::set<std::string> names;
  std::vector<int> slots(v->args.size(), -1);
  bind_pattern(ast::LetPattern(ast::x3::forward_ast<ast::TuplePat>(l.pat)), v->type, 0, names,
               slots);
  v->into_slots = std::move(slots);
  v->declares = true;
  out.push_back(flat().statement(v));
  out.back()->span = s;
}

void Checker::check_tuple_assign(Local& local, const ast::Postfix& place, const ast::AssignTail& a,
                                 Span target, std::vector<tir::Stmt*>& out, bool through_deref) {
  const std::string& name = local.name;
  // The element assigned: its type and the range of the local's scalars that hold it.
  Type t = local.type;
  t.struct_ref = t.ref_mut = false;  // `r.x`, `*r`: the fields of the struct it refers to
  int first = 0;
  std::string path = through_deref ? "*" + name : name;
  bool ok = true;
  std::vector<const ast::IndexSuffix*> idx;  // `s.a[i] = …`: an element of an array field
  // A field is read when the place goes on into an element of it (dead_code).
  const bool indexed = std::any_of(place.suffixes.begin(), place.suffixes.end(), [](const auto& x) {
    return boost::get<ast::IndexSuffix>(&x) != nullptr;
  });
  for (const ast::Suffix& sfx : place.suffixes) {
    if (const auto* ix = boost::get<ast::IndexSuffix>(&sfx)) {
      idx.push_back(ix);
      continue;
    }
    const auto* fp = boost::get<ast::FieldSuffix>(&sfx);
    // `s.a[i].x`: an array holds scalars only; `s.x.abs() = …`: a call's value is no place.
    if (!idx.empty() || !fp) {
      error("E0200", target, "cannot assign to this expression",
            "expected a variable, a field or an element");
      check_expr(a.value, nullptr);
      return;
    }
    const auto& f = *fp;
    Type elem;
    int off = 0;
    if (!tuple_index(t, f, target, elem, off, indexed)) {
      ok = false;
      break;
    }
    first += off;
    t = elem;
    path += "." + f.name;
  }
  if (local.type.struct_ref && place.suffixes.empty() && !through_deref) {  // check_struct_ref.cpp
    error("E0300", target, "cannot assign to reference `" + name + "`",
          "assign to its fields instead");
    check_expr(a.value, nullptr);
    return;
  }
  if (ok && !local.is_mut && !write_through_shared(local, path, target)) {
    auto& d =
        error("E0300", target,
              place.suffixes.empty()
                  ? "cannot assign twice to immutable variable `" + name + "`"
                  : "cannot assign to `" + path + "`, as `" + name + "` is not declared as mutable",
              "cannot assign");
    d.secondary.push_back({local.decl, "declared here without `mut`"});
    d.helps.push_back("declare it with `let mut " + name + "`");
  }
  const bool compound = a.op != "=";
  // A struct holding a tensor (check_struct_tensor.cpp): host code only, moved whole, its
  // tensors not replaced through a reference.
  const bool whole = place.suffixes.empty() && !through_deref;
  if (ok && !struct_tensor_assign(local, t, path, whole, local.type.struct_ref || through_deref,
                                  !idx.empty(), target))
    return (void)check_expr(a.value, nullptr);
  if (!idx.empty()) {
    if (!ok) return (void)check_expr(a.value, nullptr);
    tir::Stmt* st = prog_.new_stmt();
    st->kind = tir::StmtKind::Assign;
    st->span = span(place);
    st->compound = compound;
    if (compound) st->op = compound_op(a.op);
    tir::Expr* base = t.is_tuple() ? error_expr(target)
                                   : read_slot(local.leaves[static_cast<size_t>(first)], target);
    if (t.is_tuple())
      error("E0204", target, "`" + path + "` is a `" + type_name(t) + "`, not an array",
            "cannot be indexed");
    return assign_element(st, base, idx, a, target, out);
  }
  tir::Expr* v = check_expr(a.value, ok ? &t : nullptr);
  if (!ok || v->type.is_error()) return;
  if (!compound) {
    mark_moved(v, span(a.value));  // `m.w = t;`, `m = other;` move the value in
    // A tensor of the struct replaced while `let q = &mut m.w;` is used after: E0305.
    const size_t from = static_cast<size_t>(first), n = static_cast<size_t>(t.leaf_count());
    for (size_t k = from; k < from + n && k < local.leaves.size(); ++k)
      let_borrow_conflict(local.leaves[k], path, target, false);
  }
  if (!t.is_tuple()) {
    // One scalar: the assignment of a scalar local. A scalar field (`p.n = …`, `t.1 += …`) is
    // the Field of the local's value, as a read of it is (tuple_field); the lowering makes it
    // the scalar's local (lower/lower_tuples.cpp). A tensor or an array field is its local.
    tir::Stmt* st = t.is_scalar()
                        ? flat().assign(flat().field(tuple_var(local, target), first, t, target),
                                        nullptr, target)
                        : assign_slot(local.leaves[static_cast<size_t>(first)], nullptr, target);
    st->span = span(place);
    st->compound = compound;
    if (compound) {
      st->op = compound_op(a.op);
      const bool bits = st->op == tir::BinOp::BitAnd || st->op == tir::BinOp::BitOr ||
                        st->op == tir::BinOp::BitXor;
      if (!t.is_scalar() || (!is_number(t.scalar) && !(t.scalar == Scalar::Bool && bits)))
        error("E0202", target, "`" + a.op + "` cannot be applied to `" + type_name(t) + "`");
    }
    if (compound && (st->op == tir::BinOp::Shl || st->op == tir::BinOp::Shr)) {
      if (!(v->type.is_scalar() && is_int(v->type.scalar)))
        error("E0202", span(a.value), "a shift amount must be an integer");
    } else {
      v = coerce(v, t, span(a.value));
    }
    st->value = v;
    always_stops(st, t, target, a.value);
    out.push_back(st);
    return;
  }
  if (compound) {
    error("E0202", target,
          "binary assignment operation `" + a.op + "` cannot be applied to type `" + type_name(t) +
              "`",
          std::string("cannot use `") + a.op + "` on a " + (t.is_struct() ? "struct" : "tuple"));
    return;
  }
  v = coerce(v, t, span(a.value));
  if (v->type.is_error()) return;
  if (whole) local.moved = false;  // a new value
  // A statement of the value naming the place's locals and the place (`p`, `t.1`: what a
  // diagnostic names); the lowering reads every scalar before it writes any (`t = (t.1, t.0);`
  // swaps) and assigns them (lower/lower_tuples.cpp).
  const auto from = local.leaves.begin() + first;
  v->into_slots.assign(from, from + static_cast<long>(v->args.size()));
  v->text = path;
  out.push_back(flat().statement(v));
  out.back()->span = span(place);
}

void Checker::return_tuple(tir::Expr* value, Span s, std::vector<tir::Stmt*>& out,
                           bool with_return) {
  if (!value->type.is_error()) route_into(value, fn_->ret_slots, out);
  if (!with_return) return;
  tir::Stmt* st = prog_.new_stmt();
  st->kind = tir::StmtKind::Return;
  st->span = s;
  out.push_back(st);
}

tir::Expr* Checker::finish_call(tir::Expr* call, const FnSig& sig) {
  check_call_aliases(call);
  bool tuples = sig.ret.is_tuple();
  for (const tir::Expr* a : call->args)
    tuples = tuples || a->type.is_tuple() || struct_borrows_.count(a);  // `&mut m.w` too
  if (!tuples) return call;
  // `&mut` struct arguments (check_struct_ref.cpp): the callee's fields come back after the call.
  const std::vector<StructBorrow> backs = call_borrows(call, sig);
  pass_tensor_leaves_by_view(call);  // check_struct_tensor.cpp
  const bool tuple_args = std::any_of(call->args.begin(), call->args.end(),
                                      [](const tir::Expr* a) { return a->type.is_tuple(); });
  if (!sig.ret.is_tuple() && backs.empty() && !tuple_args) {  // `&mut m.w` only
    std::vector<tir::Stmt*> pre;
    std::vector<tir::Expr*> parts = call->args;
    call->args = sequence(parts, pre);
    return with_prelude(std::move(pre), call);
  }
  // The call keeps its arguments and names the locals its `&mut` structs' fields come back to;
  // the lowering passes the tuples' scalars, makes the out locals and copies the fields back
  // (FlatBuilder::take_apart_call, lower/lower_tuples.cpp).
  for (const StructBorrow& b : backs)
    call->back_slots.insert(call->back_slots.end(), b.leaves.begin(), b.leaves.end());
  return sig.ret.is_tuple() ? declared_value(call) : call;
}

tir::Expr* Checker::declared_value(tir::Expr* e) {
  e->into_slots = leaf_slots(e->type, tir::kTupleTemp, e->span, false);
  e->declares = true;
  tir::Expr* value = new_flat(e->type, e->span);
  value->block->stmts.push_back(flat().statement(e));
  for (int slot : e->into_slots) value->args.push_back(read_slot(slot, e->span));
  return value;
}

void Checker::check_no_tuples(const tir::Function& f) {
  // The tuples the lowering takes apart (lower/lower_tuples.cpp): the operands of `==` and `!=`,
  // the arguments of a print, an assert and a call, the value a Field reads.
  // And an `if`, `match` or block whose value goes into locals, with its branches' values.
  std::set<const tir::Expr*> kept;
  std::function<void(const tir::Expr*)> routed = [&](const tir::Expr* e) {
    kept.insert(e);
    for (tir::Block* b : tir::branches(e))
      if (b->tail && b->tail->type.is_tuple()) routed(b->tail);
  };
  tir::walk_block(f.body, [&](const tir::Stmt*, const tir::Expr* e) {
    if (e && !e->into_slots.empty()) routed(e);
    const bool compare = e && e->kind == tir::ExprKind::Binary &&
                         (e->bop == tir::BinOp::Eq || e->bop == tir::BinOp::Ne);
    if (e && (compare || e->kind == tir::ExprKind::Print || e->kind == tir::ExprKind::Assert ||
              e->kind == tir::ExprKind::Field || e->kind == tir::ExprKind::Call))
      for (const tir::Expr* a : e->args)
        if (is_flat(a)) kept.insert(a);
  });
  bool reported = false;
  tir::walk_block(f.body, [&](const tir::Stmt* s, const tir::Expr* e) {
    if (reported || kept.count(e)) return;
    if (s && s->kind == tir::StmtKind::Let && s->slot >= 0 &&
        fn_->slot_types[static_cast<size_t>(s->slot)].is_tuple()) {
      error("E0200", s->span, "Vx cannot keep a tuple here", "a tuple value");
      reported = true;
    }
    if (e && e->type.is_tuple()) {
      auto& d = error("E0200", e->span, "a tuple `" + type_name(e->type) + "` cannot be used here",
                      "a tuple");
      d.notes.push_back(
          "spec/types.md §8: a tuple can be stored, passed, returned, compared with `==` and "
          "`!=`, printed with `{:?}` and taken apart");
      reported = true;
    }
  });
}

}  // namespace vx::check
