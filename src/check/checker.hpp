// The checker, first part (spec/types.md, spec/semantics.md, spec/memory.md, spec/errors.md):
// resolves names and scopes, infers literal types, checks types, calls and returns, `let` vs
// `let mut`, moves, references and the memory rule, and builds the typed program (tir.hpp).
// Needs a parsed program. A program with any error yields no typed program.
#pragma once
#include <memory>

#include "check/tir.hpp"
#include "parse/parser.hpp"
#include "support/diagnostics.hpp"

namespace vx {

// `needs_main`: a program must have `fn main` (E0103); `vx call` checks a file of functions
// without one too (spec/cli.md §2.2).
std::unique_ptr<tir::Program> check_program(const ParsedProgram& parsed, Diagnostics& diags,
                                            bool needs_main = true);

}  // namespace vx
