// See uir_session.hpp.
#include "repl/uir_session.hpp"

#include <optional>
#include <sstream>

#include "repl/interrupt.hpp"
#include "repl/report.hpp"
#include "repl/session.hpp"
#include "rules/explain.hpp"
#include "uir/uir.hpp"

namespace vx::repl {

namespace {

// The instruction of a line: `range` in `%b = range 4`, `print` in `print %y`; empty for a blank
// line or a comment.
std::string instruction(const std::string& line) {
  std::istringstream words(line.substr(0, line.find('#')));
  std::string first, second, third;
  words >> first >> second >> third;
  return second == "=" ? third : first;
}

// The lines of `text`, each with its newline.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size() - 1;
    out.push_back(text.substr(at, nl + 1 - at));
    at = nl + 1;
  }
  return out;
}

}  // namespace

bool uir_input_is_open(const std::string& text) {
  int open = 0;
  for (const std::string& line : lines_of(text)) {
    const std::string op = instruction(line);
    if (op == "range") ++open;
    if (op == "end") --open;
  }
  return open > 0;
}

bool uir_has_range(const std::string& text) {
  for (const std::string& line : lines_of(text))
    if (instruction(line) == "range") return true;
  return false;
}

struct UirSession::Impl {
  std::ostream& out;
  std::ostream& err;
  const SessionHooks& hooks;
  std::vector<std::string> accepted;  // the inputs kept, as typed
  struct Kernel {
    std::string name, text, before;  // the input, and the inputs that stood before it
  };
  std::optional<Kernel> last_kernel;

  Impl(std::ostream& o, std::ostream& e, const SessionHooks& h) : out(o), err(e), hooks(h) {}

  // The accepted inputs without their `print`s: what runs before an input.
  std::string before() const {
    std::string s;
    for (const std::string& in : accepted)
      for (const std::string& line : lines_of(in))
        if (instruction(line) != "print") s += line.back() == '\n' ? line : line + "\n";
    return s;
  }

  // One program: the inputs before, then the input; diagnostics are placed back into the input.
  struct Composed {
    std::shared_ptr<SourceFile> file;   // the whole program
    std::shared_ptr<SourceFile> input;  // the input as typed
    uint32_t at = 0;                    // where the input starts in the program
    bool map(Span s, Span& o) const {
      if (s.begin < at) return false;
      const uint32_t size = static_cast<uint32_t>(input->text().size());
      o.begin = std::min(s.begin - at, size);
      o.end = std::min(std::max(s.end, s.begin) - at, size);
      return true;
    }
  };
  static Composed compose(const std::string& name, const std::string& text,
                          const std::string& before) {
    Composed c;
    c.at = static_cast<uint32_t>(before.size());
    c.file = std::make_shared<SourceFile>("<session>", before + text + "\n");
    c.input = std::make_shared<SourceFile>(name, text);
    return c;
  }

  void report(const Composed& c, const Diagnostic& d) const {
    Diagnostic m = d;
    m.secondary.clear();
    for (const Label& l : d.secondary) {
      Label ml = l;
      if (c.map(l.span, ml.span))
        m.secondary.push_back(ml);
      else
        m.notes.push_back(l.text + ", in an earlier input");
    }
    deliver(hooks, err, c.map(d.span, m.span) ? c.input.get() : nullptr, m);
  }
  void report_all(const Composed& c, const Diagnostics& diags) const {
    for (const Diagnostic& d : diags.list()) report(c, d);
    err.flush();
  }

  bool eval(const std::string& name, const std::string& text, int64_t max_steps,
            double max_seconds) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return true;
    const Composed c = compose(name, text, before());
    if (uir_has_range(text)) last_kernel = Kernel{name, text, before()};
    Diagnostics diags(c.file);
    auto program = uir::read_uir(c.file, diags);
    if (!program || !uir::check_uir(*program, diags)) {
      report_all(c, diags);
      return false;
    }
    report_all(c, diags);  // warnings, if any
    bool failed = false;
    const int status =
        uir::run_uir(*program, out, err, nullptr, ErrorFormat::Human, max_steps, max_seconds,
                     interrupt_flag(), [&](Span span, const std::string& message) {
                       failed = true;
                       Diagnostic d;
                       d.message = "runtime error: " + message;
                       d.span = span;
                       if (is_interrupt(d) && interrupt_requested()) {
                         fresh_line_after_ctrl_c(err);
                         report(c, interrupt_report(d));
                       } else {
                         report(c, d);
                       }
                     });
    out.flush();
    err.flush();
    if (failed || status != 0) return false;
    accepted.push_back(text);
    return true;
  }

  void check_last() {
    if (!last_kernel) {
      out << "no .uir kernel entered yet\n";
      return;
    }
    const Composed c = compose(last_kernel->name, last_kernel->text, last_kernel->before);
    Diagnostics diags(c.file);
    auto program = uir::read_uir(c.file, diags);
    std::vector<kr::StoreExplain> explained;
    if (program) uir::check_uir(*program, diags, &explained);
    report_all(c, diags);
    if (!program) {
      out << "the kernel rules run on a program that reads: fix the errors above first\n";
      return;
    }
    std::vector<kr::StoreExplain> mine;
    for (kr::StoreExplain s : explained) {
      if (!c.map(s.span, s.span)) continue;
      for (auto& lc : s.checks) c.map(lc.loop_span, lc.loop_span);
      mine.push_back(std::move(s));
    }
    if (hooks.explained && !mine.empty())
      for (const kr::StoreExplain& s : mine) hooks.explained(*c.input, s);
    else
      kr::render_explain(out, *c.input, mine);
    out.flush();
  }
};

UirSession::UirSession(std::ostream& out, std::ostream& err, const SessionHooks& hooks)
    : impl_(std::make_unique<Impl>(out, err, hooks)) {}
UirSession::~UirSession() = default;

bool UirSession::eval(const std::string& name, const std::string& text, int64_t max_steps,
                      double max_seconds) {
  return impl_->eval(name, text, max_steps, max_seconds);
}
void UirSession::check_last() { impl_->check_last(); }
bool UirSession::empty() const { return impl_->accepted.empty(); }

std::string UirSession::program_text() const {
  std::string s;
  for (const std::string& in : impl_->accepted) s += in.back() == '\n' ? in : in + "\n";
  return s;
}

void UirSession::reset() {
  impl_->accepted.clear();
  impl_->last_kernel.reset();
}

}  // namespace vx::repl
