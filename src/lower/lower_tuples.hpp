// Tuples (lower/lower.hpp): the uses of a tuple value that the typed program keeps, and the
// values of `if`s, `match`es and blocks that are tuples, taken apart into their scalars
// (check/flat_tuples.hpp).
#pragma once
#include "check/flat_tuples.hpp"

namespace vx::lower {

// Lowers `e` in place when it is `==` or `!=` of two tuples (the `&&` of the elements' `==`, the
// `||` of their `!=`), a print or an assert with tuple arguments (each tuple's scalars become
// arguments, printed as Rust's `{:?}` and `{:#?}` print a tuple or a struct), or assert_eq! of two
// tuples (an assert! of their `==` whose message is assert_eq!'s), a Field of a tuple value
// (its prelude, its other scalars that have effects, then its scalar), or a call with tuple
// arguments (each tuple's scalars become arguments) or `&mut` structs whose fields come back
// (FlatBuilder::take_apart_call); the expressions inside `e`
// must be lowered already. Anything else is left as it is.
void lower_tuple_use(tir::FlatBuilder& build, tir::Expr* e);

// The statements of `b` that put a flat tuple into locals (Expr::into_slots), each replaced by
// the tuple's prelude and an assignment a scalar (a `let` when they are declared there, and the
// scalar alone for a destructuring `let`'s `_`), and the calls that declare the locals of their
// tuple value, each taken apart (FlatBuilder::take_apart_call), and the `if`s, `match`es and
// blocks that declare the locals of their tuple value, each after a `let` of every local with its
// type's zero; before `b`'s statements are lowered.
void spread_tuple_stores(tir::FlatBuilder& build, tir::Block* b);

// An `if`, `match` or block whose tuple value goes into locals (Expr::into_slots), before the
// expressions inside it are lowered: each branch's value assigned to them (a branch whose value is
// such an `if` again, that `if` so), and `e` a statement of type `()`.
void route_tuple_value(tir::FlatBuilder& build, tir::Expr* e);

}  // namespace vx::lower
