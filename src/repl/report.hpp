// How the REPL reports what the pipeline says, where the ordinary rendering does not fit: a
// diagnostic with no place in anything the user typed, and an interrupted input (spec/cli.md
// §7.3). Internal to src/repl.
#pragma once
#include <ostream>

#include "support/diagnostics.hpp"

namespace vx::repl {

struct SessionHooks;

// `error[CODE]: MESSAGE` and its notes and helps, without a place.
void render_unplaced(std::ostream& out, const Diagnostic& d);

// A diagnostic of an input, placed in `file` (null: it has no place in anything the user typed):
// to the front end's hook when it set one (the machine protocol), else rendered on `out`.
void deliver(const SessionHooks& hooks, std::ostream& out, const SourceFile* file,
             const Diagnostic& d);

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
