// The session's state and the steps of an input. Each job has a file: the steps in order and
// the public API (session.cpp, whose opening comment says how an input is wrapped), placing
// diagnostics in what the user typed (session_report.cpp), composing and running statements
// (session_statements.cpp), items and whole programs (session_items.cpp), :check, :show, :vars
// and :type (session_show.cpp). Internal to repl.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "interp/interpreter.hpp"
#include "repl/interrupt.hpp"
#include "repl/session.hpp"
#include "repl/session_values.hpp"
#include "repl/uir_session.hpp"
#include "repl/wrapped.hpp"
#include "rules/machine.hpp"

namespace vx::repl {

struct Session::Impl {
  SessionOptions options;
  std::ostream& out;
  std::ostream& err;
  InterruptHandler interrupt_handler;  // SIGINT stops a running input, for every front end
  Machine machine = default_machine();
  std::vector<Item> items;
  std::vector<Binding> bindings;
  bool timing = false;
  SessionHooks hooks;
  bool device_probed = false, device_ok = false;
  struct Input {
    std::string name = "<repl>";
    std::string text;
  };
  // The last input with a kernel (a `spawn` region, or a .uir `range`), for :check.
  enum class Kernel { None, Vx, Uir } last_kernel = Kernel::None;
  std::optional<Input> last_vx_kernel;
  std::string last_region;   // the CUDA C++ of the last region entered, for :emit
  bool interrupted = false;  // the last input was stopped by an interrupt
  UirSession uir;
  // :save: the statements of the accepted inputs (a final expression already a statement), and
  // the `fn main` of each program input, renamed, with the call that stands for its run.
  std::vector<std::string> saved_statements;
  std::vector<std::string> saved_mains;
  bool saved_values = false;          // a final expression became a statement
  std::set<std::string> saved_files;  // written by :save: a later :save may overwrite them
  std::string last_load;              // the file :load read last, for :reload
  // The lints whose warnings the session has shown: only the first says it is on by default.
  mutable std::set<std::string> noted_lints;

  Impl(SessionOptions o, std::ostream& out_, std::ostream& err_)
      : options(std::move(o)), out(out_), err(err_), uir(out_, err_, hooks) {}

  // -- diagnostics, placed in what the user typed (session_report.cpp)

  // Where a span lies: the input, or the text of a session item (entered earlier).
  struct Place {
    const SourceFile* file = nullptr;
    Span span;
    int source = Composed::kInput;
  };
  std::optional<Place> place(const Composed& c, Span s, const SourceFile& input) const;
  std::string item_words(const Item& it) const;
  void report(std::ostream& o, const Diagnostic& d, const Composed& c,
              const SourceFile& input) const;
  // A syntax error that met what follows the input (the wrapper's text, or the end of the text)
  // is about the end of the input: said so (`found the end of the input`, `unexpected end of the
  // input`), and with `place`, placed where the input's code ends. False when it is not one.
  static bool at_end_of_input(Diagnostic& m, const SourceFile& input, bool place);
  void deliver(std::ostream& o, const SourceFile* file, const Diagnostic& m) const;
  // `shown`: the input's final expression, whose value is shown. The session assigns it to a
  // binding of its own, so parentheses around all of it would be unused_parens' "assigned value",
  // which the input has none of.
  void report_all(const Attempt& a, const SourceFile& input,
                  std::optional<Span> shown = std::nullopt) const;

  // -- composing (session_statements.cpp)

  void glue_items(Composed& c, const std::set<std::string>& except = {}) const;
  enum class Tail { None, Let, Drop };
  struct TailSpan {
    size_t begin = 0, end = 0;
  };

  Composed compose_statements(const std::string& in, const std::optional<TailSpan>& tail, Tail mode,
                              bool leave) const;

  // The expression at the end of the input, if any (from a parse of the input as main's body).
  std::optional<TailSpan> find_tail(const std::string& in, const SourceFile& input, bool& parsed);

  // `main()` would call the wrapper (or, in an input of items, the empty `main` added to it):
  // E0101, as for any function the session does not hold. The checker cannot say it, since the
  // wrapper is there.
  bool refuse_main_calls(const Attempt& a, const SourceFile& input) const;

  // -- running (session_statements.cpp)

  std::string runner_mode(const Attempt& a);

  // Runs the program of `a`; `runner` has its markers set. Returns true when it ran to its end.
  bool run(Attempt& a, SessionRunner& runner, const SourceFile& input);

  // Keeps the CUDA C++ of the last region that lies in the input, for :emit.
  void remember_region(const Attempt& a, const SourceFile& input);

  // -- statements (session_statements.cpp)

  // The top-level `let`s of main at the "leave" marker: the session's (the first `decls`
  // statements), then the input's (after `enter`); the last of a name wins.
  struct InScope {
    int slot;
    int binding;  // index into `bindings` for the session's own, else -1
    bool is_mut;
    const tir::Function::Aggregate* aggregate;  // a tuple or struct (slot: its first leaf)
  };
  // The binding that each of the session's declarations (main's first statements) declares.
  std::vector<int> binding_of_decl() const;
  // `of`: binding_of_decl(); `enter`: main's statement after the session's declarations.
  std::map<std::string, InScope> lets_in_scope(const Attempt& a, const tir::Function& main_fn,
                                               const std::vector<int>& of, size_t enter) const;

  // A tuple's or struct's value at "leave"; none when a leaf cannot be kept (a tensor that is no
  // array, a reference).
  static std::optional<Binding> take_aggregate(interp::Frame& f, const std::string& name,
                                               const tir::Function::Aggregate& aggregate,
                                               bool is_mut, const tir::Function& fn);
  bool eval_statements(const Input& in, bool type_only);

  // The input as :save writes it: a final expression becomes a statement, with the value the
  // REPL printed as a comment when it took one line; a tensor binding typed alone (shown, not
  // moved) only a comment.
  static std::string saved_statement(const std::string& text, const std::optional<TailSpan>& tail,
                                     bool shown, const std::string& value);

  // -- items (and whole programs) (session_items.cpp; eval, eval_uir and load: session.cpp)

  // The items of an input, parsed alone (its diagnostics are already in the input's terms).
  struct ParsedItems {
    std::vector<Item> items;  // without `main`
    std::set<std::string> names;
    bool has_main = false;
    std::string main_text;  // `fn main` with its name cut out: `fn ` and the rest
    size_t main_name_at = 0;
  };
  bool parse_items(const Input& in, const std::shared_ptr<const SourceFile>& input,
                   ParsedItems& out_items);
  // The session's items but those the input redefines, the input, and a `main` unless it has one.
  Composed compose_items(const Input& in, const ParsedItems& p) const;
  bool eval_items(const Input& in);
  static bool is_items(const std::string& text) { return is_items_input(text); }

  bool eval(const Input& in);
  bool eval_uir(const Input& in);
  bool load(const std::string& path);

  // -- :save (session.cpp)

  bool save(const std::string& path, bool overwrite);

  // -- :check (session_show.cpp)

  // With `map`, the maps of who writes what (:map) instead of the tables; with `map_file`, into
  // that file (:map svg FILE).
  void check_last(std::optional<kr::MapFormat> map = std::nullopt,
                  const std::string& map_file = {});

  // A struct item entered again may have other fields: a binding of the old struct could not be
  // declared as the new one, so it goes, with a note.
  void forget_bindings_of_struct(const std::string& name);

  // -- :show, :vars, and :type of a function (session_show.cpp)

  const Binding* binding(const std::string& name) const;
  const Item* function(const std::string& name) const;
  bool show(const std::string& text);
  void list_vars();

  // `:type f` for a function the session holds (and no binding hides): its signature.
  bool type_of_function(const std::string& expr);
};

}  // namespace vx::repl
