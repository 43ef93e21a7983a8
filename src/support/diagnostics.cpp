#include "support/diagnostics.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "support/error_index.hpp"

namespace vx {

DiagnosticData::DiagnosticData() noexcept = default;
DiagnosticData::DiagnosticData(const DiagnosticData& other)
    : value_(other.value_ ? std::make_unique<nlohmann::json>(*other.value_) : nullptr) {}
DiagnosticData::DiagnosticData(DiagnosticData&& other) noexcept = default;
DiagnosticData& DiagnosticData::operator=(const DiagnosticData& other) {
  return *this = DiagnosticData(other);  // the copy made once, by the constructor above
}
DiagnosticData& DiagnosticData::operator=(DiagnosticData&& other) noexcept = default;
DiagnosticData::~DiagnosticData() = default;

nlohmann::json& DiagnosticData::operator*() {
  if (!value_) value_ = std::make_unique<nlohmann::json>();
  return *value_;
}

const nlohmann::json* DiagnosticData::get() const noexcept { return value_.get(); }

Diagnostic& Diagnostics::error(std::string code, Span span, std::string message,
                               std::string label) {
  Diagnostic d;
  d.code = std::move(code);
  d.span = span;
  d.message = std::move(message);
  d.label = std::move(label);
  return add(std::move(d));
}

size_t Diagnostics::kept(Severity s) const {
  return std::count_if(list_.begin(), list_.end(),
                       [&](const Diagnostic& d) { return d.severity == s; });
}

namespace {

// A diagnostic that is not kept, to which the caller may still add labels and notes.
Diagnostic& discarded(Diagnostic d) {
  static thread_local Diagnostic sink;
  sink = std::move(d);
  return sink;
}

}  // namespace

Diagnostic& Diagnostics::add(Diagnostic d) {
  if (d.severity == Severity::Warning && allowed_ && allowed_(d)) return discarded(std::move(d));
  if (kept(d.severity) >= kMaxKept) {
    Diagnostic counted;  // what the counts, `#[allow]` and `-D warnings` read
    counted.severity = d.severity;
    counted.code = d.code;
    counted.lint = d.lint;
    counted.span = d.span;
    dropped_.push_back(std::move(counted));
    return discarded(std::move(d));
  }
  list_.push_back(std::move(d));
  return list_.back();
}

std::string on_by_default(const std::string& lint) {
  return "`#[warn(" + lint + ")]` on by default";
}

bool is_on_by_default(const std::string& note) {
  return note.starts_with("`#[warn(") && note.ends_with(")]` on by default");
}

void note_on_by_default(Diagnostic& d, bool first) {
  std::erase_if(d.notes, is_on_by_default);
  if (first) d.notes.insert(d.notes.begin(), on_by_default(d.lint));
}

void Diagnostics::note_defaults() {
  std::set<std::string> seen;
  for (Diagnostic& d : list_)
    if (d.severity == Severity::Warning) note_on_by_default(d, seen.insert(d.lint).second);
}

Diagnostic& Diagnostics::warning(std::string lint, Span span, std::string message,
                                 std::string label) {
  Diagnostic d;
  d.severity = Severity::Warning;
  d.span = span;
  d.message = std::move(message);
  d.label = std::move(label);
  const bool first = std::none_of(list_.begin(), list_.end(),
                                  [&](const Diagnostic& other) { return other.lint == lint; });
  if (first) d.notes.push_back(on_by_default(lint));
  d.lint = std::move(lint);
  return add(std::move(d));
}

size_t Diagnostics::warning_count() const {
  auto warning = [](const Diagnostic& d) { return d.severity == Severity::Warning; };
  return std::count_if(list_.begin(), list_.end(), warning) +
         std::count_if(dropped_.begin(), dropped_.end(), warning);
}

void Diagnostics::deny_warnings() {
  for (Diagnostic& d : dropped_)
    if (d.severity == Severity::Warning) d.severity = Severity::Error;
  for (Diagnostic& d : list_) {
    if (d.severity != Severity::Warning) continue;
    d.severity = Severity::Error;
    std::erase_if(d.notes, is_on_by_default);
    d.notes.insert(d.notes.begin(), "`-D " + d.lint + "` implied by `-D warnings`");
  }
}

bool Diagnostics::has_errors() const { return error_count() > 0; }

size_t Diagnostics::error_count() const {
  auto error = [](const Diagnostic& d) { return d.severity == Severity::Error; };
  return std::count_if(list_.begin(), list_.end(), error) +
         std::count_if(dropped_.begin(), dropped_.end(), error);
}

namespace {

const char* severity_word(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
  }
  return "error";
}

// Replaces tabs and control bytes so that the underline lines up and the terminal is safe.
std::string underline_safe(std::string_view line, size_t max_len = 160) {
  std::string out;
  for (char c : line.substr(0, max_len)) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '\t')
      out += ' ';
    else if (u < 0x20 || u == 0x7f)
      out += '?';
    else
      out += c;
  }
  if (line.size() > max_len) out += "…";
  return out;
}

// rustc's palette: the severity in bold red (yellow for a warning), the gutter and secondary
// labels in bold blue, the message in bold. Empty strings when there is no colour.
struct Style {
  const char* severity = "";
  const char* primary = "";  // `^^^` and its label
  const char* blue = "";     // gutter, `-->`, `---` and their labels, `= note`
  const char* bold = "";
  const char* reset = "";
};
Style style_for(Severity s, bool color) {
  if (!color) return {};
  const char* sev = s == Severity::Warning ? "\x1b[1;33m"
                    : s == Severity::Note  ? "\x1b[1;32m"
                                           : "\x1b[1;31m";
  return {sev, sev, "\x1b[1;34m", "\x1b[1m", "\x1b[0m"};
}

// One label drawn under its line: columns are 1-based, in characters of the line.
struct Mark {
  int col = 1;
  int width = 1;
  bool primary = false;
  const std::string* text = nullptr;
};

Mark mark_of(const SourceFile& file, Span span, bool primary, const std::string& text) {
  LineCol a = file.line_col(span.begin);
  LineCol b = file.line_col(std::max(span.begin, span.end));
  int width = (b.line == a.line) ? std::max(1, b.col - a.col) : 1;
  if (b.line != a.line) {  // a span over several lines: underlined to the end of its first
    int len = 0;
    for (unsigned char c : file.line_text(a.line))
      if ((c & 0xC0) != 0x80) ++len;
    width = std::max(1, len - a.col + 1);
  }
  const int start = std::min(a.col, 161);
  return {start, std::max(1, std::min(width, 161 - start + 1)), primary, &text};
}

// A source line once, then every label on it, as rustc draws them: the marks on one row, the
// rightmost label's text after its marks, each other text on a row of its own below, hung from
// its first column by `|`s (the rightmost first).
void render_line(std::ostream& out, const SourceFile& file, int line, std::vector<Mark> marks,
                 const std::string& gutter, const Style& st) {
  const std::string number = std::to_string(line);
  out << st.blue << number << gutter.substr(number.size()) << "|" << st.reset << " "
      << underline_safe(file.line_text(line)) << "\n";
  std::stable_sort(marks.begin(), marks.end(),
                   [](const Mark& x, const Mark& y) { return x.col < y.col; });
  int end = 0;
  for (const Mark& m : marks) end = std::max(end, m.col - 1 + m.width);
  std::string row(static_cast<size_t>(end), ' ');
  std::vector<int> owner(row.size(), -1);
  for (int pass = 0; pass < 2; ++pass)  // secondary marks, then the primary over them
    for (size_t k = 0; k < marks.size(); ++k)
      if (marks[k].primary == (pass == 1))
        for (int c = marks[k].col - 1; c < marks[k].col - 1 + marks[k].width; ++c) {
          row[static_cast<size_t>(c)] = marks[k].primary ? '^' : '-';
          owner[static_cast<size_t>(c)] = static_cast<int>(k);
        }
  auto color_of = [&](const Mark& m) { return m.primary ? st.primary : st.blue; };
  out << st.blue << gutter << "|" << st.reset << " ";
  for (size_t c = 0; c < row.size();) {
    size_t e = c;
    while (e < row.size() && owner[e] == owner[c]) ++e;
    if (owner[c] < 0)
      out << row.substr(c, e - c);
    else
      out << color_of(marks[static_cast<size_t>(owner[c])]) << row.substr(c, e - c) << st.reset;
    c = e;
  }
  const Mark& last = marks.back();
  if (!last.text->empty()) out << " " << color_of(last) << *last.text << st.reset;
  out << "\n";
  std::vector<const Mark*> hung;
  for (size_t k = 0; k + 1 < marks.size(); ++k)
    if (!marks[k].text->empty()) hung.push_back(&marks[k]);
  // Rows of `|` (the first), then each hung text, the rightmost first.
  for (size_t k = hung.size() + 1; k-- > 0;) {
    if (k == hung.size() && hung.empty()) break;
    const size_t upto = k == hung.size() ? hung.size() : k;
    out << st.blue << gutter << "|" << st.reset << " ";
    int at = 1;
    for (size_t j = 0; j < upto; ++j) {
      out << std::string(static_cast<size_t>(std::max(0, hung[j]->col - at)), ' ')
          << color_of(*hung[j]) << "|" << st.reset;
      at = hung[j]->col + 1;
    }
    if (k < hung.size())
      out << std::string(static_cast<size_t>(std::max(0, hung[k]->col - at)), ' ')
          << color_of(*hung[k]) << *hung[k]->text << st.reset;
    out << "\n";
  }
}

std::atomic<bool> g_color{false};

// The footer of a list of errors: the codes `vx explain` has a text for.
void explain_footer(std::ostream& out, const Diagnostics& diags, std::string_view explain,
                    bool color) {
  std::vector<std::string> codes;
  for (const std::string& code : error_codes())
    for (const auto& d : diags.list())
      if (d.code == code) {
        codes.push_back(code);
        break;
      }
  if (codes.empty()) return;
  out << "\n";
  const char* bold = color ? "\x1b[1m" : "";
  const char* reset = color ? "\x1b[0m" : "";
  if (codes.size() == 1) {
    out << bold << "For more information about this error, try `" << explain << " " << codes[0]
        << "`." << reset << "\n";
    return;
  }
  out << bold << "Some errors have detailed explanations: ";
  for (size_t k = 0; k < codes.size(); ++k) out << (k ? ", " : "") << codes[k];
  out << "." << reset << "\n"
      << bold << "For more information about an error, try `" << explain << " " << codes[0] << "`."
      << reset << "\n";
}

void render_styled(std::ostream& out, const SourceFile& file, const Diagnostic& d, bool color) {
  const Style st = style_for(d.severity, color);
  out << st.severity << severity_word(d.severity);
  if (!d.code.empty()) out << "[" << d.code << "]";
  out << st.reset << st.bold << ": " << d.message << st.reset << "\n";
  const LineCol lc = file.line_col(d.span.begin);
  std::map<int, std::vector<Mark>> lines;  // the labels of each line, by line
  lines[lc.line].push_back(mark_of(file, d.span, true, d.label));
  for (const auto& l : d.secondary)
    lines[file.line_col(l.span.begin).line].push_back(mark_of(file, l.span, false, l.text));
  const std::string gutter(std::to_string(lines.rbegin()->first).size() + 1, ' ');
  out << gutter.substr(1) << st.blue << "--> " << st.reset << file.path() << ":" << lc.line << ":"
      << lc.col << "\n";
  out << st.blue << gutter << "|" << st.reset << "\n";
  for (auto& [line, marks] : lines) render_line(out, file, line, std::move(marks), gutter, st);
  if (!d.notes.empty() || !d.helps.empty() || !d.rule.empty())
    out << st.blue << gutter << "|" << st.reset << "\n";
  // Which of E6032's rules fired (`"rule"` in JSON): its id names its paragraph in
  // `vx explain E6032` and spec/kernel-rules.md.
  if (!d.rule.empty())
    out << st.blue << gutter << "= " << st.reset << st.bold << "note" << st.reset
        << ": the kernel rule broken: `" << d.rule << "` (`vx explain " << d.code
        << "` explains each rule)\n";
  for (const auto& n : d.notes)
    out << st.blue << gutter << "= " << st.reset << st.bold << "note" << st.reset << ": " << n
        << "\n";
  for (const auto& h : d.helps)
    out << st.blue << gutter << "= " << st.reset << st.bold << "help" << st.reset << ": " << h
        << "\n";
  out << "\n";
}

}  // namespace

void render_runtime_error(std::ostream& out, const SourceFile& file, Span span,
                          const std::string& message, ErrorFormat format) {
  Diagnostic d;
  d.message = "runtime error: " + message;
  d.span = span;
  render_diagnostic(out, file, d, format);
  out.flush();
}

void render_diagnostic(std::ostream& out, const SourceFile& file, const Diagnostic& d,
                       ErrorFormat format) {
  if (format == ErrorFormat::Json)
    out << diagnostic_json(file, d).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
        << "\n";
  else
    render_human(out, file, d);
}

void render_plain_error(std::ostream& out, const std::string& message, ErrorFormat format) {
  if (format == ErrorFormat::Human) {
    out << "error: " << message << "\n";
    return;
  }
  nlohmann::json j;
  j["level"] = "error";
  j["code"] = nullptr;
  j["message"] = message;
  j["spans"] = nlohmann::json::array();
  j["notes"] = nlohmann::json::array();
  j["helps"] = nlohmann::json::array();
  j["rendered"] = "error: " + message + "\n";
  out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

std::shared_ptr<SourceFile> read_source_or_report(const std::string& path, std::ostream& err,
                                                  ErrorFormat format, int& status) {
  std::string error;
  ReadStatus read = ReadStatus::Ok;
  auto file = read_source_file(path, error, &read);
  if (file) {
    status = 0;
    return file;
  }
  if (read != ReadStatus::TooLarge) {
    render_plain_error(err, error, format);
    status = 2;
    return nullptr;
  }
  // Refused like any program past a limit: E0003 at the start of an (unread) file.
  Diagnostics diags(std::make_shared<SourceFile>(path, std::string()));
  auto& d = diags.error("E0003", {0, 0}, source_too_large_message(), "the file starts here");
  d.notes.push_back("a source file may hold at most " + std::to_string(kMaxSourceBytes) +
                    " bytes; only that much and one byte more was read");
  emit_diagnostics(err, diags, format);
  status = 1;
  return nullptr;
}

void render_human(std::ostream& out, const SourceFile& file, const Diagnostic& d) {
  render_styled(out, file, d, g_color);
}

void set_diagnostic_color(bool on) { g_color = on; }
bool diagnostic_color() { return g_color; }

bool color_wanted(std::string_view choice, int fd) {
  if (choice == "always") return true;
  if (choice == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return isatty(fd) && !(no_color && *no_color) && !(term && std::string_view(term) == "dumb");
}

nlohmann::json diagnostic_json(const SourceFile& file, const Diagnostic& d) {
  auto span_json = [&](Span s, const std::string& label, bool primary) {
    LineCol a = file.line_col(s.begin), b = file.line_col(s.end);
    return nlohmann::json{{"file", file.path()},  {"byte_start", s.begin}, {"byte_end", s.end},
                          {"line_start", a.line}, {"column_start", a.col}, {"line_end", b.line},
                          {"column_end", b.col},  {"is_primary", primary}, {"label", label}};
  };
  nlohmann::json j;
  j["level"] = severity_word(d.severity);
  j["code"] = d.code.empty() ? nlohmann::json() : nlohmann::json(d.code);
  if (!d.lint.empty()) j["lint"] = d.lint;
  j["message"] = d.message;
  j["spans"] = nlohmann::json::array();
  j["spans"].push_back(span_json(d.span, d.label, true));
  for (const auto& l : d.secondary) j["spans"].push_back(span_json(l.span, l.text, false));
  j["notes"] = d.notes;
  j["helps"] = d.helps;
  if (const nlohmann::json* data = d.data.get(); data && !data->is_null()) j["data"] = *data;
  if (!d.rule.empty()) j["rule"] = d.rule;
  std::ostringstream rendered;
  render_styled(rendered, file, d, false);  // never coloured
  j["rendered"] = rendered.str();
  return j;
}

void emit_diagnostics(std::ostream& out, const Diagnostics& diags, ErrorFormat format,
                      std::string_view explain_command) {
  if (format == ErrorFormat::Json) {
    for (const auto& d : diags.list())
      out << diagnostic_json(diags.file(), d)
                 .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
          << "\n";
    return;
  }
  const bool color = g_color;
  for (const auto& d : diags.list()) render_styled(out, diags.file(), d, color);
  const size_t n = diags.error_count();
  const size_t w = diags.warning_count();
  if (diags.dropped_count() > 0)
    out << (color ? "\x1b[1;32mnote\x1b[0m" : "note") << ": " << diags.dropped_count()
        << " more diagnostics not shown (at most " << Diagnostics::kMaxKept << " errors and "
        << Diagnostics::kMaxKept << " warnings are printed)\n\n";
  const std::string warnings =
      std::to_string(w) + (w == 1 ? " warning emitted" : " warnings emitted");
  if (n == 0) {
    if (w > 0)
      out << (color ? "\x1b[1;33mwarning\x1b[0m\x1b[1m" : "warning") << ": " << warnings
          << (color ? "\x1b[0m" : "") << "\n\n";
    return;
  }
  out << (color ? "\x1b[1;31merror\x1b[0m\x1b[1m" : "error") << ": aborting due to " << n
      << (n == 1 ? " previous error" : " previous errors") << (w ? "; " + warnings : "")
      << (color ? "\x1b[0m" : "") << "\n";
  if (!explain_command.empty()) explain_footer(out, diags, explain_command, color);
}

}  // namespace vx
