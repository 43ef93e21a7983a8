#include "repl/report.hpp"

#include <unistd.h>

#include <iostream>
#include <string>

#include "interp/runtime.hpp"
#include "repl/session.hpp"

namespace vx::repl {

void render_unplaced(std::ostream& out, const Diagnostic& d) {
  const bool color = diagnostic_color();
  const bool warning = d.severity == Severity::Warning;
  const char* word = warning ? "warning" : d.severity == Severity::Note ? "note" : "error";
  out << (color ? (warning ? "\x1b[1;33m" : "\x1b[1;31m") : "") << word;
  if (!d.code.empty()) out << "[" << d.code << "]";
  out << (color ? "\x1b[0m\x1b[1m" : "") << ": " << d.message << (color ? "\x1b[0m" : "") << "\n";
  for (const std::string& n : d.notes) out << "  = note: " << n << "\n";
  for (const std::string& h : d.helps) out << "  = help: " << h << "\n";
  out << "\n";
}

void deliver(const SessionHooks& hooks, std::ostream& out, const SourceFile* file,
             const Diagnostic& d) {
  if (file && hooks.diagnostic)
    hooks.diagnostic(*file, d);
  else if (!file && hooks.unplaced)
    hooks.unplaced(d);
  else if (file)
    render_human(out, *file, d);
  else
    render_unplaced(out, d);
}

namespace {
const std::string kRuntime = "runtime error: ";
}

bool is_interrupt(const Diagnostic& d) {
  std::string m = d.message;
  if (m.rfind(kRuntime, 0) == 0) m.erase(0, kRuntime.size());
  const std::string word = interp::kInterrupted;
  return m.rfind(word, 0) == 0 && (m.size() == word.size() || m[word.size()] == ' ');
}

Diagnostic interrupt_report(const Diagnostic& runtime_error) {
  Diagnostic d = runtime_error;
  if (d.message.rfind(kRuntime, 0) == 0) d.message.erase(0, kRuntime.size());
  d.label = "the input stopped here";
  d.notes.push_back("the input changed nothing: every binding and item is as it was before it");
  return d;
}

void fresh_line_after_ctrl_c(std::ostream& out) {
  if (&out == &std::cerr && isatty(STDERR_FILENO)) out << "\n";
}

}  // namespace vx::repl
