// References to structs, `&P` and `&mut P` (spec/types.md §9). Vx observes no address, so a
// reference to a struct means the struct itself, and the checker, which gives every scalar of a
// struct a local of its own (check_tuple.cpp), passes one by copying: the callee gets the fields
// as its own locals, and when it returns, the fields of each `&mut` parameter go back through
// return slots (tir::Function::write_back_from, assigned by the lowering:
// lower/lower_write_backs.hpp) into the struct that the caller borrowed. That is
// Rust's meaning because no other argument of the call may use a struct borrowed `&mut` (E0305)
// and Vx has no other way to reach it during the call. `let r = &mut p;` makes `r` a second name
// of `p`'s locals. The back ends see scalars, calls and assignments only.
#include <boost/variant/get.hpp>

#include "check/checker_impl.hpp"
#include "check/effects.hpp"
#include "check/lints.hpp"
#include "check/tir_walk.hpp"

namespace vx::check {

namespace {

// The locals that `e` reads and those it assigns (tests/struct_call_borrows_test.py).
void touched(const tir::Expr* e, std::set<int>& reads, std::set<int>& writes) {
  tir::writes_in(e, [&](int slot) { writes.insert(slot); });
  tir::walk_expr(e, [&](const tir::Stmt*, const tir::Expr* x) {
    if (x && x->kind == tir::ExprKind::Var) reads.insert(x->slot);
  });
}

bool meets(const std::vector<int>& leaves, const std::set<int>& slots) {
  for (int l : leaves)
    if (slots.count(l)) return true;
  return false;
}

}  // namespace

tir::Expr* Checker::struct_place_ref(const ast::Postfix& p, bool is_mut, Span s) {
  const ast::PathExpr* pe = boost::get<ast::PathExpr>(&p.base);
  if (!pe || pe->call_args || pe->path.segments.size() != 1) return nullptr;
  const std::string& name = pe->path.segments[0].name;
  Local* l = lookup(name);
  if (!l || !l->type.is_struct()) return nullptr;
  // The struct borrowed: `p`, or a struct field of it, `p.inner`.
  Type t = l->type;
  int first = 0;
  std::string path = name;
  std::vector<const ast::IndexSuffix*> idx;  // `&m.w[i]`: a sub-tensor of a tensor field
  for (const ast::Suffix& sfx : p.suffixes) {
    const auto* f = boost::get<ast::FieldSuffix>(&sfx);
    const auto* ix = boost::get<ast::IndexSuffix>(&sfx);
    if (ix && t.kind == TypeKind::Tensor) {
      idx.push_back(ix);
      continue;
    }
    if (!f || !t.is_tuple() || !idx.empty()) {
      auto& d = error("E0202", s, "a reference must name a tensor, a struct or a struct field",
                      "cannot take a reference to this");
      d.helps.push_back("pass the value itself");
      return error_expr(s);
    }
    Type elem;
    int off = 0;
    if (!tuple_index(t, *f, s, elem, off)) return error_expr(s);
    first += off;
    t = elem;
    path += "." + f->name;
  }
  if (!t.is_struct() && t.kind != TypeKind::Tensor) {
    auto& d = error("E0202", s,
                    "cannot take a reference to `" + path + "` of type `" + type_name(t) + "`",
                    "references are to tensors and structs only");
    d.helps.push_back("pass the value itself");
    return error_expr(s);
  }
  if (l->moved) {  // only a struct holding a tensor moves (check_struct_tensor.cpp)
    auto& d =
        error("E0301", s, "borrow of moved value `" + name + "`", "value borrowed after move");
    d.secondary.push_back({l->moved_at, "value moved here"});
    l->moved = false;  // report once
    return error_expr(s);
  }
  if (holds_tensor(l->type) && !struct_tensor_allowed(l->type, name, s)) return error_expr(s);
  if (is_mut && !l->is_mut) {
    if (l->type.struct_ref) {
      auto& d = error("E0302", s,
                      "cannot borrow `" + (path == name ? "*" + name : path) +
                          "` as mutable, as it is behind a `&` reference",
                      "`" + name +
                          "` is a `&` reference, so the data it refers to cannot be "
                          "borrowed as mutable");
      d.secondary.push_back({l->decl, "declared here as `" + type_name(l->type) + "`"});
    } else {
      auto& d = error(
          "E0302", s,
          "cannot borrow `" + path + "` as mutable, as `" + name + "` is not declared as mutable",
          "cannot borrow as mutable");
      d.secondary.push_back({l->decl, "declared here without `mut`"});
      d.helps.push_back("declare it with `let mut " + name + "`");
    }
    return error_expr(s);
  }
  if (t.kind == TypeKind::Tensor)
    return tensor_field_ref(path, l->leaves[static_cast<size_t>(first)], idx, is_mut, s);
  StructBorrow b;
  b.leaves.assign(l->leaves.begin() + first, l->leaves.begin() + first + t.leaf_count());
  b.name = path;
  b.is_mut = is_mut;
  t.struct_ref = true;
  t.ref_mut = is_mut;
  tir::Expr* flat = new_flat(t, s);
  for (int slot : b.leaves) flat->args.push_back(read_slot(slot, s));
  struct_borrows_[flat] = std::move(b);
  return flat;
}

tir::Expr* Checker::struct_ref_var(const Local& l, Span s) {
  tir::Expr* flat = tuple_var(l, s);
  StructBorrow b;
  b.leaves = l.leaves;
  b.name = l.name;
  b.is_mut = l.type.ref_mut;
  struct_borrows_[flat] = std::move(b);
  if (holds_tensor(l.type))  // `r.inner` is a part of it
    struct_values_[flat] = {l.name, false, true, -1, l.type.ref_mut};
  return flat;
}

void Checker::declare_struct_ref(const std::string& name, const Type& t, tir::Expr* value,
                                 Span decl) {
  Local l{name, -1, t, t.ref_mut, false, decl, {}, {}, nullptr};
  auto it = value ? struct_borrows_.find(value) : struct_borrows_.end();
  if (it == struct_borrows_.end()) {
    if (!value || !value->type.is_error()) {
      auto& d = error("E0200", value ? value->span : decl,
                      "a reference to a struct is bound to a struct variable or a field of one",
                      "not a borrow of a variable");
      d.helps.push_back("write `let " + name + " = &p;`");
    }
    l.type = Type::error();
  } else {
    l.leaves = it->second.leaves;
  }
  scopes_.back().push_back(std::move(l));
}

tir::Expr* Checker::deref_struct(tir::Expr* e) {
  // The flat tuple reads the struct's locals where it is used: a copy of the struct (of one
  // holding a tensor, not movable: check_struct_tensor.cpp).
  auto b = struct_borrows_.find(e);
  if (b != struct_borrows_.end() && holds_tensor(e->type))
    struct_values_[e] = {"*" + b->second.name, false, true, -1, b->second.is_mut};
  e->type.struct_ref = false;
  e->type.ref_mut = false;
  return e;
}

bool Checker::write_through_shared(const Local& l, const std::string& path, Span target) {
  if (!l.type.struct_ref || l.type.ref_mut) return false;
  auto& d =
      error("E0302", target, "cannot assign to `" + path + "`, which is behind a `&` reference",
            "`" + l.name +
                "` is a `&` reference, so the data it refers to cannot be "
                "written");
  d.secondary.push_back({l.decl, "declared here as `" + type_name(l.type) + "`"});
  Type m = l.type;
  m.ref_mut = true;
  d.helps.push_back("take a mutable reference: `" + type_name(m) + "`");
  return true;
}

void Checker::declare_write_backs(tir::Function& f) {
  for (size_t i = 0; i < sig_->params.size(); ++i) {
    const Type& t = sig_->params[i];
    if (!t.is_struct_ref() || !t.ref_mut) continue;
    const Local* l = lookup(sig_->param_names[i]);
    if (!l) continue;
    // A tensor field came as a view of the caller's tensor: its writes are already there.
    const std::vector<int> all = leaf_slots(t, "_back", l->decl, false);
    for (size_t k = 0; k < l->leaves.size() && k < all.size(); ++k) {
      if (!copied_back(l->leaves[k])) continue;
      f.write_back_from.push_back(l->leaves[k]);
      f.ret_slots.push_back(all[k]);
    }
  }
}

namespace {

// rustc's words for two borrows of `name` by one call, the first `&mut` or not, the later one
// `&mut` or not (E0499, E0502): the message, the later borrow's label, the earlier one's.
struct BorrowWords {
  std::string message, later, earlier;
};
BorrowWords two_borrows(const std::string& name, bool first_mut, bool later_mut) {
  const std::string earlier =
      first_mut ? "mutable borrow occurs here" : "immutable borrow occurs here";
  if (first_mut && later_mut)
    return {"cannot borrow `" + name + "` as mutable more than once at a time",
            "second mutable borrow occurs here", "first mutable borrow occurs here"};
  if (first_mut)
    return {"cannot borrow `" + name + "` as immutable because it is also borrowed as mutable",
            "immutable borrow occurs here", earlier};
  return {"cannot borrow `" + name + "` as mutable because it is also borrowed as immutable",
          "mutable borrow occurs here", earlier};
}

}  // namespace

std::set<int> Checker::ref_roots(const tir::Expr* arg) const {
  const tir::Expr* v = tensor_root(arg);
  if (!v || v->slot < 0 || v->slot >= fn_->slot_count()) return {};
  std::set<int> roots;
  for (const LetBorrow& b : let_borrows_)  // `let r = &mut t;`: `r` names `t`
    if (b.ref_slot == v->slot && b.root_slot >= 0) roots.insert(b.root_slot);
  if (roots.empty()) roots.insert(v->slot);  // a tensor, or a reference parameter
  return roots;
}

void Checker::check_call_aliases(const tir::Expr* call) {
  for (size_t i = 0; i < call->args.size(); ++i) {
    const tir::Expr* a = call->args[i];
    if (a->type.kind != TypeKind::Ref) continue;
    const std::set<int> mine = ref_roots(a);
    for (size_t j = i + 1; j < call->args.size(); ++j) {
      const tir::Expr* b = call->args[j];
      if (b->type.kind != TypeKind::Ref || (!a->type.ref_mut && !b->type.ref_mut)) continue;
      // Two borrows within one struct: check_struct_ref's rule reports them (call_borrows).
      if (struct_borrows_.count(a) && struct_borrows_.count(b)) continue;
      int shared = -1;
      for (int r : ref_roots(b))
        if (mine.count(r)) shared = r;
      if (shared < 0) continue;
      const BorrowWords w = two_borrows(fn_->slot_names[static_cast<size_t>(shared)],
                                        a->type.ref_mut, b->type.ref_mut);
      auto& d = error("E0305", b->span, w.message, w.later);
      d.secondary.push_back({a->span, w.earlier});
      d.notes.push_back(
          "spec/types.md §4.1: inside `" + call->text +
          "` two references are two tensors, so the elements one writes must not be the other's");
      d.helps.push_back("copy the tensor first, so that the call borrows two tensors");
      return;  // one error a call
    }
  }
}

std::vector<Checker::StructBorrow> Checker::call_borrows(const tir::Expr* call, const FnSig& sig) {
  std::vector<StructBorrow> backs;
  bool reported = false;
  for (size_t i = 0; i < call->args.size() && i < sig.params.size(); ++i) {
    const tir::Expr* a = call->args[i];
    // A struct, or a tensor field of one (`&mut m.w`, check_struct_tensor.cpp).
    if (!a->type.is_struct_ref() && a->type.kind != TypeKind::Ref) continue;
    auto it = struct_borrows_.find(a);
    if (it == struct_borrows_.end()) {
      if (a->type.is_struct_ref())
        error("E0200", a->span, "a reference to a struct is passed as `&p` or `&mut p`",
              "not a borrow of a variable");
      continue;
    }
    const StructBorrow& b = it->second;
    if (sig.params[i].ref_mut && a->type.is_struct_ref()) {
      StructBorrow back = b;  // its tensors were lent as views: not copied back
      back.leaves.clear();
      for (int leaf : b.leaves)
        if (copied_back(leaf)) back.leaves.push_back(leaf);
      backs.push_back(std::move(back));
    }
    // Rust's borrow rules within the call: the arguments after a borrow may not touch what it
    // borrows `&mut`, nor write what it borrows `&` (rustc's E0499, E0502, E0503, E0506).
    for (size_t j = i + 1; j < call->args.size() && !reported; ++j) {
      const tir::Expr* later = call->args[j];
      std::set<int> reads, writes;
      touched(later, reads, writes);
      const bool reads_it = meets(b.leaves, reads), writes_it = meets(b.leaves, writes);
      auto other = struct_borrows_.find(later);
      const bool later_borrow = other != struct_borrows_.end() && reads_it;
      const bool later_mut = later_borrow && other->second.is_mut;
      std::string msg, label;
      if ((b.is_mut && later_borrow) || (!b.is_mut && later_mut)) {
        const BorrowWords w = two_borrows(b.name, b.is_mut, later_mut);
        msg = w.message;
        label = w.later;
      } else if (b.is_mut && (reads_it || writes_it)) {
        msg = "cannot use `" + b.name + "` because it was mutably borrowed";
        label = "use of borrowed `" + b.name + "`";
      } else if (!b.is_mut && writes_it) {
        msg = "cannot assign to `" + b.name + "` because it is borrowed";
        label = "`" + b.name + "` is assigned to here but it was already borrowed";
      } else {
        continue;
      }
      auto& d = error("E0305", later->span, msg, label);
      d.secondary.push_back(
          {a->span, std::string(b.is_mut ? "mutable" : "immutable") + " borrow occurs here"});
      d.notes.push_back(
          "spec/types.md §9: a struct passed by reference is the struct itself for the whole "
          "call; the arguments after it cannot use it while it is borrowed `&mut`, nor change "
          "it while it is borrowed `&`");
      reported = true;
    }
  }
  return backs;
}

}  // namespace vx::check
