// Diagnostics placed in what the user typed (spec/cli.md §7.6): in the input, or in the earlier
// input that defined the item a span points into; what lies in the wrapper is said without a place.
#include <cstring>
#include <optional>

#include "interp/interpreter.hpp"
#include "parse/parser.hpp"
#include "pipeline/pipeline.hpp"
#include "repl/interrupt.hpp"
#include "repl/report.hpp"
#include "repl/session_impl.hpp"
#include "repl/wrapped.hpp"

namespace vx::repl {

std::optional<Session::Impl::Place> Session::Impl::place(const Composed& c, Span s,
                                                         const SourceFile& input) const {
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

std::string Session::Impl::item_words(const Item& it) const {
  return it.name.empty() ? "an item entered earlier"
                         : "`" + it.kind + " " + it.name + "`, entered earlier";
}

void Session::Impl::report(std::ostream& o, const Diagnostic& d, const Composed& c,
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
      notes.push_back(l.text + ": " +
                      (p->source == Composed::kInput ? "the input" : item_words(items[p->source])) +
                      ", at " + p->file->path() + ":" + std::to_string(lc.line) + ":" +
                      std::to_string(lc.col));
    } else if (const Composed::Decl* decl = c.decl_of(l.span)) {
      notes.push_back(
          "`" + decl->name + "` " +
          (decl->moved ? "was moved by an earlier input" : "comes from an earlier input"));
    }
  }
  m.notes.insert(m.notes.begin(), notes.begin(), notes.end());
  // A bracket the input left open meets the wrapper's closing `}`: say it as the parser says
  // it at the end of a file, at the bracket.
  if (!primary && d.code == "E0002" && d.secondary.size() == 1 && d.secondary[0].text.size() > 2 &&
      d.secondary[0].text[0] == '`') {
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

bool Session::Impl::at_end_of_input(Diagnostic& m, const SourceFile& input, bool place) {
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

void Session::Impl::deliver(std::ostream& o, const SourceFile* file, const Diagnostic& m) const {
  repl::deliver(hooks, o, file, m);
}

void Session::Impl::report_all(const Attempt& a, const SourceFile& input,
                               std::optional<Span> shown) const {
  for (const Diagnostic& d : a.diags()->list()) {
    // A binding or a function is used by later inputs, and a warning about the session's own
    // wrapping is not the user's: only warnings about the input, and not of unused bindings.
    Span in_input;
    if (d.severity == Severity::Warning &&
        (d.lint == "unused_variables" || d.lint == "unused_mut" || d.lint == "dead_code" ||
         d.lint == "unused_assignments" || !a.composed.map(d.span, in_input) ||
         (d.lint == "unused_parens" && shown && in_input.begin == shown->begin &&
          in_input.end == shown->end)))
      continue;
    if (d.severity != Severity::Warning) {
      report(err, d, a.composed, input);
      continue;
    }
    // As rustc says it once a compilation, the session says once that a lint is on by default.
    Diagnostic w = d;
    note_on_by_default(w, noted_lints.insert(w.lint).second);
    report(err, w, a.composed, input);
  }
  err.flush();
}

}  // namespace vx::repl
