// Flat tuples (spec/types.md §8): a tuple value in the typed program is a BlockExpr of the
// tuple's type whose block holds what runs first and whose args are its scalars in order (a
// nested tuple's inlined). The checker makes them and takes some of them apart as it types
// (check/check_tuple.cpp); the lowering (lower/lower_tuples.cpp) takes apart those the typed
// program keeps: `==` and `!=` of two tuples, tuples printed with `{:?}`, assert_eq! of two
// tuples, a scalar field of a value, a call's tuple arguments, out locals and struct fields that
// come back, and the values stored into locals (Expr::into_slots). Both build with this: the hidden
// locals of one function and the order their values are read in.
#pragma once
#include <string>
#include <vector>

#include "check/tir.hpp"

namespace vx::tir {

// A scalar that reads the same whenever it is read: a literal, a local, or a field of a local's
// tuple (`t.1`, `p.x`: a Field of a flat tuple without effects, which the lowering makes its
// scalar's local).
bool plain(const Expr* e);
// The Var of the local that the plain scalar `e` reads (a field's scalar for a field), or null.
const Expr* plain_local(const Expr* e);
bool is_flat(const Expr* e);
// Whether running `e` can have an effect or read what an effect changes: anything but a plain
// scalar, or a flat tuple with a prelude or such a scalar.
bool has_effect(const Expr* e);

class FlatBuilder {
 public:
  // `fn` is where hidden locals go; null outside a function (make only).
  FlatBuilder(Program& program, Function* fn) : prog_(program), fn_(fn) {}

  Expr* make(ExprKind kind, const Type& type, Span span);
  Expr* new_flat(const Type& t, Span s);
  int hidden_slot(const Type& t, const std::string& name, Span decl, bool is_mut = false);
  Stmt* let_slot(int slot, Expr* value, Span s);
  Stmt* assign_slot(int slot, Expr* value, Span s);
  // `target = value;` (`value` may be set later, with the operator of a compound assignment).
  Stmt* assign(Expr* target, Expr* value, Span s);
  Expr* read_slot(int slot, Span s);
  // The field of the flat tuple `base` whose (first) scalar is its k-th, of type `t` (`p.x`,
  // `f().1`): the lowering takes it apart (lower/lower_tuples.cpp).
  Expr* field(Expr* base, int k, const Type& t, Span s);
  const Type& slot_type(int slot) const;
  // The value a local of type `t` is declared with before something gives it one: 0, `false`, an
  // array of them; null for a tensor (a struct's tensor field has no value until it is given one).
  Expr* zero_of(const Type& t, Span s);
  // A call of the typed program taken apart (spec/semantics.md §2): its arguments' prelude, its
  // out locals (Expr::out_slots) declared with zeros, into `pre`; the call then writes its tuple
  // value into the locals it declares (Expr::into_slots) and the fields of each `&mut` struct into
  // hidden locals, which `post` copies back into the struct (Expr::back_slots).
  void take_apart_call(Expr* call, std::vector<Stmt*>& pre, std::vector<Stmt*>& post);
  Stmt* statement(Expr* e);
  // `e` read into a new hidden local by a `let` added to `out`; returns the read of that local.
  Expr* into_local(Expr* e, std::vector<Stmt*>& out);
  // `e` as the tail of `blk`, or as its last statement when it is a unit value other than `()`.
  void set_tail(Block* blk, Expr* e);
  // Moves the scalars of a flat tuple into locals (those up to the last one with an effect, or
  // all when `all`), so that what runs after cannot change them.
  void materialize(Expr* flat, bool all);
  // Puts the preludes of `parts` (flat tuples and scalars) into `pre` in order, and makes each
  // part's values safe to read after the parts that follow. Returns their scalars in order.
  std::vector<Expr*> sequence(std::vector<Expr*>& parts, std::vector<Stmt*>& pre);
  // What reading the scalars [first, first + count) of the flat tuple `flat` needs to run first:
  // its prelude, then its other scalars that have an effect, in order (they still run); when
  // there are such, every scalar is read into a local first (materialize), so that those read
  // are the values they had. A field of a tuple value (`f().1`).
  std::vector<Stmt*> select(Expr* flat, size_t first, size_t count);
  // Statements that evaluate leaves[from, to) for their effects only (none for a plain read).
  void drop_leaves(const std::vector<Expr*>& leaves, size_t from, size_t to,
                   std::vector<Stmt*>& out);
  // The flat tuple `flat` into `slots`: its prelude, then each scalar assigned, or each local
  // declared with `let` at `decl` when `declares`; a scalar whose slot is -1 runs for its effects
  // only (a destructuring `let`'s `_`).
  void assign_flat(Expr* flat, const std::vector<int>& slots, std::vector<Stmt*>& out,
                   bool declares = false, Span decl = {});
  // `value` after `pre` (a BlockExpr when `pre` is not empty).
  Expr* with_prelude(std::vector<Stmt*> pre, Expr* value);
  // `==` (all) or `!=` (any) of the first half of `leaves` with the second, as Rust's PartialEq
  // for tuples.
  Expr* compare_leaves(BinOp op, const std::vector<Expr*>& leaves, Span s);

 private:
  Program& prog_;
  Function* fn_;
};

}  // namespace vx::tir
