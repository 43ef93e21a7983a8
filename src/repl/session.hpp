// The REPL's session (spec/cli.md §7): what `vx repl` keeps between inputs — the `fn` and `const`
// items, and the values of `let` bindings — and how one input runs against it. Each input is
// wrapped into a program that the ordinary pipeline accepts (parse, check, kernel rules, run; see
// session.cpp), so the REPL means exactly what a file means. The session changes only when the
// whole input was accepted and ran to its end: a refused input or a runtime error leaves it as it
// was.
#pragma once
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "rules/explain.hpp"
#include "rules/write_map.hpp"
#include "support/diagnostics.hpp"

namespace vx::repl {

struct SessionOptions {
  std::string offload = "auto";  // where regions run, as `vx run --offload` (spec/offload.md)
  std::string machine;           // a machine file for the kernel rules; empty: the default H100
  // Each input's run stops past these, as `vx run --max-steps/--max-seconds` (0: no limit).
  int64_t max_steps = 0;
  double max_seconds = 0;
  bool color = false;  // `:explain` prints its text with colour (the REPL's front end reads it)
};

// What a front end that wants data, not text, receives (the machine protocol, protocol.hpp). A hook
// that is set gets its event instead of the text the session would print for it; `region_ran`
// comes besides `:time`'s line. `file` is the input's own text when the place lies in it, else the
// whole wrapped program.
struct SessionHooks {
  // A diagnostic of an input: a refusal, a warning, a runtime error.
  std::function<void(const SourceFile& file, const Diagnostic& d)> diagnostic;
  // The value of an input's final expression: its text, its type (a tensor's with its size note),
  // and the REPL's line for both (`= 65 : i32`).
  std::function<void(const std::string& value, const std::string& type, const std::string& text)>
      value;
  // :check: the digit tables of one store (as `vx check --explain`).
  std::function<void(const SourceFile& file, const kr::StoreExplain& store)> explained;
  // A region ran: where it is (empty span: not in the input), on the GPU or the host, how long.
  std::function<void(const SourceFile& file, Span region, bool gpu, double ms)> region_ran;
  // A diagnostic with no place in anything the user typed (rendered without a span otherwise).
  std::function<void(const Diagnostic& d)> unplaced;
  // The running input was stopped by SIGINT (the session is left as before it).
  std::function<void()> interrupted;
};

class Session {
 public:
  // `out` gets values and program output, `err` diagnostics.
  Session(SessionOptions options, std::ostream& out, std::ostream& err);
  ~Session();

  // Runs one input: statements (with an optional expression at the end, whose value and type are
  // printed), or `fn`/`const` items (defined or redefined), or a program with `fn main` (run once;
  // its other items stay defined). Returns true when it was accepted and ran to its end.
  // While it runs, SIGINT (Ctrl-C) stops it at its next loop pass or call, as a runtime error
  // does: the session stays as it was, and the report says so (repl/interrupt.hpp; every
  // Session installs the handler while it lives, so any front end gets this).
  bool eval(const std::string& text);
  // A `.uir` input (`:uir` mode, spec/cli.md §7.4): run after the .uir inputs accepted before it.
  bool eval_uir(const std::string& text);
  // :load: the file's text as one input (a FILE.uir as a .uir input).
  bool load(const std::string& path);
  bool reload();  // :reload: the file :load read last, read and run again
  // :save FILE (FILE.uir: the .uir inputs): the accepted inputs as a program `vx run` runs. An
  // existing file is refused unless `overwrite` (`:save!`) or this session's :save wrote it.
  bool save(const std::string& path, bool overwrite);
  // Whether the last input (eval, eval_uir, load) was stopped by an interrupt.
  bool last_interrupted() const;
  bool type_of(const std::string& expr);  // :type: prints `EXPR : TYPE` (a fn: its signature)
  // :show: a tensor binding, or the part `t[1]`, `t[0..4][2..6]` names, printed with its shape.
  bool show(const std::string& part);
  void list_vars();  // :vars: every binding with its type, then the items, in the order defined
  // :check: the kernel rules on the last input with a kernel (a `spawn on` region, or a .uir
  // `range`), with the --explain tables.
  void check_last();
  // :map: who writes each element of every store in an across loop of the last input, on `out`:
  // text (coloured as diagnostics are), an SVG picture, or JSON notes (spec/cli.md §3.3); with
  // `file`, into that file instead (:map svg FILE), saying so on `out`.
  void map_last(kr::MapFormat format, const std::string& file = {});
  void emit_last();          // :emit: the CUDA C++ of the last region entered
  void set_timing(bool on);  // :time: one line per region run, with where it ran and how long
  bool timing() const;
  void reset();  // :reset: forget every item and binding
  void set_hooks(SessionHooks hooks);
  // The names in scope (bindings, functions, constants), for completion.
  std::vector<std::string> names() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vx::repl
