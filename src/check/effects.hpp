// The effects of every function of the typed program (spec/kernel-rules.md §3, rule 3): which of
// its reference parameters it can write through (a store, a routine that writes a tile, an atomic
// that changes an element), whether it prints, and which functions it calls, followed through its
// calls. The kernel rules read them at every call in an across loop. They come from one
// exhaustive walk: each statement and expression kind is a case of a switch with no `default`,
// so a kind added to tir.hpp and left out here is a compile error (-Werror=switch), never a write
// the proof does not see.
#pragma once
#include <vector>

#include "check/tir.hpp"

namespace vx {

struct FunctionEffects {
  std::vector<bool> writes;  // per parameter: it can write through it (only references can)
  bool prints = false;       // `print!`/`println!`, itself or in a function it calls
  std::vector<int> callees;  // the functions it calls directly
};

// Indexed like prog.functions.
std::vector<FunctionEffects> function_effects(const tir::Program& prog);

// The local under `x`, `x[i]…`, `&x`, `&mut x[i]`: the tensor or reference a place names; null
// for anything else.
const tir::Expr* tensor_root(const tir::Expr* e);

}  // namespace vx
