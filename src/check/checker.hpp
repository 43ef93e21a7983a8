// The checker, first part (spec/types.md, spec/semantics.md, spec/memory.md, spec/errors.md):
// resolves names and scopes, infers literal types, checks types, calls and returns, `let` vs
// `let mut`, moves, references and the memory rule, and builds the typed program (tir.hpp), whose
// `match`es the lowering step (lower/lower.hpp) rewrites before anything else reads it; the
// checker's warnings (lints.hpp) are read off the lowered program. Needs a parsed program. A
// program with any error yields no typed program.
#pragma once
#include <memory>
#include <vector>

#include "check/tir.hpp"
#include "parse/parser.hpp"
#include "support/diagnostics.hpp"

namespace vx {

struct CheckOptions {
  // A program must have `fn main` (E0103); `vx call` checks a file of functions without one too
  // (spec/cli.md §2.2).
  bool needs_main = true;
  // The REPL's wrapper declares the session's bindings as `let x: T;` and fills their slots
  // itself (repl/session.cpp): a `let` without a value is accepted only at these places, the
  // wrapper's declarations (E0001 elsewhere, also in what the user typed).
  std::vector<Span> session_decls;
};
std::unique_ptr<tir::Program> check_program(const ParsedProgram& parsed, Diagnostics& diags,
                                            const CheckOptions& options = {});

}  // namespace vx
