// How the REPL reports what the pipeline says, where the ordinary rendering does not fit: a
// diagnostic with no place in anything the user typed, and an interrupted input (spec/cli.md
// §7.3). Internal to src/repl.
#pragma once
#include <ostream>

#include "support/diagnostics.hpp"

namespace vx::repl {

// `error[CODE]: MESSAGE` and its notes and helps, without a place.
void render_unplaced(std::ostream& out, const Diagnostic& d);

// Whether a runtime error is the one an interrupt stops a run with (interp::kInterrupted), the
// message being `runtime error: interrupted…` as the interpreter words it, or without the prefix.
bool is_interrupt(const Diagnostic& d);
// The interrupted input's report: `error: interrupted` (with the pass it stopped in), the label
// `the input stopped here`, and a note that the session is as it was before the input.
Diagnostic interrupt_report(const Diagnostic& runtime_error);
// Before an interrupt's report on `out`: a line break when `out` is the standard error of a
// terminal, whose driver echoed `^C` without one.
void fresh_line_after_ctrl_c(std::ostream& out);

}  // namespace vx::repl
