// References to structs (spec/types.md §9; lower/lower.hpp): a function's `&mut` struct
// parameters go back to the caller when it returns. Before each `return` and at the end of the
// body, each field's local is assigned to its return slot (tir::Function::write_back_from), and
// the call copies those into the struct it borrowed (FlatBuilder::take_apart_call).
#pragma once
#include "check/flat_tuples.hpp"

namespace vx::lower {

// Each `return` among `b`'s statements preceded by the write-backs, its value read into a local
// first (it may still change the parameters: `return g(p);`). After `b`'s tuple stores are spread.
void write_back_on_return(tir::FlatBuilder& build, const tir::Function& fn, tir::Block* b);

// The end of `fn`'s body, when it can be reached: its value read into a local, then the
// write-backs. Before the body is lowered.
void write_back_at_end(tir::FlatBuilder& build, tir::Function& fn);

}  // namespace vx::lower
