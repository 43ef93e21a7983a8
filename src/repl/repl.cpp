#include "repl/repl.hpp"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "check/tir.hpp"
#include "repl/explain_text.hpp"
#include "repl/interrupt.hpp"
#include "repl/line_editor.hpp"
#include "repl/uir_session.hpp"
#include "repl/wrapped.hpp"
#include "support/error_index.hpp"
#include "support/large_stack.hpp"
#include "support/suggest.hpp"

namespace vx::repl {

namespace {

constexpr const char* kHelp =
    R"(Type Vx statements and expressions; an expression's value is printed with its type.
`fn` and `const` items are defined (and redefined); `let` bindings stay for later inputs.
An input goes on over several lines while a (, [ or { is open, or while it ends where it
cannot (`let y = 3 +`): a blank line ends it there, two blank lines in a row end it anywhere.
Ctrl-C stops a running input (every binding stays as it was) or abandons the line typed.

  :help           this text
  :type EXPR      the type of an expression, without running it (of a fn: its signature)
  :show T[..]     a tensor binding, or a part of it: a row `t[1]`, a block `t[0..4][2..6]`
  :vars           every binding with its type, then the functions and constants
  :check          the kernel rules on the last kernel entered (a `spawn on` region, or a .uir
                  `range`), with the digit tables (--explain)
  :map            who writes each element of the last kernel's stores, drawn as text
  :map svg FILE   the same maps as an SVG picture, written into FILE
  :explain CODE   the long explanation of an error code (E0300, E6032, ...)
  :emit           the CUDA C++ of the last `spawn on` region entered
  :time [on|off]  print how long each region ran, and where (host or GPU)
  :uir            type the lesson's loop IR, .uir (an input goes on until each `range` has
                  its `end`); :vx goes back to Vx
  :load FILE      run a file's text as one input (a `fn main` in it runs once; FILE.uir: .uir)
  :reload         load the same file again
  :save FILE      write the accepted inputs as a program for `vx run` (FILE.uir: the .uir
                  inputs); a file that exists only as `:save! FILE`
  :reset          forget every binding and item
  :quit           leave (also Ctrl-D, or `quit` or `exit` alone)

TAB completes keywords, built-ins (lanes::, atomics, math) and the names in scope.
References (`&t`) and copy tokens last only for the input that makes them.
)";

const char* const kCommands[] = {":help",    ":type", ":show",  ":vars", ":check", ":map",
                                 ":explain", ":emit", ":time",  ":uir",  ":vx",    ":load",
                                 ":reload",  ":save", ":reset", ":quit"};

// clang-format off
const char* const kKeywords[] = {
    "fn", "let", "mut", "const", "if", "else", "while", "loop", "for", "in", "across",
    "blocks", "lanes", "spawn", "on", "return", "break", "continue", "true", "false", "as",
    "unsafe", "pub", "import", "transfer", "Tensor", "Token", "println!", "print!", "assert!",
    "assert_eq!", "Memory::CPU_DRAM", "Memory::HBM", "Memory::SMEM", "Topology::Device",
#define VX_ORDERING(Name, before, after, order) "AtomicOrdering::" #Name,
#define VX_FENCE_SCOPE(Name, cuda) "FenceScope::" #Name,
#include "check/orderings.def"
#undef VX_ORDERING
#undef VX_FENCE_SCOPE
};
// clang-format on

// The built-ins as builtins.def lists them: free functions, and methods (after a `.`).
void builtin_words(std::vector<std::string>& free_fns, std::vector<std::string>& methods) {
  using tir::BuiltinKind;
  for (const tir::BuiltinRow& row : tir::kBuiltinRows) {
    const char* spelling = row.spelling;
    const BuiltinKind kind = row.kind;
    if (kind == BuiltinKind::Atomic) {  // one per type with atomics (spec/builtins.md §3)
#define VX_SCALAR(E, name, ctype, bits, is_int, is_signed, is_float, cuda, atomic) \
  if (atomic) free_fns.push_back(std::string(spelling) + "_" + name);
#include "check/scalar_types.def"
#undef VX_SCALAR
    } else if (kind == BuiltinKind::Method || kind == BuiltinKind::Query)
      methods.push_back(spelling);
    else
      free_fns.push_back(spelling);
  }
}

// One REPL: its session and what it reads.
class Repl {
 public:
  Repl(const SessionOptions& options, std::ostream& out, std::ostream& err)
      : session_(options, out, err), out_(out), err_(err), color_(options.color) {}

  Session& session() { return session_; }

  // One line of input. Returns false after `:quit`.
  bool line(const std::string& text) {
    const bool blank = trim(text).empty();
    if (pending_.empty()) {
      if (trim(text).rfind(':', 0) == 0) return command(trim(text));
      if (blank) return true;
      // `help`, `quit` and `exit` alone, as one types them to a shell or to Python: the command
      // they mean, unless the session holds a name they would be (spec/cli.md §7).
      const std::string word = trim(text);
      if ((word == "help" || word == "quit" || word == "exit") && !holds_name(word))
        return command(":" + word);
    }
    pending_ += text + "\n";
    blank_run_ = blank ? blank_run_ + 1 : 0;
    // A blank line ends an input that is only unfinished; two in a row end an open one (the
    // parser then says what is left open).
    const InputEnd end = uir_mode_
                             ? (uir_input_is_open(pending_) ? InputEnd::Open : InputEnd::Complete)
                             : input_end(pending_);
    if (end == InputEnd::Open && blank_run_ < 2) return true;
    if (end == InputEnd::Unfinished && blank_run_ < 1) return true;
    run_pending();
    return true;
  }
  bool continuing() const { return !pending_.empty(); }
  // On a terminal, `:map svg` wants a file: the SVG's text is no picture there.
  void set_terminal(bool on) { terminal_ = on; }
  bool uir_mode() const { return uir_mode_; }
  void abandon() {
    pending_.clear();
    blank_run_ = 0;
  }
  // At the end of input: what is still open is run, so that the parser says what is missing.
  void finish() {
    if (!trim(pending_).empty()) run_pending();
  }

 private:
  bool command(const std::string& text) {
    const size_t sp = text.find_first_of(" \t");
    std::string name = text.substr(0, sp);
    const std::string arg = sp == std::string::npos ? "" : trim(text.substr(sp));
    auto need = [&](const char* what) {
      if (!arg.empty()) return true;
      err_ << "error: `" << name << "` needs " << what << "\n";
      return false;
    };
    if (name == ":quit" || name == ":q" || name == ":exit") return false;
    if (name == ":help" || name == ":h" || name == ":?") {
      out_ << kHelp;
    } else if (name == ":type" || name == ":t") {
      if (need("an expression")) with_large_stack([&] { return session_.type_of(arg) ? 0 : 1; });
    } else if (name == ":show") {
      if (need("a tensor binding, or a part of one (`t[1]`)")) session_.show(arg);
    } else if (name == ":vars") {
      with_large_stack([&] {
        session_.list_vars();
        return 0;
      });
    } else if (name == ":check") {
      with_large_stack([&] {
        session_.check_last();
        return 0;
      });
    } else if (name == ":map") {
      map(arg);
    } else if (name == ":explain") {
      if (need("an error code (E0300)")) {
        std::ostringstream text;
        if (explain_code(arg, text, err_) == 0) out_ << terminal_text(text.str(), color_);
      }
    } else if (name == ":emit") {
      session_.emit_last();
    } else if (name == ":time") {
      if (arg == "on" || arg == "off" || arg.empty()) {
        session_.set_timing(arg.empty() ? !session_.timing() : arg == "on");
        out_ << "timing " << (session_.timing() ? "on" : "off") << "\n";
      } else {
        err_ << "error: `:time` takes `on` or `off`\n";
      }
    } else if (name == ":uir") {
      uir_mode_ = true;
      out_ << "uir mode: type .uir lines; an input goes on until each `range` has its `end`; :vx "
              "goes back to Vx\n";
    } else if (name == ":vx") {
      if (uir_mode_) out_ << "vx mode\n";
      uir_mode_ = false;
    } else if (name == ":load") {
      if (need("a file")) with_large_stack([&] { return session_.load(arg) ? 0 : 1; });
    } else if (name == ":reload") {
      with_large_stack([&] { return session_.reload() ? 0 : 1; });
    } else if (name == ":save" || name == ":save!") {
      if (need("a file")) session_.save(arg, name == ":save!");
    } else if (name == ":reset") {
      session_.reset();
      out_ << "session reset\n";
    } else {
      err_ << "error: unknown command `" << name << "`";
      if (auto near = closest_name(name, {std::begin(kCommands), std::end(kCommands)}))
        err_ << "; did you mean `" << *near << "`?";
      err_ << " (:help lists the commands)\n";
    }
    out_.flush();
    err_.flush();
    return true;
  }

  // :map, :map svg FILE, and :map svg (the SVG's text on standard output, for the protocol and
  // Jupyter; on a terminal it asks for a file instead).
  void map(const std::string& arg) {
    const bool svg = arg == "svg" || arg.rfind("svg ", 0) == 0 || arg.rfind("svg\t", 0) == 0;
    const std::string file = svg ? trim(arg.substr(3)) : std::string();
    if (!arg.empty() && !svg) {
      err_ << "error: `:map` takes nothing, `svg`, or `svg FILE`\n";
      return;
    }
    if (svg && file.empty() && terminal_) {
      err_ << "error: `:map svg` needs a file on a terminal: `:map svg FILE.svg` writes the "
              "picture there (`:map` alone draws the map as text)\n";
      return;
    }
    with_large_stack([&] {
      session_.map_last(svg ? kr::MapFormat::Svg : kr::MapFormat::Text, file);
      return 0;
    });
  }

  bool holds_name(const std::string& name) const {
    const std::vector<std::string> names = session_.names();
    return std::find(names.begin(), names.end(), name) != names.end();
  }

  void run_pending() {
    const std::string input = std::move(pending_);
    pending_.clear();
    blank_run_ = 0;
    with_large_stack(
        [&] { return (uir_mode_ ? session_.eval_uir(input) : session_.eval(input)) ? 0 : 1; });
  }

  Session session_;
  std::ostream& out_;
  std::ostream& err_;
  bool color_ = false;     // `:explain` in colour
  bool terminal_ = false;  // reading a terminal (run_repl)
  std::string pending_;
  int blank_run_ = 0;  // blank lines in a row at the end of pending_
  bool uir_mode_ = false;
};

}  // namespace

std::vector<std::string> completions(const std::string& word, const std::string& line,
                                     const std::vector<std::string>& names) {
  std::vector<std::string> pool;
  const size_t word_at = line.size() - word.size();
  if (trim(line).rfind(':', 0) == 0 && line.find(' ') == std::string::npos) {
    pool.assign(std::begin(kCommands), std::end(kCommands));
  } else {
    std::vector<std::string> free_fns, methods;
    builtin_words(free_fns, methods);
    if (word_at > 0 && line[word_at - 1] == '.') {
      pool = methods;
    } else {
      pool = free_fns;
      pool.insert(pool.end(), std::begin(kKeywords), std::end(kKeywords));
#define VX_SCALAR(E, name, ctype, bits, is_int, is_signed, is_float, cuda, atomic) \
  pool.push_back(name);
#include "check/scalar_types.def"
#undef VX_SCALAR
      pool.insert(pool.end(), names.begin(), names.end());
    }
  }
  std::set<std::string> out;
  for (const std::string& p : pool)
    if (p.rfind(word, 0) == 0) out.insert(p);
  return {out.begin(), out.end()};
}

namespace {

// Starts a session, or says why it cannot start (an unreadable --machine file).
bool start(std::optional<Repl>& repl, const SessionOptions& options, std::ostream& out,
           std::ostream& err) {
  try {
    repl.emplace(options, out, err);
    return true;
  } catch (const std::runtime_error& e) {
    err << "error: " << e.what() << "\n";
    return false;
  }
}

}  // namespace

struct LineRepl::Impl {
  Impl(const SessionOptions& options, std::ostream& out, std::ostream& err)
      : repl(options, out, err) {}
  Repl repl;
};

LineRepl::LineRepl(const SessionOptions& options, std::ostream& out, std::ostream& err)
    : impl_(std::make_unique<Impl>(options, out, err)) {}
LineRepl::~LineRepl() = default;
bool LineRepl::line(const std::string& text) { return impl_->repl.line(text); }
bool LineRepl::continuing() const { return impl_->repl.continuing(); }
void LineRepl::finish() { impl_->repl.finish(); }
Session& LineRepl::session() { return impl_->repl.session(); }

int run_repl_stream(const SessionOptions& options, std::istream& in, std::ostream& out,
                    std::ostream& err) {
  std::optional<Repl> started;
  if (!start(started, options, out, err)) return 2;
  Repl& repl = *started;
  // A program's output shows as it is printed, also while a long input runs (a Jupyter cell's
  // progress, a loop about to be interrupted), not when the input ends.
  out.setf(std::ios::unitbuf);
  std::string text;
  while (std::getline(in, text))
    if (!repl.line(text)) return 0;
  repl.finish();
  return 0;
}

int run_repl(const SessionOptions& options) {
  if (!isatty(STDIN_FILENO)) return run_repl_stream(options, std::cin, std::cout, std::cerr);
  std::optional<Repl> started;
  if (!start(started, options, std::cout, std::cerr)) return 2;
  Repl& repl = *started;
  repl.set_terminal(true);
  std::cout.setf(std::ios::unitbuf);
  LineEditor editor("vx", [&](const std::string& word, const std::string& line) {
    return completions(word, line, repl.session().names());
  });
  std::cout
      << "vx repl: Vx statements, expressions and items; :help for the commands, :quit to leave\n";
  std::cout.flush();
  std::string text;
  // The lines of the input being typed: one history entry when it ends, so that Up brings back a
  // whole kernel (libedit shows and edits its newlines; Enter sends it as one input).
  std::string entry;
  for (;;) {
    bool interrupted = false;
    const char* prompt = repl.continuing() ? "... " : repl.uir_mode() ? "uir> " : "vx> ";
    if (!editor.read_line(prompt, text, interrupted)) break;
    if (interrupted) {  // Ctrl-C at the prompt: a key, not a signal, while libedit reads
      if (!repl.continuing() && trim(text).empty())
        std::cout << "(to leave, type :quit or press Ctrl-D)\n";
      repl.abandon();
      entry.clear();
      continue;
    }
    entry += (entry.empty() ? "" : "\n") + text;
    const bool go_on = repl.line(text);
    if (!repl.continuing()) {
      // Blank lines that ended the input are not part of it.
      while (entry.ends_with("\n")) entry.pop_back();
      if (!trim(entry).empty()) editor.add_history(entry);
      entry.clear();
    }
    if (!go_on) return 0;
  }
  std::cout << "\n";
  repl.finish();
  return 0;
}

}  // namespace vx::repl
