// Syntax errors: the grammar's failures put in the user's words (spec/errors.md E0001–E0004).
// The grammar says only where it stopped and what it expected there; these find what the user
// most likely got wrong: the line that lacks its `;`, the part of a `\u{…}` escape at fault, the
// Rust form Vx leaves out (absent.def).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "support/diagnostics.hpp"

namespace vx {

// The grammar expected `which` (a rule's name or X3's spelling of a literal) at byte `at`.
void report_expectation_failure(const std::string& text, uint32_t at, std::string which,
                                Diagnostics& diags);
// The items ended at byte `at`, before the end of the file.
void report_not_an_item(const std::string& text, uint32_t at, Diagnostics& diags);

// The help an unknown macro gets (E0502; the macros of Vx: spec/grammar.md §4.2).
const char* unknown_macro_help(std::string_view name);

}  // namespace vx
