#include "support/diagnostics.hpp"

#include <algorithm>
#include <sstream>

namespace vx {

Diagnostic& Diagnostics::error(std::string code, Span span, std::string message,
                               std::string label) {
  Diagnostic d;
  d.code = std::move(code);
  d.span = span;
  d.message = std::move(message);
  d.label = std::move(label);
  return add(std::move(d));
}

Diagnostic& Diagnostics::add(Diagnostic d) {
  if (full()) {
    static thread_local Diagnostic sink;  // extra errors past the cap are dropped
    sink = std::move(d);
    return sink;
  }
  list_.push_back(std::move(d));
  return list_.back();
}

bool Diagnostics::has_errors() const { return error_count() > 0; }

size_t Diagnostics::error_count() const {
  return std::count_if(list_.begin(), list_.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
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
std::string printable(std::string_view line, size_t max_len = 160) {
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

void underline(std::ostream& out, const SourceFile& file, Span span, const std::string& text,
               const std::string& gutter, char mark) {
  LineCol a = file.line_col(span.begin);
  LineCol b = file.line_col(std::max(span.begin, span.end));
  std::string_view line = file.line_text(a.line);
  int width = (b.line == a.line) ? std::max(1, b.col - a.col) : 1;
  if (b.line != a.line) {
    // Underline to the end of the first line.
    int len = 0;
    for (unsigned char c : line)
      if ((c & 0xC0) != 0x80) ++len;
    width = std::max(1, len - a.col + 1);
  }
  int start = std::min(a.col, 161);
  width = std::min(width, 161 - start + 1);
  out << std::to_string(a.line) << gutter.substr(std::to_string(a.line).size()) << "| "
      << printable(line) << "\n";
  out << gutter << "| " << std::string(start - 1, ' ') << std::string(std::max(1, width), mark);
  if (!text.empty()) out << " " << text;
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
  out << severity_word(d.severity);
  if (!d.code.empty()) out << "[" << d.code << "]";
  out << ": " << d.message << "\n";
  LineCol lc = file.line_col(d.span.begin);
  int max_line = lc.line;
  for (const auto& l : d.secondary) max_line = std::max(max_line, file.line_col(l.span.begin).line);
  std::string gutter(std::to_string(max_line).size() + 1, ' ');
  out << gutter.substr(1) << "--> " << file.path() << ":" << lc.line << ":" << lc.col << "\n";
  out << gutter << "|\n";
  std::vector<std::pair<Span, const Label*>> all;
  for (const auto& l : d.secondary) all.push_back({l.span, &l});
  std::sort(all.begin(), all.end(), [](auto& x, auto& y) { return x.first.begin < y.first.begin; });
  bool primary_done = false;
  for (const auto& [span, label] : all) {
    if (!primary_done && span.begin > d.span.begin) {
      underline(out, file, d.span, d.label, gutter, '^');
      primary_done = true;
    }
    underline(out, file, span, label->text, gutter, '-');
  }
  if (!primary_done) underline(out, file, d.span, d.label, gutter, '^');
  if (!d.notes.empty() || !d.helps.empty()) out << gutter << "|\n";
  for (const auto& n : d.notes) out << gutter << "= note: " << n << "\n";
  for (const auto& h : d.helps) out << gutter << "= help: " << h << "\n";
  out << "\n";
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
  j["message"] = d.message;
  j["spans"] = nlohmann::json::array();
  j["spans"].push_back(span_json(d.span, d.label, true));
  for (const auto& l : d.secondary) j["spans"].push_back(span_json(l.span, l.text, false));
  j["notes"] = d.notes;
  j["helps"] = d.helps;
  if (!d.data.is_null()) j["data"] = d.data;
  std::ostringstream rendered;
  render_human(rendered, file, d);
  j["rendered"] = rendered.str();
  return j;
}

void emit_diagnostics(std::ostream& out, const Diagnostics& diags, ErrorFormat format) {
  if (format == ErrorFormat::Json) {
    for (const auto& d : diags.list())
      out << diagnostic_json(diags.file(), d)
                 .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
          << "\n";
    return;
  }
  for (const auto& d : diags.list()) render_human(out, diags.file(), d);
  size_t n = diags.error_count();
  if (n == 1)
    out << "error: aborting due to 1 previous error\n";
  else if (n > 1)
    out << "error: aborting due to " << n << " previous errors\n";
}

}  // namespace vx
