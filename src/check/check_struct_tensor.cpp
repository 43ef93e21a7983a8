// Structs holding tensors (spec/types.md §9, "Tensor fields"). The checker flattens a struct into
// one local per field (check_tuple.cpp), so a tensor field is a tensor local of its own, a handle
// that a move hands on. What this file adds is ownership: the struct moves whole (its local is
// marked moved, as a tensor local is, and the moves follow the paths of the program with it), a
// tensor field is not moved out of it alone (E0306), a reference to the struct passes its tensors
// as views so that the callee writes the caller's elements and nothing is copied back, and the
// struct stays in host code (E0406), where CPU_DRAM tensors are.
#include <boost/variant/get.hpp>

#include "check/checker_impl.hpp"

namespace vx::check {

namespace {

// The first tensor field of `t`, as a path from it (`w`, `inner.w`), and its type.
bool first_tensor_field(const Type& t, std::string& path, Type& field) {
  for (size_t k = 0; k < t.elems.size(); ++k) {
    const Type& e = t.elems[k];
    if (e.kind == TypeKind::Tensor) {
      path = t.fields[k];
      field = e;
      return true;
    }
    std::string sub;
    if (e.is_tuple() && first_tensor_field(e, sub, field)) {
      path = t.fields[k] + "." + sub;
      return true;
    }
  }
  return false;
}

std::string struct_name(const Type& t) { return t.name.empty() ? type_name(t) : t.name; }

// What a struct's tensor is, for a label: "`Model` holds the tensor `w: Tensor<…>`".
std::string holds_label(const Type& t) {
  std::string path;
  Type field;
  if (!first_tensor_field(t, path, field)) return "a struct holding a tensor";
  return "`" + struct_name(t) + "` holds the tensor `" + path + ": " + type_name(field) + "`";
}

}  // namespace

void Checker::tensor_field_memory_error(const Type& t, Span s) {
  auto& d = error("E0104", s,
                  "a struct's tensor field is in `Memory::CPU_DRAM`, not `Memory::" +
                      std::string(memory_name(t.memory)) + "`",
                  "cannot be a field of a struct");
  d.notes.push_back(
      "spec/types.md §9: a struct holding a tensor is host data; device code cannot name it, "
      "and a tensor is not moved out of a field, so an HBM or SMEM tensor there could never be "
      "used");
  d.helps.push_back("keep the device tensor in a local of its own");
}

bool Checker::struct_tensor_allowed(const Type& t, const std::string& what, Span s) {
  if (spawn_depth_ > 0) {
    auto& d = error("E0406", s, "a struct holding a tensor cannot be used in device code",
                    holds_label(t));
    d.notes.push_back(
        "spec/types.md §9: a struct with a tensor field is host code's only, as its CPU_DRAM "
        "tensors are");
    d.helps.push_back(
        "name the tensor itself in the region, kept in a local of its own (`let w = "
        "transfer(…, Memory::HBM);`), not in `" +
        what + "`; read a scalar field before the region");
    device_tensor_struct_errors_.push_back(s);
    return false;
  }
  if (fn_index_ >= 0 && sig_ && sig_->name != "main")
    helper_tensor_structs_.push_back({fn_index_, s, t, what});
  return true;
}

void Checker::check_helper_tensor_structs(const std::vector<std::optional<Span>>& device) {
  std::vector<bool> reported(sigs_.size(), false);
  auto already = [&](Span at) {
    for (const Span& e : device_tensor_struct_errors_)
      if (e.begin >= at.begin && e.begin < at.end) return true;
    return false;
  };
  for (size_t f = 0; f < sigs_.size(); ++f) {
    if (!device[f]) continue;
    const FnSig& sig = sigs_[f];
    const Type* held = holds_tensor(sig.ret) ? &sig.ret : nullptr;
    for (const Type& p : sig.params)
      if (!held && holds_tensor(p)) held = &p;
    if (!held) continue;
    reported[f] = true;
    if (already(*device[f])) continue;
    auto& d = error("E0406", *device[f],
                    "`" + sig.name +
                        "` takes or returns a struct holding a tensor, so device "
                        "code cannot call it",
                    "called in device code");
    d.secondary.push_back({sig.span, holds_label(*held)});
    d.notes.push_back(
        "spec/types.md §9: a struct with a tensor field is host code's only, and so is a "
        "function that takes or returns one");
  }
  for (const HelperTensorStruct& u : helper_tensor_structs_) {
    if (!device[u.fn] || reported[u.fn]) continue;
    reported[u.fn] = true;
    auto& d = error("E0406", u.at, "a struct holding a tensor cannot be used in device code",
                    holds_label(u.type));
    d.secondary.push_back(
        {*device[u.fn], "`" + sigs_[u.fn].name + "` runs as device code for this call"});
  }
}

void Checker::note_struct_part(const tir::Expr* base, const tir::Expr* part,
                               const std::string& field) {
  auto it = struct_values_.find(base);
  if (it == struct_values_.end() || !holds_tensor(part->type)) return;
  StructValue v = it->second;
  v.path += "." + field;
  v.whole = false;
  struct_values_[part] = std::move(v);
}

bool Checker::move_struct_tensor(tir::Expr* e, Span at) {
  StructValue what;
  if (e->kind == tir::ExprKind::Var && e->type.kind == TypeKind::Tensor) {
    const Local* l = lookup(e->text);
    if (l && l->slot == e->slot) return false;             // a tensor local: moved as usual
    if (!struct_leaf_slots_.count(e->slot)) return false;  // a call's result: a temporary's
    what.path = e->text;  // `m.w`, `r.w`: the leaf's name, from the local that declared it
    const Local* root = lookup(e->text.substr(0, e->text.find('.')));
    what.behind_ref = root && root->type.struct_ref;
    what.ref_mut = what.behind_ref && root->type.ref_mut;
  } else {
    if (!e->type.is_tuple() || e->type.struct_ref || !holds_tensor(e->type)) return false;
    auto it = struct_values_.find(e);
    if (it == struct_values_.end()) return false;  // a literal, a call's result: a temporary
    what = it->second;
    if (what.whole) {
      Local* l = lookup(what.path);
      // A block's value that is its own local (`{ let e = c; e }`): the local is gone with the
      // block, nothing to mark.
      if (!l || l->leaves.empty() || l->leaves.front() != what.first_leaf) return true;
      for (int leaf : l->leaves) let_borrow_conflict(leaf, what.path, at, true);  // E0305
      const std::set<int> leaves(l->leaves.begin(), l->leaves.end());  // (`let r = &mut m;`)
      for (auto& scope : scopes_)
        for (Local& other : scope)
          if (!other.leaves.empty() && leaves.count(other.leaves.front())) {
            other.moved = true;
            other.moved_at = at;
          }
      return true;
    }
  }
  const std::string& path = what.path;
  auto& d = error("E0306", at,
                  what.behind_ref ? "cannot move out of `" + path + "` which is behind a " +
                                        (what.ref_mut ? "mutable" : "shared") + " reference"
                                  : "cannot move out of `" + path + "`, a field of a struct",
                  "move occurs because `" + path + "` has type `" + type_name(e->type) +
                      "`, which does not implement the `Copy` trait");
  d.notes.push_back(
      "spec/types.md §9: a struct holding a tensor owns it and moves whole; a tensor is not "
      "moved out of its field, nor out of a reference");
  if (what.behind_ref)
    d.helps.push_back("use its fields through the reference, or pass the reference on");
  else
    d.helps.push_back("borrow it instead (`&" + path + "`, `&mut " + path +
                      "`), or move the whole struct");
  return true;
}

void Checker::move_branch_values(tir::Expr* e) {
  for (tir::Block* b : tir::branches(e)) {
    if (!b->tail) continue;
    tir::Expr* t = b->tail;
    const bool branches = t->kind == tir::ExprKind::If || t->kind == tir::ExprKind::Match ||
                          (t->kind == tir::ExprKind::BlockExpr && t->block->tail);
    if (branches)
      move_branch_values(t);
    else
      mark_moved(t, t->span);
  }
}

bool Checker::struct_tensor_assign(Local& local, const Type& elem, const std::string& path,
                                   bool whole, bool through_ref, bool element, Span target) {
  if (!holds_tensor(local.type)) return true;
  if (!struct_tensor_allowed(local.type, local.name, target)) return false;
  if (local.moved && !whole) {
    auto& d = error("E0301", target, "assign to part of moved value: `" + local.name + "`",
                    "value partially assigned here after move");
    d.secondary.push_back({local.moved_at, "value moved here"});
    local.moved = false;  // report once
    return false;
  }
  if (element || !(elem.kind == TypeKind::Tensor || holds_tensor(elem)) || !through_ref)
    return true;
  auto& d = error("E0306", target, "cannot assign to `" + path + "`, a tensor behind a reference",
                  "would replace the tensor that the reference lends");
  d.notes.push_back(
      "spec/types.md §9: a struct's tensor is replaced only where the struct is owned; a "
      "reference to the struct lends its tensors for their elements");
  d.helps.push_back("write its elements (`" + (path[0] == '*' ? path.substr(1) : path) +
                    "…[i] = …`), or assign the field where the struct is declared");
  return false;
}

tir::Expr* Checker::tensor_field_ref(const std::string& path, int leaf,
                                     const std::vector<const ast::IndexSuffix*>& idx, bool is_mut,
                                     Span s) {
  tir::Expr* base = read_slot(leaf, s);
  base->text = path;
  tir::Expr* e = tensor_ref(base, idx, is_mut, path, s);
  if (e->type.is_error()) return e;
  StructBorrow b;
  b.leaves = {leaf};
  b.name = path;
  b.is_mut = is_mut;
  struct_borrows_[e] = std::move(b);
  return e;
}

void Checker::pass_tensor_leaves_by_view(tir::Expr* call) {
  for (tir::Expr* a : call->args) {
    if (!a->type.is_struct_ref() || !holds_tensor(a->type)) continue;
    for (tir::Expr*& leaf : a->args) {
      if (leaf->kind != tir::ExprKind::Var || leaf->type.kind != TypeKind::Tensor) continue;
      Type rt = leaf->type;
      rt.kind = TypeKind::Ref;
      rt.ref_mut = a->type.ref_mut;
      tir::Expr* view = make(tir::ExprKind::Ref, rt, leaf->span);
      view->args = {leaf};
      view->text = leaf->text;
      leaf = view;
    }
  }
}

bool Checker::struct_tensor_format(const tir::Expr* v) {
  std::string path;
  Type field;
  if (!first_tensor_field(v->type, path, field)) return true;
  auto& d = error("E0501", v->span, "cannot format a value of type `" + type_name(v->type) + "`",
                  "its field `" + path + "` is a tensor, which cannot be formatted");
  d.notes.push_back(
      "spec/types.md §9: a struct holding a tensor has no `{:?}`, as a tensor has none");
  d.helps.push_back("print its other fields, or the tensor's elements");
  return false;
}

bool Checker::copied_back(int slot) const {
  return fn_->slot_types[static_cast<size_t>(slot)].kind != TypeKind::Tensor;
}

}  // namespace vx::check
