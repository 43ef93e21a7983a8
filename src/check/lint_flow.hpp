// The lints that follow control through a function (check/lints.cpp, spec/errors.md "Warnings"),
// over the lowered program of one function (lower/lower.hpp) in the order it runs: `&&` and `||`
// run their right side maybe, an `if` one branch, a loop its body any number of times, a `break`
// goes on after its loop, a `continue` at its loop's head, a `return` ends the function.
// - `unused_assignments`: which values stored into a local no read can reach (a backward walk,
//   a loop's head to a fixed point);
// - `unconditional_recursion`: whether every way to the function's end calls the function.
#pragma once
#include <vector>

#include "check/tir.hpp"

namespace vx::lint {

// A value stored into a local that nothing reads before the local is stored again or the
// function ends: a `let`'s (`at` is the Let), an assignment's (`x = …`, `x op= …`: the Assign),
// or the value a parameter was passed (`at` null).
struct DeadStore {
  int slot = -1;
  const tir::Stmt* at = nullptr;
};

// The dead stores of the locals in `tracked` (indexed by slot), in no particular order. None
// when the function holds a form the walk does not know the order of (a `match` or a field of a
// value that the lowering left): a warning must never be wrong.
std::vector<DeadStore> dead_stores(const tir::Function& f, const std::vector<bool>& tracked);

// The calls of function `self` in `f` (which is function `self`) that the runs reach before
// they call it, when no run can leave `f` (a `return`, or the end of its body) without calling it
// first; none otherwise. A run that loops for ever or stops with an error does not leave it.
std::vector<const tir::Expr*> unconditional_recursion(const tir::Function& f, int self);

}  // namespace vx::lint
