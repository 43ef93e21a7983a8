// How one input runs against the session.
//
// An input of statements is wrapped into a program the ordinary pipeline accepts:
//
//     <the session's items>
//     fn main() {
//     let n: i32 = 300i32;                    // one `let` per binding the session holds
//     let mut grid: Tensor<f32, [64, 300], Memory::HBM>;
//     spawn on(Topology::Device) { }          // marker "enter": the runner fills the slots
//     <the input; a final expression becomes `let __vx_it = EXPR;`>
//     spawn on(Topology::Device) { }          // marker "leave": the runner takes the slots
//     }
//
// The two empty regions are handed to our RegionRunner (interp/interpreter.hpp), which fills the
// `let` slots with the session's values at "enter" and takes the values of every binding in scope
// at "leave". So values persist without re-running what made them, and the interpreter is used
// unchanged. Tensors the input touches are copied in, so a runtime error half-way leaves the
// session's own copy as it was; the session takes the new values only when "leave" was reached
// and the run ended without an error. Integer bindings are declared with their value, so the
// kernel rules fold them as they would in a file; a tensor moved by an earlier input is declared
// and moved again (`let __vx_moved_0 = a;`), so that a use of it is E0301 as in a file.
//
// Nothing of the wrapping shows (spec/cli.md §7.6): a diagnostic is placed in the text the user
// typed (Composed::map), or in the earlier input that defined the item it points into; a label on
// a binding's declaration or move becomes a note that the binding comes from an earlier input; and
// what lies in no text the user typed is said without a place. `main()` would call the wrapper:
// it is E0101, since a `fn main` entered runs once and is not kept. While an input runs, Ctrl-C
// stops it (repl/interrupt.hpp) like a runtime error, leaving the session as it was.
#include "repl/session.hpp"

#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <iomanip>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

#include "check/tir_walk.hpp"
#include "interp/interpreter.hpp"
#include "interp/runtime.hpp"  // with_scalar and scalar_text: the interpreter's values
#include "offload/cuda_driver.hpp"
#include "offload/emit_cuda.hpp"
#include "offload/runner.hpp"
#include "parse/parser.hpp"
#include "pipeline/params.hpp"
#include "pipeline/pipeline.hpp"
#include "repl/interrupt.hpp"
#include "repl/report.hpp"
#include "repl/save.hpp"
#include "repl/tensor_text.hpp"
#include "repl/uir_session.hpp"
#include "repl/wrapped.hpp"
#include "support/suggest.hpp"

namespace vx::repl {

namespace {

constexpr const char* kMarker = "spawn on(Topology::Device) { }\n";
constexpr const char* kIt = "__vx_it";  // the binding that holds the value of a final expression

// ---- Values -------------------------------------------------------------------------------------

// A scalar as `{}` prints it; a `&str` as `{:?}` does (quoted, so that `""` shows).
std::string value_text(const Type& t, uint64_t bits) {
  if (t.kind != TypeKind::String) return interp::scalar_text(t.scalar, bits);
  fmt::Spec debug;
  debug.kind = '?';
  return fmt::format_str(interp::string_of(bits), debug);
}

// One element as `{}` prints it; `?` when it was never written.
std::string element_text(Scalar s, const interp::TensorView& v, int64_t offset) {
  if (v.init && !v.init[offset]) return "?";
  return interp::scalar_text(s, interp::element_bits(s, v.data + offset * interp::scalar_size(s)));
}

// `= VALUE : TYPE`: the type stays on the value's line while the value takes one line (a scalar,
// a short row), else it has a line of its own, so that the grid's columns stay clear of it.
std::string value_line(const std::string& value, const std::string& type) {
  return "= " + value + (value.find('\n') == std::string::npos ? " : " : "\n: ") + type + "\n";
}

std::string elements_note(int64_t n) {
  return std::to_string(n) + (n == 1 ? " element" : " elements");
}

// A value as the REPL shows it: its text and its type.
struct Shown {
  std::string value, type;
  std::string line() const { return value_line(value, type); }
};

// A whole tensor: its grid, its type and its size, as `(24 elements in CPU_DRAM)`.
Shown tensor_shown(const Type& t, const interp::TensorView& v) {
  const Layout layout = row_major(std::vector<int64_t>(v.dims, v.dims + v.rank));
  const std::string grid = grid_text(
      layout, [&](int64_t at) { return element_text(t.scalar, v, at); }, 2);
  return {grid, type_name(t) + " (" + elements_note(v.size) + " in " + memory_name(t.memory) + ")"};
}

std::string int_literal(Scalar s, uint64_t bits) {
  const std::string suffix = scalar_info(s).name;
  if (is_signed_int(s)) return std::to_string(static_cast<int64_t>(bits)) + suffix;
  return std::to_string(bits) + suffix;
}

// A binding the session holds between inputs.
struct Binding {
  std::string name;
  Type type;
  bool is_mut = false;
  uint64_t bits = 0;                              // a scalar's value (interp::to_bits)
  std::unique_ptr<interp::TensorStorage> tensor;  // a tensor's elements
  bool moved = false;  // a tensor moved away: kept so that a use is E0301, as in a file
  // A tuple or struct: its leaves' values in order (bits or tensor; their name and type unused).
  // It is declared as one `let`, which the checker makes one local per leaf (spec/types.md §8).
  std::vector<Binding> leaves;
  size_t locals() const { return type.is_tuple() ? leaves.size() : 1; }
};

// A tuple's or struct's value as `{:?}` prints it.
std::string aggregate_text(const Binding& b) {
  size_t k = 0;
  return aggregate_debug(b.type, [&](const Type& t) {
    fmt::Spec debug;
    debug.kind = '?';
    const Binding& leaf = b.leaves[k++];
    if (leaf.tensor) return interp::format_array(t.scalar, interp::whole_view(*leaf.tensor), debug);
    if (t.kind == TypeKind::String) return fmt::format_str(interp::string_of(leaf.bits), debug);
    return interp::format_scalar(t.scalar, leaf.bits, debug);
  });
}

// Whether the type is the struct `name` or holds it.
bool mentions_struct(const Type& t, const std::string& name) {
  if (t.is_struct() && t.name == name) return true;
  return std::any_of(t.elems.begin(), t.elems.end(),
                     [&](const Type& e) { return mentions_struct(e, name); });
}

std::unique_ptr<interp::TensorStorage> copy_storage(const interp::TensorStorage& s) {
  auto c = std::make_unique<interp::TensorStorage>(s.elem, s.memory, s.dims, s.init != nullptr);
  std::memcpy(c->data, s.data, static_cast<size_t>(s.size) * interp::scalar_size(s.elem));
  if (s.init) std::memcpy(c->init.get(), s.init.get(), static_cast<size_t>(s.size));
  return c;
}

// An item the session holds: a `fn`, a `const`, or (no name) an `import` or attribute.
struct Item {
  std::string name;
  std::string kind;  // "fn", "const", ""
  std::string text;
  std::string signature;  // a fn's, as `fn(x: i32) -> i32`, for :type and :vars
  // The input it came from (`<repl>` or a :load path) and where its text starts there: a
  // diagnostic that points into it is shown there.
  std::shared_ptr<const SourceFile> origin;
  uint32_t from = 0;
  size_t defined_at = 0;   // the number of inputs :save holds when it was (last) defined
  bool redefined = false;  // defined more than once
};

}  // namespace

// ---- The session --------------------------------------------------------------------------------

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

  Impl(SessionOptions o, std::ostream& out_, std::ostream& err_)
      : options(std::move(o)), out(out_), err(err_), uir(out_, err_, hooks) {}

  // -- diagnostics, placed in what the user typed

  // Where a span lies: the input, or the text of a session item (entered earlier).
  struct Place {
    const SourceFile* file = nullptr;
    Span span;
    int source = Composed::kInput;
  };
  std::optional<Place> place(const Composed& c, Span s, const SourceFile& input) const {
    const std::optional<int> source = c.source_of(s);
    if (!source) return std::nullopt;
    Place p;
    p.source = *source;
    if (*source == Composed::kInput) {
      p.file = &input;
    } else {
      const Item& it = items[*source];
      if (!it.origin) return std::nullopt;
      p.file = it.origin.get();
    }
    if (!c.map(s, p.span, *source)) return std::nullopt;
    return p;
  }
  std::string item_words(const Item& it) const {
    return it.name.empty() ? "an item entered earlier"
                           : "`" + it.kind + " " + it.name + "`, entered earlier";
  }
  void report(std::ostream& o, const Diagnostic& d, const Composed& c,
              const SourceFile& input) const {
    Diagnostic m = d;
    for (std::string& h : m.helps)  // the REPL's own way to the tables
      if (auto at = h.find("`vx check --explain`"); at != std::string::npos)
        h.replace(at, std::strlen("`vx check --explain`"), "`:check`");
    // The REPL's own way to look at a tensor in HBM: without a transfer.
    if (d.code == "E0400" && d.message.find("which is in HBM") != std::string::npos) {
      const size_t a = d.message.find('`'), b = d.message.find('`', a + 1);
      const std::string name = d.message.substr(a + 1, b - a - 1);
      m.helps.push_back("to look at it, type `" + name + "` alone or `:show " + name +
                        "[…]`: the REPL reads HBM without a transfer");
    }
    const std::optional<Place> primary = place(c, d.span, input);
    std::vector<std::string> notes;
    if (primary && primary->source != Composed::kInput)
      notes.push_back("in " + item_words(items[primary->source]));
    else if (const Composed::Decl* decl = !primary ? c.decl_of(d.span) : nullptr)
      notes.push_back("`" + decl->name + "` comes from an earlier input");
    m.secondary.clear();
    for (const Label& l : d.secondary) {
      const std::optional<Place> p = place(c, l.span, input);
      if (p && primary && p->file == primary->file) {
        m.secondary.push_back({p->span, l.text});
      } else if (p) {
        const LineCol lc = p->file->line_col(p->span.begin);
        notes.push_back(
            l.text + ": " +
            (p->source == Composed::kInput ? "the input" : item_words(items[p->source])) + ", at " +
            p->file->path() + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.col));
      } else if (const Composed::Decl* decl = c.decl_of(l.span)) {
        notes.push_back(
            "`" + decl->name + "` " +
            (decl->moved ? "was moved by an earlier input" : "comes from an earlier input"));
      }
    }
    m.notes.insert(m.notes.begin(), notes.begin(), notes.end());
    // A bracket the input left open meets the wrapper's closing `}`: say it as the parser says
    // it at the end of a file, at the bracket.
    if (!primary && d.code == "E0002" && d.secondary.size() == 1 &&
        d.secondary[0].text.size() > 2 && d.secondary[0].text[0] == '`') {
      if (auto open = place(c, d.secondary[0].span, input); open && open->file == &input) {
        const char bracket = d.secondary[0].text[1];
        const char close = bracket == '(' ? ')' : bracket == '[' ? ']' : '}';
        m = d;
        m.message = std::string("unclosed delimiter `") + bracket + "`";
        m.span = open->span;
        m.label = "unclosed delimiter";
        m.secondary.clear();
        m.notes = {std::string("the input ends before the `") + close + "` that closes it"};
        deliver(o, &input, m);
        return;
      }
    }
    // The parser's `found `}`` about the wrapper's own text: the input ended there.
    if (d.code == "E0001" && (!primary || primary->file == &input) &&
        (!primary || (d.secondary.size() == 1 && !place(c, d.secondary[0].span, input))) &&
        at_end_of_input(m, input, !primary) && !primary) {
      deliver(o, &input, m);
      return;
    }
    if (primary) {
      m.span = primary->span;
      deliver(o, primary->file, m);
    } else {
      deliver(o, nullptr, m);
    }
  }
  // A syntax error that met what follows the input (the wrapper's text, or the end of the text)
  // is about the end of the input: said so (`found the end of the input`, `unexpected end of the
  // input`), and with `place`, placed where the input's code ends. False when it is not one.
  static bool at_end_of_input(Diagnostic& m, const SourceFile& input, bool place) {
    const size_t found = m.message.find(", found ");
    const bool unexpected = m.message.rfind("unexpected ", 0) == 0;
    if (found == std::string::npos && !unexpected) return false;
    m.message = unexpected ? "unexpected end of the input"
                           : m.message.substr(0, found) + ", found the end of the input";
    if (place) {
      const size_t end = input.text().find_last_not_of(" \t\r\n") + 1;  // npos + 1 == 0: blank
      m.span = {static_cast<uint32_t>(end), static_cast<uint32_t>(end)};
    }
    return true;
  }
  void deliver(std::ostream& o, const SourceFile* file, const Diagnostic& m) const {
    repl::deliver(hooks, o, file, m);
  }
  void report_all(const Attempt& a, const SourceFile& input) const {
    for (const Diagnostic& d : a.diags()->list()) {
      // A binding is used by later inputs, and a warning about the session's own wrapping is not
      // the user's: only warnings about the input, and not of unused bindings.
      Span in_input;
      if (d.severity == Severity::Warning &&
          (d.lint == "unused_variables" || d.lint == "unused_mut" ||
           !a.composed.map(d.span, in_input)))
        continue;
      report(err, d, a.composed, input);
    }
    err.flush();
  }

  // -- composing

  void glue_items(Composed& c, const std::set<std::string>& except = {}) const {
    for (size_t k = 0; k < items.size(); ++k) {
      const Item& it = items[k];
      if (!it.name.empty() && except.count(it.name)) continue;
      c.item(it.text, it.from, static_cast<int>(k));
      c.glue("\n");
    }
  }

  enum class Tail { None, Let, Drop };
  struct TailSpan {
    size_t begin = 0, end = 0;
  };

  Composed compose_statements(const std::string& in, const std::optional<TailSpan>& tail, Tail mode,
                              bool leave) const {
    Composed c;
    glue_items(c);
    c.glue("fn main() {\n");
    for (const Binding& b : bindings) {
      std::string d =
          std::string("let ") + (b.is_mut ? "mut " : "") + b.name + ": " + type_name(b.type);
      if (b.type.is_scalar(Scalar::Bool))
        d += b.bits ? " = true" : " = false";
      else if (b.type.is_scalar() && is_int(b.type.scalar))
        d += " = " + int_literal(b.type.scalar, b.bits);
      c.decl(d + ";\n", b.name, false);
    }
    int k = 0;  // a moved binding is moved again here, so the checker knows it as moved
    for (const Binding& b : bindings)
      if (b.moved)
        c.decl("let __vx_moved_" + std::to_string(k++) + " = " + b.name + ";\n", b.name, true);
    c.glue(kMarker);
    if (tail && mode != Tail::None) {
      c.input(in, 0, tail->begin);
      if (mode == Tail::Let) {
        c.glue(std::string("let ") + kIt + " = ");
        c.input(in, tail->begin, tail->end);
        c.glue(";");
      }
      c.input(in, tail->end, in.size());
    } else {
      c.input(in, 0, in.size());
    }
    c.glue("\n");
    if (leave) c.glue(kMarker);
    c.glue("}\n");
    return c;
  }

  // The expression at the end of the input, if any (from a parse of the input as main's body).
  std::optional<TailSpan> find_tail(const std::string& in, const SourceFile& input, bool& parsed) {
    // A bracket, string or comment the input leaves open (or a stray closer) would meet the
    // wrapper's own `{` and `}`: the pre-scan of the input alone says it at the input's text.
    {
      Diagnostics alone(std::make_shared<const SourceFile>(input.path(), input.text()));
      if (!prescan(alone.file(), alone)) {
        parsed = false;
        for (Diagnostic d : alone.list()) {
          // Said of the input, without a line and column: the protocol counts lines from its
          // request's first line, not the input's (spec/cli.md §7.7).
          for (std::string& n : d.notes) {
            if (n.rfind("the file ends", 0) != 0) continue;
            n.replace(0, 13, "the input ends");
            if (const size_t at = n.find(" that closes the "); at != std::string::npos)
              n = n.substr(0, at) + " that closes it";
          }
          deliver(err, &input, d);
        }
        err.flush();
        return std::nullopt;
      }
    }
    Attempt a =
        run_pipeline(compose_statements(in, std::nullopt, Tail::None, false), machine, false, true);
    parsed = a.parsed() != nullptr;
    if (!parsed) {
      report_all(a, input);
      return std::nullopt;
    }
    const ast::FnItem* main_fn = nullptr;
    for (const ast::Item& it : a.parsed()->program.items)
      if (const auto* f = boost::get<ast::FnItem>(&it); f && f->name.name == "main") main_fn = f;
    if (!main_fn || main_fn->body.stmts.empty()) return std::nullopt;
    const auto* es = boost::get<ast::ExprStmt>(&main_fn->body.stmts.back());
    if (!es || es->semicolon || es->assign) return std::nullopt;
    Span s;
    if (!a.composed.map(a.parsed()->span(*es), s)) return std::nullopt;
    return TailSpan{s.begin, s.end};
  }

  // `main()` would call the wrapper (or, in an input of items, the empty `main` added to it):
  // E0101, as for any function the session does not hold. The checker cannot say it, since the
  // wrapper is there.
  bool refuse_main_calls(const Attempt& a, const SourceFile& input) const {
    const tir::Program& p = *a.program();
    std::optional<Span> call;
    for (const tir::Function& f : p.functions)
      tir::walk_block(f.body, [&](const tir::Stmt*, const tir::Expr* e) {
        if (e && e->kind == tir::ExprKind::Call && e->fn_index == p.main_index && !call)
          call = e->span;
      });
    if (!call) return false;
    Diagnostic d;
    d.code = "E0101";
    d.message = "cannot find function `main`";
    d.span = {call->begin, std::min<uint32_t>(call->begin + 4, call->end)};
    d.label = "not found";
    d.notes.push_back(
        "a `fn main` entered in the REPL runs once, when it is entered: it is not kept");
    if (!last_load.empty()) d.helps.push_back("`:reload` reads `" + last_load + "` again");
    report(err, d, a.composed, input);
    err.flush();
    return true;
  }

  // -- running

  std::string runner_mode(const Attempt& a) {
    if (options.offload == "off") return "off";
    if (!device_probed) {
      bool any = false;  // a region of the user's (not a marker)
      std::function<void(const tir::Block*)> find = [&](const tir::Block* b) {
        if (!b) return;
        for (const tir::Stmt* s : b->stmts) {
          if (s->kind == tir::StmtKind::Spawn && !s->body->stmts.empty()) any = true;
          find(s->body);
        }
      };
      for (const auto& f : a.program()->functions) find(f.body);
      if (!any) return "off";
      device_probed = true;
      offload::CudaDriver driver;
      std::string why;
      device_ok = driver.open(why);
      if (!device_ok) err << "no CUDA device\n";
    }
    return device_ok ? options.offload : "off";
  }

  // Runs the program of `a`; `runner` has its markers set. Returns true when it ran to its end.
  bool run(Attempt& a, SessionRunner& runner, const SourceFile& input) {
    pipeline::RunRequest request;
    request.offload.mode = runner_mode(a);
    request.max_steps = options.max_steps;
    request.max_seconds = options.max_seconds;
    request.interrupt = interrupt_flag();
    request.around = [&](offload::OffloadRunner* offload) {
      runner.offload = offload;
      return &runner;
    };
    if (timing || hooks.region_ran)
      runner.on_timed = [&](const tir::Stmt& spawn, bool gpu, double ms) {
        Span s;
        std::string where = "a region";
        const bool mine = a.composed.map(spawn.span, s);
        if (mine) where = "the region at " + location(input, s);
        if (hooks.region_ran) hooks.region_ran(input, mine ? s : Span{}, gpu, ms);
        if (!timing) return;
        std::ostringstream line;
        line << "time: " << where << " ran on the " << (gpu ? "GPU" : "host") << " in "
             << std::fixed << std::setprecision(3) << ms << " ms\n";
        out << line.str();
      };
    bool failed = false;
    request.report_error = [&](std::ostream& o, const Diagnostic& d) {
      failed = true;
      if (is_interrupt(d) && interrupt_requested()) {
        interrupted = true;
        if (hooks.interrupted) hooks.interrupted();
        fresh_line_after_ctrl_c(o);
        report(o, interrupt_report(d), a.composed, input);
      } else {
        report(o, d, a.composed, input);
      }
    };
    const int status = pipeline::run(a.c, request, out, err);
    out.flush();
    return !failed && status == 0;
  }

  // Keeps the CUDA C++ of the last region that lies in the input, for :emit.
  void remember_region(const Attempt& a, const SourceFile& input) {
    for (const auto& r : offload::emit_regions(*a.program())) {
      Span s;
      if (!r.spawn || r.spawn->body->stmts.empty() || !a.composed.map(r.spawn->span, s)) continue;
      std::string source = r.source;
      if (source.rfind("// <session>", 0) == 0) source.erase(0, source.find('\n') + 1);  // our own
      last_region = "// the region at " + location(input, s) + " (" + r.name + ")\n" +
                    (r.ok ? source : "// not emitted: " + r.reason + "\n");
    }
  }

  // -- statements

  // The top-level `let`s of main at the "leave" marker: the session's (the first `decls`
  // statements), then the input's (after `enter`); the last of a name wins.
  struct InScope {
    int slot;
    int binding;  // index into `bindings` for the session's own, else -1
    bool is_mut;
    const tir::Function::Aggregate* aggregate;  // a tuple or struct (slot: its first leaf)
  };
  // The binding that each of the session's declarations (main's first statements) declares.
  std::vector<int> binding_of_decl() const {
    std::vector<int> of;
    for (size_t b = 0; b < bindings.size(); ++b)
      of.insert(of.end(), bindings[b].locals(), static_cast<int>(b));
    return of;
  }
  // `of`: binding_of_decl(); `enter`: main's statement after the session's declarations.
  std::map<std::string, InScope> lets_in_scope(const Attempt& a, const tir::Function& main_fn,
                                               const std::vector<int>& of, size_t enter) const {
    std::map<uint32_t, bool> let_mut;  // the input's `let`s (the TIR does not keep `mut`)
    for (const ast::Item& item : a.parsed()->program.items)
      if (const auto* f = boost::get<ast::FnItem>(&item); f && f->name.name == "main")
        for (const ast::Stmt& s : f->body.stmts)
          if (const auto* l = boost::get<ast::LetStmt>(&s))
            let_mut[a.parsed()->span(s).begin] = l->is_mut;
    std::map<std::string, InScope> scope;
    const size_t decls = of.size();
    const auto& stmts = main_fn.body->stmts;
    for (size_t i = 0; i + 1 < stmts.size(); ++i) {
      const tir::Stmt* s = stmts[i];
      if (s->kind != tir::StmtKind::Let || s->slot < 0 || (i >= decls && i < enter)) continue;
      // A tuple or struct is the `let` of its first leaf (`t.0`, `p.x`: check_tuple.cpp); the
      // other leaves, and the checker's temporaries, are no names of their own.
      const auto found = main_fn.aggregates.find(s->slot);
      const tir::Function::Aggregate* aggregate =
          found != main_fn.aggregates.end() ? &found->second : nullptr;
      const size_t dot = s->var_name.find('.');
      if (dot != std::string::npos && !aggregate) continue;
      const std::string name = s->var_name.substr(0, dot);
      if (i < decls)
        scope[name] = {s->slot, of[i], bindings[static_cast<size_t>(of[i])].is_mut, aggregate};
      else
        scope[name] = {s->slot, -1,
                       aggregate ? static_cast<bool>(main_fn.slot_mut[static_cast<size_t>(s->slot)])
                                 : let_mut[s->span.begin],
                       aggregate};
    }
    return scope;
  }

  // A tuple's or struct's value at "leave"; none when a leaf cannot be kept (a tensor that is no
  // array, a reference).
  static std::optional<Binding> take_aggregate(interp::Frame& f, const std::string& name,
                                               const tir::Function::Aggregate& aggregate,
                                               bool is_mut, const tir::Function& fn) {
    Binding b{name, aggregate.type, is_mut, 0, nullptr, false, {}};
    for (int slot : aggregate.leaves) {
      const Type& t = fn.slot_types[static_cast<size_t>(slot)];
      Binding leaf{"", t, false, 0, nullptr, false, {}};
      if (t.is_scalar() || t.kind == TypeKind::String) {
        leaf.bits = f.s[slot];
      } else if (t.is_array() && f.t[slot].owned) {
        leaf.tensor = std::move(f.t[slot].owned);
        f.t[slot].clear();
      } else {
        return std::nullopt;
      }
      b.leaves.push_back(std::move(leaf));
    }
    return b;
  }

  bool eval_statements(const Input& in, bool type_only) {
    SourceFile input(in.name, in.text);
    bool parsed = false;
    std::optional<TailSpan> tail = find_tail(in.text, input, parsed);
    if (!parsed) return false;
    if (type_only && !tail) {
      err << "error: `:type` needs an expression\n";
      return false;
    }
    Attempt a = run_pipeline(compose_statements(in.text, tail, Tail::Let, true), machine, false);
    if (!a.program()) {
      report_all(a, input);
      return false;
    }
    if (refuse_main_calls(a, input)) return false;
    const tir::Function* main_fn = &a.program()->functions[a.program()->main_index];
    auto it_slot = [&]() -> int {
      int slot = -1;
      for (const tir::Stmt* s : main_fn->body->stmts)
        if (s->kind == tir::StmtKind::Let && s->var_name == kIt) slot = s->slot;
      return slot;
    };
    std::string tail_text = tail ? in.text.substr(tail->begin, tail->end - tail->begin) : "";
    if (type_only) {
      const int slot = it_slot();
      if (slot < 0) return false;
      out << trim(tail_text) << " : " << type_name(main_fn->slot_types[slot]) << "\n";
      return true;
    }
    // A tensor binding typed alone is shown, not moved into the value.
    std::string show;
    if (tail && it_slot() >= 0 && main_fn->slot_types[it_slot()].kind == TypeKind::Tensor &&
        is_identifier(trim(tail_text))) {
      show = trim(tail_text);
      a = run_pipeline(compose_statements(in.text, tail, Tail::Drop, true), machine, false);
      if (!a.program()) {
        report_all(a, input);
        return false;
      }
      main_fn = &a.program()->functions[a.program()->main_index];
    }
    remember_region(a, input);

    const auto& stmts = main_fn->body->stmts;
    const std::vector<int> of = binding_of_decl();
    const size_t decls = of.size();
    const size_t enter = decls + std::count_if(bindings.begin(), bindings.end(),
                                               [](const Binding& b) { return b.moved; });
    const std::map<std::string, InScope> scope = lets_in_scope(a, *main_fn, of, enter);
    std::set<int> touched;
    visit_exprs(main_fn->body, [&](const tir::Expr* e) {
      if (e->kind == tir::ExprKind::Var) touched.insert(e->slot);
    });

    SessionRunner runner;
    runner.enter = stmts[enter];
    runner.leave = stmts.back();
    runner.on_enter = [&](interp::Frame& f) {
      size_t i = 0;  // main's statement that declares the next local
      auto fill = [&](const Binding& b, bool always) {
        const int slot = stmts[i++]->slot;
        if (b.moved) return;
        if (!b.tensor)
          f.s[slot] = b.bits;
        else if (always || touched.count(slot))
          f.t[slot].own(copy_storage(*b.tensor));
      };
      for (const Binding& b : bindings) {
        if (!b.type.is_tuple()) fill(b, false);
        for (const Binding& leaf : b.leaves) fill(leaf, true);  // a tuple's or struct's
      }
    };
    bool left = false;
    std::vector<Binding> taken;
    std::set<std::string> gone;  // moved, or shadowed by what cannot be kept
    Shown value;
    runner.on_leave = [&](interp::Frame& f) {
      left = true;
      for (auto& [name, sc] : scope) {
        if (sc.aggregate) {
          std::optional<Binding> b = take_aggregate(f, name, *sc.aggregate, sc.is_mut, *main_fn);
          if (name == kIt && b) {
            value = {aggregate_text(*b), type_name(b->type)};
          } else if (!b) {
            gone.insert(name);
            if (name != kIt && holds_tensor(sc.aggregate->type))  // spec/cli.md §7
              err << "note: `" << name << "` is a `" << type_name(sc.aggregate->type)
                  << "`, a struct holding a tensor: the session does not keep it after this "
                     "input\n";
          } else
            taken.push_back(std::move(*b));
          continue;
        }
        const Type& t = main_fn->slot_types[sc.slot];
        if (name == kIt) {
          if (t.is_scalar() || t.kind == TypeKind::String)
            value = {value_text(t, f.s[sc.slot]), type_name(t)};
          else if (t.is_array() && f.t[sc.slot].view.data)
            value = {interp::format_array(t.scalar, f.t[sc.slot].view, fmt::Spec{.kind = '?'}),
                     type_name(t)};
          else if (t.is_tensor_like() && f.t[sc.slot].view.data)
            value = tensor_shown(t, f.t[sc.slot].view);
          continue;
        }
        const bool untouched_tensor = sc.binding >= 0 &&
                                      (t.kind == TypeKind::Tensor || t.is_array()) &&
                                      (!touched.count(sc.slot) || bindings[sc.binding].moved);
        if (untouched_tensor) continue;
        Binding b{name, t, sc.is_mut, 0, nullptr, false, {}};
        if (t.is_scalar() || t.kind == TypeKind::String) {  // a `&str` is its interned text
          b.bits = f.s[sc.slot];
        } else if ((t.kind == TypeKind::Tensor || t.is_array()) && f.t[sc.slot].owned) {
          b.tensor = std::move(f.t[sc.slot].owned);
          f.t[sc.slot].clear();
        } else if (t.kind == TypeKind::Tensor) {
          b.moved = true;
        } else {
          gone.insert(name);
          continue;
        }
        taken.push_back(std::move(b));
      }
    };
    if (!run(a, runner, input)) return false;
    if (!left) {
      err << "note: `return` ended the input early: its bindings are not kept\n";
      err.flush();
      return true;
    }
    for (Binding& b : taken) {
      auto same = std::find_if(bindings.begin(), bindings.end(),
                               [&](const Binding& x) { return x.name == b.name; });
      if (same != bindings.end())
        *same = std::move(b);
      else
        bindings.push_back(std::move(b));
    }
    std::erase_if(bindings, [&](const Binding& b) { return gone.count(b.name) > 0; });
    for (const Binding& b : bindings)
      if (b.name == show && b.tensor) value = tensor_shown(b.type, interp::whole_view(*b.tensor));
    if (!value.type.empty() && hooks.value)
      hooks.value(value.value, value.type, value.line());
    else if (!value.type.empty())
      out << value.line();
    out.flush();
    saved_statements.push_back(
        saved_statement(in.text, tail, !show.empty(), value.type.empty() ? "" : value.line()));
    saved_values = saved_values || (tail && show.empty());
    return true;
  }

  // The input as :save writes it: a final expression becomes a statement, with the value the
  // REPL printed as a comment when it took one line; a tensor binding typed alone (shown, not
  // moved) only a comment.
  static std::string saved_statement(const std::string& text, const std::optional<TailSpan>& tail,
                                     bool shown, const std::string& value) {
    if (!tail) return text;
    const std::string expr = text.substr(tail->begin, tail->end - tail->begin);
    std::string stmt;
    if (shown) {
      stmt = "// " + expr + ": shown by the REPL";
    } else {
      stmt = expr + ";";
      if (!value.empty() && value.find('\n') + 1 == value.size())
        stmt += "  // " + value.substr(0, value.size() - 1);
    }
    return text.substr(0, tail->begin) + stmt + text.substr(tail->end);
  }

  // -- items (and whole programs)

  // The items of an input, parsed alone (its diagnostics are already in the input's terms).
  struct ParsedItems {
    std::vector<Item> items;  // without `main`
    std::set<std::string> names;
    bool has_main = false;
    std::string main_text;  // `fn main` with its name cut out: `fn ` and the rest
    size_t main_name_at = 0;
  };
  bool parse_items(const Input& in, const std::shared_ptr<const SourceFile>& input,
                   ParsedItems& out_items) {
    pipeline::Options parse_only;
    parse_only.through = pipeline::Step::Parse;
    const pipeline::Compiled c =
        pipeline::compile(std::make_shared<SourceFile>(*input), parse_only);
    if (!c.ok()) {
      // An item cut short meets the end of the text: said as the end of the input, where its
      // code ends (not past its last newline).
      Diagnostics said(input);
      const size_t code_end = in.text.find_last_not_of(" \t\r\n") + 1;
      for (Diagnostic d : c.diags->list()) {
        if (d.code == "E0001" && d.span.begin >= code_end && d.message.ends_with("end of file"))
          at_end_of_input(d, *input, true);
        said.add(std::move(d));
      }
      if (hooks.diagnostic)
        for (const Diagnostic& d : said.list()) hooks.diagnostic(*input, d);
      else
        emit_diagnostics(err, said, ErrorFormat::Human, ":explain");
      return false;
    }
    const ParsedProgram* parsed = c.parsed.get();
    for (const ast::Item& it : parsed->program.items) {
      Item item;
      Span s = boost::apply_visitor([&](const auto& x) { return parsed->span(x); }, it.get());
      using Named = std::pair<std::string, std::string>;  // its name and kind
      std::tie(item.name, item.kind) = ast::visit(
          it, [](const ast::Attribute&) { return Named(); },
          [](const ast::ImportItem&) { return Named(); },
          [](const ast::FnItem& f) { return Named(f.name.name, "fn"); },
          [](const ast::ConstItem& c) { return Named(c.name.name, "const"); },
          [](const ast::StructItem& st) { return Named(st.name.name, "struct"); });
      item.text = in.text.substr(s.begin, s.end - s.begin);
      item.origin = input;
      item.from = s.begin;
      if (item.name == "main") {
        out_items.has_main = true;
        const Span name = parsed->span(ast::must_get<ast::FnItem>(it).name);
        out_items.main_text =
            item.text.substr(0, name.begin - s.begin) + item.text.substr(name.end - s.begin);
        out_items.main_name_at = name.begin - s.begin;
        continue;
      }
      if (!item.name.empty()) out_items.names.insert(item.name);
      out_items.items.push_back(item);
    }
    return true;
  }
  // The session's items but those the input redefines, the input, and a `main` unless it has one.
  Composed compose_items(const Input& in, const ParsedItems& p) const {
    Composed c;
    glue_items(c, p.names);
    c.input(in.text, 0, in.text.size());
    c.glue(p.has_main ? "\n" : "\nfn main() {\n}\n");
    return c;
  }

  bool eval_items(const Input& in) {
    auto input = std::make_shared<const SourceFile>(in.name, in.text);
    ParsedItems p;
    if (!parse_items(in, input, p)) return false;
    Composed c = compose_items(in, p);
    Attempt a = run_pipeline(std::move(c), machine, false);
    if (!a.program()) {
      report_all(a, *input);
      return false;
    }
    if (!p.has_main && refuse_main_calls(a, *input)) return false;
    remember_region(a, *input);
    if (p.has_main) {
      SessionRunner runner;  // no markers: main is the program's own
      if (!run(a, runner, *input)) return false;
      // :save keeps its run as a call of its main, renamed.
      std::string name = "main_" + std::to_string(saved_mains.size() + 1);
      while (function(name) || p.names.count(name)) name += "_";
      saved_mains.push_back(p.main_text.substr(0, p.main_name_at) + name +
                            p.main_text.substr(p.main_name_at));
      saved_statements.push_back(name + "();");
    }
    for (Item& item : p.items) {
      for (const tir::Function& f : a.program()->functions)
        if (item.kind == "fn" && f.name == item.name) item.signature = params::signature(f);
      auto same = std::find_if(items.begin(), items.end(), [&](const Item& x) {
        return item.name.empty() ? x.text == item.text : x.name == item.name;
      });
      if (!item.name.empty())
        out << (same != items.end() ? "redefined " : "defined ") << item.kind << " " << item.name
            << "\n";
      item.defined_at = saved_statements.size();
      item.redefined = same != items.end();
      if (item.redefined && item.kind == "struct") forget_bindings_of_struct(item.name);
      if (same != items.end())
        *same = std::move(item);
      else
        items.push_back(std::move(item));
    }
    out.flush();
    return true;
  }

  static bool is_items(const std::string& text) { return is_items_input(text); }

  bool eval(const Input& in) {
    if (trim(in.text).empty()) return true;
    RunningInput running;
    interrupted = false;
    if (has_word(in.text, "spawn")) {
      last_kernel = Kernel::Vx;
      last_vx_kernel = in;
    }
    return is_items(in.text) ? eval_items(in) : eval_statements(in, false);
  }

  bool eval_uir(const Input& in) {
    if (trim(in.text).empty()) return true;
    RunningInput running;
    if (uir_has_range(in.text)) last_kernel = Kernel::Uir;
    const bool ok = uir.eval(in.name, in.text, options.max_steps, options.max_seconds);
    interrupted = !ok && interrupt_requested();
    if (interrupted && hooks.interrupted) hooks.interrupted();
    return ok;
  }

  bool load(const std::string& path) {
    // At most 16 MiB and a byte are read, so `:load /dev/zero` is refused at once (E0003).
    int status = 0;
    auto file = read_source_or_report(path, err, ErrorFormat::Human, status);
    err.flush();
    if (!file) return false;
    last_load = path;
    const Input in{path, file->text()};
    const bool uir_file = path.size() > 4 && path.compare(path.size() - 4, 4, ".uir") == 0;
    return uir_file ? eval_uir(in) : eval(in);
  }

  // -- :save

  bool save(const std::string& path, bool overwrite) {
    const bool uir_file = path.size() > 4 && path.compare(path.size() - 4, 4, ".uir") == 0;
    std::string text;
    size_t count = 0;
    if (uir_file) {
      text = "# Saved by `vx repl` (:save): the session's .uir inputs, in order.\n" +
             uir.program_text();
    } else {
      std::vector<std::string> item_texts;
      for (const Item& it : items) {
        item_texts.push_back(it.text);
        // A redefined item that an earlier input used: the program has its last form only.
        if (!it.redefined || it.name.empty()) continue;
        for (size_t k = 0; k < it.defined_at && k < saved_statements.size(); ++k)
          if (has_word(saved_statements[k], it.name)) {
            err << "note: `" << it.name << "` was redefined after an input that used it: the "
                << "saved program has its last definition only, so what it prints may differ\n";
            break;
          }
      }
      item_texts.insert(item_texts.end(), saved_mains.begin(), saved_mains.end());
      text = saved_program(item_texts, saved_statements, saved_values);
      count = saved_statements.size();
    }
    if (!save_file(path, text, overwrite, saved_files, err)) {
      err.flush();
      return false;
    }
    if (uir_file)
      out << "saved the .uir inputs to " << path << " (`vx run " << path << "` runs them)\n";
    else
      out << "saved " << count << (count == 1 ? " input" : " inputs") << " and " << items.size()
          << (items.size() == 1 ? " item" : " items") << " to " << path << " (`vx run " << path
          << "` runs them)\n";
    out.flush();
    err.flush();
    return true;
  }

  // -- :check

  // With `map`, the maps of who writes what (:map) instead of the tables; with `map_file`, into
  // that file (:map svg FILE).
  void check_last(std::optional<kr::MapFormat> map = std::nullopt,
                  const std::string& map_file = {}) {
    if (last_kernel == Kernel::Uir) {
      if (map) {
        err << "error: `:map` draws Vx kernels; the last kernel entered is .uir (`:check` shows "
               "its tables)\n";
        return;
      }
      uir.check_last();
      return;
    }
    if (last_kernel == Kernel::None || !last_vx_kernel) {
      out << "no kernel entered yet: `:check` checks the last input with a `spawn on` region, or "
             "with a `range` in `:uir` mode\n";
      out.flush();
      return;
    }
    const Input* last = &*last_vx_kernel;
    auto input_ptr = std::make_shared<const SourceFile>(last->name, last->text);
    const SourceFile& input = *input_ptr;
    Composed c;
    if (is_items(last->text)) {
      ParsedItems p;
      if (!parse_items(*last, input_ptr, p)) return;
      c = compose_items(*last, p);
    } else {
      bool parsed = false;
      auto tail = find_tail(last->text, input, parsed);
      if (!parsed) return;
      c = compose_statements(last->text, tail, Tail::Let, true);
    }
    Attempt a = run_pipeline(std::move(c), machine, true, false, map.has_value());
    report_all(a, input);
    if (!a.checked()) {
      out << "the kernel rules run on a program that passes the checker: fix the errors above "
             "first\n";
      return;
    }
    std::vector<kr::StoreExplain> mine;
    for (kr::StoreExplain s : a.c.explained) {
      if (!a.composed.map(s.span, s.span)) continue;
      for (auto& lc : s.checks) a.composed.map(lc.loop_span, lc.loop_span);
      mine.push_back(std::move(s));
    }
    if (map && !map_file.empty()) {
      std::ofstream file(map_file, std::ios::binary);
      if (file) kr::render_maps(file, input, mine, *map, false);
      if (file.close(), !file)
        err << "error: cannot write `" << map_file << "`\n";
      else
        out << "wrote `" << map_file << "`\n";
    } else if (map) {
      kr::render_maps(out, input, mine, *map, *map == kr::MapFormat::Text && diagnostic_color());
    } else if (hooks.explained && !mine.empty()) {
      for (const kr::StoreExplain& s : mine) hooks.explained(input, s);
    } else {
      kr::render_explain(out, input, mine);
    }
    out.flush();
  }

  // A struct item entered again may have other fields: a binding of the old struct could not be
  // declared as the new one, so it goes, with a note.
  void forget_bindings_of_struct(const std::string& name) {
    std::erase_if(bindings, [&](const Binding& b) {
      if (!mentions_struct(b.type, name)) return false;
      err << "note: `" << b.name << "` held a `" << name
          << "` as it was before this input: the binding is gone\n";
      return true;
    });
  }

  // -- :show, :vars, and :type of a function

  const Binding* binding(const std::string& name) const {
    for (const Binding& b : bindings)
      if (b.name == name) return &b;
    return nullptr;
  }
  const Item* function(const std::string& name) const {
    for (const Item& it : items)
      if (it.kind == "fn" && it.name == name) return &it;
    return nullptr;
  }

  bool show(const std::string& text) {
    Part part;
    std::string why;
    const Binding* b = nullptr;
    if (parse_part(text, part, why) && !(b = binding(part.name))) {
      std::vector<std::string> known;
      for (const Binding& x : bindings) known.push_back(x.name);
      why = "no binding `" + part.name + "` in the session";
      if (auto near = closest_name(part.name, known)) why += "; did you mean `" + *near + "`?";
    } else if (b && b->moved) {
      why = "`" + part.name + "` was moved away by an earlier input";
    } else if (b && !b->tensor && !part.selectors.empty()) {
      why = "`" + part.name + "` is not a tensor (its type is " + type_name(b->type) +
            "): it has no parts";
    }
    if (!why.empty() || !b) {
      err << "error: " << why << "\n";
      err.flush();
      return false;
    }
    if (b->type.is_tuple()) {
      out << value_line(aggregate_text(*b), type_name(b->type));
      out.flush();
      return true;
    }
    if (!b->tensor) {
      out << value_line(value_text(b->type, b->bits), type_name(b->type));
      out.flush();
      return true;
    }
    const interp::TensorView v = interp::whole_view(*b->tensor);
    Layout layout = row_major(b->tensor->dims);
    if (!select_part(part, layout, why)) {
      err << "error: " << why << "\n";
      err.flush();
      return false;
    }
    if (part.selectors.empty()) {
      out << tensor_shown(b->type, v).line();
      out.flush();
      return true;
    }
    const std::string grid = grid_text(
        layout, [&](int64_t at) { return element_text(b->type.scalar, v, at); }, 2);
    Type part_type = Type::of(b->type.scalar);
    std::string note;
    if (!layout.dims.empty()) {  // a part of it, with its own shape
      part_type = Type::tensor(b->type.scalar, b->type.memory, layout.dims);
      note = " (" + std::to_string(layout.size()) + " of the " + elements_note(v.size) + " of `" +
             part.name + "`, in " + memory_name(b->type.memory) + ")";
    }
    out << value_line(grid, type_name(part_type) + note);
    out.flush();
    return true;
  }

  void list_vars() {
    if (bindings.empty() &&
        std::none_of(items.begin(), items.end(), [](const Item& it) { return !it.name.empty(); })) {
      out << "no bindings or items yet\n";
      out.flush();
      return;
    }
    for (const Binding& b : bindings)
      out << (b.is_mut ? "mut " : "") << b.name << " : " << type_name(b.type)
          << (b.moved ? " (moved)" : "") << "\n";
    for (const Item& it : items) {
      if (it.kind == "fn")
        out << it.name << " : " << it.signature << "\n";
      else if (it.kind == "const")
        eval_statements({"<repl>", it.name}, true);  // prints `N : TYPE`
    }
    out.flush();
  }

  // `:type f` for a function the session holds (and no binding hides): its signature.
  bool type_of_function(const std::string& expr) {
    const std::string name = trim(expr);
    const Item* f = is_identifier(name) && !binding(name) ? function(name) : nullptr;
    if (!f) return false;
    out << name << " : " << f->signature << "\n";
    out.flush();
    return true;
  }
};

Session::Session(SessionOptions options, std::ostream& out, std::ostream& err)
    : impl_(std::make_unique<Impl>(std::move(options), out, err)) {
  if (!impl_->options.machine.empty()) {
    std::string why;
    if (!load_machine(impl_->options.machine, impl_->machine, why))
      throw std::runtime_error("cannot read the machine file: " + why);
  }
}

Session::~Session() = default;

bool Session::eval(const std::string& text) { return impl_->eval({"<repl>", text}); }

bool Session::eval_uir(const std::string& text) { return impl_->eval_uir({"<repl>", text}); }

bool Session::load(const std::string& path) { return impl_->load(path); }

bool Session::reload() {
  if (impl_->last_load.empty()) {
    impl_->err << "error: no file loaded yet: `:load FILE` reads one\n";
    impl_->err.flush();
    return false;
  }
  return impl_->load(impl_->last_load);
}

bool Session::save(const std::string& path, bool overwrite) { return impl_->save(path, overwrite); }

bool Session::last_interrupted() const { return impl_->interrupted; }

bool Session::type_of(const std::string& expr) {
  return impl_->type_of_function(expr) || impl_->eval_statements({"<repl>", expr}, true);
}

bool Session::show(const std::string& part) { return impl_->show(part); }

void Session::list_vars() { impl_->list_vars(); }

void Session::check_last() { impl_->check_last(); }

void Session::map_last(kr::MapFormat format, const std::string& file) {
  impl_->check_last(format, file);
}

void Session::emit_last() {
  if (impl_->last_region.empty())
    impl_->out << "no region entered yet\n";
  else
    impl_->out << impl_->last_region;
  impl_->out.flush();
}

void Session::set_hooks(SessionHooks hooks) { impl_->hooks = std::move(hooks); }

void Session::set_timing(bool on) { impl_->timing = on; }
bool Session::timing() const { return impl_->timing; }

void Session::reset() {
  impl_->items.clear();
  impl_->bindings.clear();
  impl_->last_kernel = Impl::Kernel::None;
  impl_->last_vx_kernel.reset();
  impl_->last_region.clear();
  impl_->uir.reset();
  impl_->saved_statements.clear();
  impl_->saved_mains.clear();
  impl_->saved_values = false;
}

std::vector<std::string> Session::names() const {
  std::vector<std::string> n;
  for (const Binding& b : impl_->bindings)
    if (!b.moved) n.push_back(b.name);
  for (const Item& i : impl_->items)
    if (!i.name.empty()) n.push_back(i.name);
  return n;
}

}  // namespace vx::repl
