// The `.uir` side of a REPL session (spec/cli.md §7.4): the lesson's loop IR typed in `:uir` mode
// or `:load`ed from a FILE.uir. Its inputs build one program: each input is read, checked (the
// kernel rules of spec/uir.md §5, the one prover) and run after the inputs accepted before it,
// which run again without their `print`s, so names and buffers persist and only the input's own
// output shows. An input is kept only when it was accepted and ran to its end. Internal to
// src/repl.
#pragma once
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace vx::repl {

struct SessionHooks;

class UirSession {
 public:
  // Diagnostics and :check's tables go to `hooks` where the front end set them (the Session's,
  // which outlive this), else to `err` and `out`.
  UirSession(std::ostream& out, std::ostream& err, const SessionHooks& hooks);
  ~UirSession();

  // One input, its diagnostics placed in `name` (`<repl>`, or the :load path). `max_steps` and
  // `max_seconds` bound the whole run, as `vx run --max-steps/--max-seconds` (0: no limit).
  bool eval(const std::string& name, const std::string& text, int64_t max_steps,
            double max_seconds);
  // :check after a .uir kernel: the last input with a `range` (accepted or refused), checked
  // with the inputs that stood before it: its diagnostics, then the tables of its stores.
  void check_last();
  // The accepted inputs, in order, `print`s included: a program `vx run FILE.uir` runs.
  std::string program_text() const;
  bool empty() const;
  void reset();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// True when `text` has a `range` without its `end`: a .uir input goes on.
bool uir_input_is_open(const std::string& text);
// True when `text` has a `range` line.
bool uir_has_range(const std::string& text);

}  // namespace vx::repl
