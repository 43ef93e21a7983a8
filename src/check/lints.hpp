// The checker's warnings (spec/errors.md, "Warnings"), read off the lowered program
// (lower/lower.hpp) of a program the checker accepted: `unused_variables`, `unused_mut`,
// `unused_assignments` (lint_flow.hpp), `while_true`, `unreachable_code`, `unused_results`,
// `sum_unordered_printed`, `dead_code` and `unreachable_patterns` (which the checker finds,
// check_match.cpp); `unused_parens` off the AST (lint_parens.hpp). The lane warnings belong to
// the kernel rules (kernel_lints.cpp).
#pragma once
#include "check/tir.hpp"
#include "parse/parser.hpp"
#include "support/diagnostics.hpp"

namespace vx {

// Adds the warnings of the program, in source order. A program with errors is not linted: a use
// the checker refused would make its variable look unused. `parsed` is its AST.
void lint_program(const tir::Program& program, const ParsedProgram& parsed, Diagnostics& diags);

// Whether control never reaches the end of the block: it returns, or runs a `loop` without a
// `break` of its own; with `jumps`, a `break` or `continue` ends it too (what follows one in its
// block is unreachable).
bool never_ends(const tir::Block* block, bool jumps);

}  // namespace vx
