// The conformance runner's judging (conformance.hpp): what a corpus program's comments expect
// (`//~ ERROR CODE`, `// run-flags:` …), the diagnostics and locations an implementation printed,
// and the verdict on one run. Pure functions of text: no process, no file.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/conformance.hpp"
#include "cli/conformance_internal.hpp"
#include "support/json_input.hpp"

namespace vx {
namespace conformance {

std::string code_at(std::string_view code, int line) {
  return std::string(code) + ":" + std::to_string(line);
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

namespace {

bool is_code(std::string_view s) {
  if (s.size() < 2 || !(s[0] >= 'A' && s[0] <= 'Z')) return false;
  return std::all_of(s.begin() + 1, s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

bool parse_int(std::string_view s, int& value) {
  s = trimmed(s);
  if (s.empty() || s.size() > 9) return false;
  bool negative = false;
  if (s[0] == '-') {
    negative = true;
    s.remove_prefix(1);
    if (s.empty()) return false;
  }
  long v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  value = static_cast<int>(negative ? -v : v);
  return true;
}

std::string printable(std::string_view s, size_t limit) {
  std::string out;
  for (char c : s.substr(0, limit)) {
    if (c == '\t')
      out += "\\t";
    else if (c == '\r')
      out += "\\r";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
      out += buf;
    } else
      out += c;
  }
  if (s.size() > limit) out += "…";
  return out;
}

Expectations parse_expectations(std::string_view source, std::string_view comment) {
  const std::string marker = std::string(comment) + "~";
  Expectations e;
  // A byte order mark before the first header line is not part of it (spec/grammar.md §1).
  if (source.starts_with("\xEF\xBB\xBF")) source.remove_prefix(3);
  const auto lines = split_lines(source);
  // Header directives: only in the leading run of comment and blank lines.
  for (std::string_view raw : lines) {
    std::string_view line = trimmed(raw);
    if (line.empty()) continue;
    if (line.substr(0, comment.size()) != comment) break;
    line = trimmed(line.substr(comment.size()));
    if (line.substr(0, 10) == "run-flags:") {
      const std::string_view flags = trimmed(line.substr(10));
      if (!flags.empty()) {
        if (!e.run_flags.empty()) e.run_flags += ' ';
        e.run_flags += flags;
        const std::string why = split_words(flags, e.run_flag_words, false);
        if (!why.empty()) e.problems.push_back("malformed `// run-flags:` line: " + printable(why));
      }
    } else if (line.substr(0, 5) == "spec:") {
      const std::string_view section = trimmed(line.substr(5));
      if (!section.empty()) e.spec += (e.spec.empty() ? "" : "; ") + std::string(section);
    } else if (line.substr(0, 4) == "env:") {
      std::istringstream words{std::string(line.substr(4))};
      std::string word;
      while (words >> word) {
        const size_t eq = word.find('=');
        if (eq == std::string::npos || eq == 0)
          e.problems.push_back("malformed `// env:` entry `" + printable(word) +
                               "` (expected NAME=VALUE)");
        else if (!env_name_allowed(std::string_view(word).substr(0, eq)))
          e.problems.push_back("`// env:` may not set `" + printable(word.substr(0, eq)) +
                               "` (only VX_… names, not VX_CUDA_DRIVER or VX_CACHE_DIR)");
        else
          e.env.emplace_back(word.substr(0, eq), word.substr(eq + 1));
      }
    } else if (line == "check-only") {
      e.check_only = true;
    }
  }
  // Markers, compiletest style: `//~ KIND`, `//~^^ KIND` (lines above), `//~| KIND` (the line
  // of the previous marker).
  int previous_line = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const size_t at = line.find(marker);
    if (at == std::string_view::npos) continue;
    const int this_line = static_cast<int>(i) + 1;
    std::string_view rest = line.substr(at + marker.size());
    int target = this_line;
    if (!rest.empty() && rest[0] == '|') {
      if (previous_line == 0) {
        e.problems.push_back("line " + std::to_string(this_line) +
                             ": `//~|` with no marker before it");
        continue;
      }
      target = previous_line;
      rest.remove_prefix(1);
    } else {
      while (!rest.empty() && rest[0] == '^') {
        --target;
        rest.remove_prefix(1);
      }
    }
    if (target < 1) {
      e.problems.push_back("line " + std::to_string(this_line) + ": marker points above line 1");
      continue;
    }
    previous_line = target;
    rest = trimmed(rest);
    const size_t space = rest.find_first_of(" \t");
    const std::string_view kind = rest.substr(0, space);
    const std::string_view after =
        space == std::string_view::npos ? std::string_view{} : trimmed(rest.substr(space));
    if (kind == "ERROR") {
      const std::string_view code = after.substr(0, after.find_first_of(" \t"));
      if (!is_code(code)) {
        e.problems.push_back("line " + std::to_string(this_line) +
                             ": `//~ ERROR` needs a code such as E0200");
        continue;
      }
      e.errors.push_back({std::string(code), target});
      if (const std::string_view text = trimmed(after.substr(code.size())); !text.empty())
        e.error_texts.push_back({e.errors.back(), std::string(text)});
    } else if (kind == "WARNING" || kind == "WARN") {
      if (after.empty()) {
        e.problems.push_back("line " + std::to_string(this_line) +
                             ": `//~ WARNING` needs the text of the warning");
        continue;
      }
      e.warnings.push_back({{std::string(), target}, std::string(after)});
    } else if (kind == "RUNTIME-ERROR") {
      e.runtime_error_lines.push_back(target);
      if (!after.empty()) e.runtime_error_text = std::string(after);
    } else {
      e.problems.push_back("line " + std::to_string(this_line) + ": unknown marker `//~ " +
                           std::string(kind) + "` (expected ERROR, WARNING or RUNTIME-ERROR)");
    }
  }
  if (!e.errors.empty() && !e.runtime_error_lines.empty())
    e.problems.push_back("both `//~ ERROR` and `//~ RUNTIME-ERROR` markers");
  std::sort(e.errors.begin(), e.errors.end());
  return e;
}

namespace {

// Parses ` --> path:LINE:COL` (any indentation); the path may itself contain ':'.
bool parse_location(std::string_view line, std::string& path, int& line_no) {
  line = trimmed(line);
  if (line.substr(0, 4) != "--> ") return false;
  line = trimmed(line.substr(4));
  const size_t last = line.rfind(':');
  if (last == std::string_view::npos || last == 0) return false;
  const size_t middle = line.rfind(':', last - 1);
  if (middle == std::string_view::npos) return false;
  int col = 0;
  if (!parse_int(line.substr(middle + 1, last - middle - 1), line_no) ||
      !parse_int(line.substr(last + 1), col))
    return false;
  path = std::string(line.substr(0, middle));
  return true;
}

}  // namespace

namespace {

// The errors (`error[CODE]: …`) or the warnings (`warning: …`) of a stderr text, each with the
// location on the ` --> ` line that follows its headline.
std::vector<ScrapedDiagnostic> scrape(std::string_view text, bool warnings) {
  std::vector<ScrapedDiagnostic> found;
  std::optional<ScrapedDiagnostic> pending;  // a headline still waiting for its `-->`
  for (std::string_view line : split_lines(text)) {
    if (line.substr(0, 6) == "error[") {
      const size_t close = line.find("]:");
      pending.reset();
      if (!warnings && close != std::string_view::npos && is_code(line.substr(6, close - 6)))
        pending = ScrapedDiagnostic{std::string(line.substr(6, close - 6)),
                                    {},
                                    0,
                                    std::string(trimmed(line.substr(close + 2)))};
      continue;
    }
    if (line.substr(0, 6) == "error:" || line.substr(0, 7) == "warning") {
      pending.reset();  // a diagnostic without a code, or a warning
      const std::string_view message = trimmed(line.substr(std::min<size_t>(8, line.size())));
      const bool summary = message.ends_with(" warning emitted") ||  // `N warnings emitted`
                           message.ends_with(" warnings emitted");
      if (warnings && line.substr(0, 8) == "warning:" && !summary)
        pending = ScrapedDiagnostic{{}, {}, 0, std::string(message)};
      continue;
    }
    std::string path;
    int line_no = 0;
    if (pending && parse_location(line, path, line_no)) {
      found.push_back({pending->code, path, line_no, pending->message});
      pending.reset();
    }
  }
  return found;
}

}  // namespace

std::vector<ScrapedDiagnostic> scrape_diagnostics(std::string_view text) {
  return scrape(text, false);
}

std::vector<ScrapedDiagnostic> scrape_warnings(std::string_view text) { return scrape(text, true); }

std::vector<std::pair<std::string, int>> scrape_locations(std::string_view text) {
  std::vector<std::pair<std::string, int>> found;
  for (std::string_view line : split_lines(text)) {
    std::string path;
    int line_no = 0;
    if (parse_location(line, path, line_no)) found.emplace_back(path, line_no);
  }
  return found;
}

namespace {

// An implementation's JSON line is read with the limits of every JSON vx reads (support/
// json_input.hpp): deeper or longer, it is not a diagnostic.
constexpr size_t kMaxJsonLine = size_t{16} << 20;

// One line of `--error-format=json` (spec/cli.md §5) as a diagnostic: its level, code (empty when
// null), message, and the file and line of its primary span (the first with "is_primary", else
// the first; none: an empty path and line 0). False when the line is not such an object.
bool parse_json_diagnostic(std::string_view line, std::string& level, ScrapedDiagnostic& d,
                           std::string& rendered) {
  line = trimmed(line);
  if (!line.starts_with("{")) return false;
  std::string why;  // not a diagnostic: the line is then judged as text
  const std::optional<nlohmann::json> parsed = parse_json(line, kMaxJsonLine, why);
  if (!parsed || !parsed->is_object()) return false;
  const nlohmann::json& j = *parsed;
  const auto level_it = j.find("level");
  const auto message_it = j.find("message");
  if (level_it == j.end() || !level_it->is_string() || message_it == j.end() ||
      !message_it->is_string())
    return false;
  level = level_it->get<std::string>();
  d.message = message_it->get<std::string>();
  if (const auto code = j.find("code"); code != j.end() && code->is_string())
    d.code = code->get<std::string>();
  if (const auto text = j.find("rendered"); text != j.end() && text->is_string())
    rendered = text->get<std::string>();
  const auto spans = j.find("spans");
  if (spans == j.end() || !spans->is_array()) return true;
  const nlohmann::json* primary = nullptr;
  for (const auto& span : *spans) {
    if (!span.is_object()) continue;
    if (!primary) primary = &span;
    if (const auto is = span.find("is_primary");
        is != span.end() && is->is_boolean() && is->get<bool>()) {
      primary = &span;
      break;
    }
  }
  if (primary) {
    if (const auto file = primary->find("file"); file != primary->end() && file->is_string())
      d.path = file->get<std::string>();
    if (const auto at = primary->find("line_start");
        at != primary->end() && at->is_number_integer())
      d.line = static_cast<int>(std::clamp<int64_t>(at->get<int64_t>(), 0, INT32_MAX));
  }
  return true;
}

}  // namespace

Reported read_reported(std::string_view text, DiagnosticFormat format) {
  Reported r;
  if (format == DiagnosticFormat::Human) {
    r.errors = scrape_diagnostics(text);
    r.warnings = scrape_warnings(text);
    r.locations = scrape_locations(text);
    r.text = std::string(text);
    return r;
  }
  for (std::string_view line : split_lines(text)) {
    std::string level, rendered;
    ScrapedDiagnostic d;
    if (!parse_json_diagnostic(line, level, d, rendered)) continue;
    ++r.json_objects;
    r.text += d.message + "\n" + rendered + "\n";
    if (level == "warning") {
      if (d.line > 0) r.warnings.push_back({{}, d.path, d.line, d.message});
    } else if (level == "error") {
      if (!d.code.empty() && d.line > 0)
        r.errors.push_back(d);
      else if (d.code.empty() && d.line > 0)
        r.locations.emplace_back(d.path, d.line);
    }
  }
  return r;
}

bool same_program(std::string_view printed, std::string_view program_path) {
  namespace fs = std::filesystem;
  if (printed == program_path) return true;
  const std::string name = fs::path(program_path).filename().string();
  if (printed == name) return true;
  if (printed.size() > name.size() && printed.substr(printed.size() - name.size()) == name &&
      printed[printed.size() - name.size() - 1] == '/') {
    // Same file name: accept unless both resolve and differ.
    std::error_code ec1, ec2;
    const auto a = fs::weakly_canonical(fs::path(printed), ec1);
    const auto b = fs::weakly_canonical(fs::path(program_path), ec2);
    return ec1 || ec2 || a == b || !fs::exists(a);
  }
  return false;
}

namespace {

std::string first_line(std::string_view text) {
  for (std::string_view line : split_lines(text))
    if (!trimmed(line).empty()) return printable(trimmed(line));
  return {};
}

std::string describe_end(const RunResult& run) {
  if (run.timed_out) return "timed out";
  if (run.signal) return "killed by signal " + std::to_string(run.signal);
  return "exit status " + std::to_string(run.exit_status);
}

// The first difference between two outputs, or empty when they are equal.
std::string stdout_difference(std::string_view expected, std::string_view actual) {
  if (expected == actual) return {};
  const auto want = split_lines(expected);
  const auto got = split_lines(actual);
  for (size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
    const std::string where = "stdout line " + std::to_string(i + 1) + ": ";
    if (i >= got.size()) return where + "expected `" + printable(want[i]) + "`, got end of output";
    if (i >= want.size()) return where + "expected end of output, got `" + printable(got[i]) + "`";
    if (want[i] != got[i])
      return where + "expected `" + printable(want[i]) + "`, got `" + printable(got[i]) + "`";
  }
  const bool want_newline = !expected.empty() && expected.back() == '\n';
  return want_newline ? "stdout: missing the final newline" : "stdout: unexpected final newline";
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

// Why expected diagnostics may be missing from stderr when the implementation did report them:
// on stdout, or in the other format (spec/cli.md §6.3: the runner reads stderr, in the human
// format unless `--impl-format=json`).
std::string where_else(const RunResult& run, DiagnosticFormat format, const Reported& reported) {
  if (!read_reported(run.out, format).errors.empty())
    return " (the implementation printed diagnostics on stdout; the runner reads stderr)";
  if (format == DiagnosticFormat::Json) {
    if (reported.json_objects == 0 && !scrape_diagnostics(run.err).empty())
      return " (stderr holds human diagnostics; --impl-format=json reads one JSON object a line)";
    return {};
  }
  for (std::string_view line : split_lines(run.err))
    if (trimmed(line).substr(0, 1) == "{" && line.find("\"code\"") != std::string_view::npos)
      return " (stderr holds JSON diagnostics; the runner reads the human format: `error[CODE]: …` "
             "then ` --> FILE:LINE:COL`, or JSON lines with --impl-format=json)";
  return {};
}

// A file with `//~ WARNING` markers: each marker is matched by a warning on its line whose
// message has its text, and each warning printed for the file by a marker (spec/cli.md §6.1).
void judge_warnings(const Expectations& expect, const Reported& reported,
                    std::string_view program_path, std::vector<std::string>& faults) {
  if (expect.warnings.empty()) return;
  std::vector<ScrapedDiagnostic> printed;
  for (const ScrapedDiagnostic& w : reported.warnings)
    if (same_program(w.path, program_path)) printed.push_back(w);
  auto matches = [](const Expectations::Text& want, const ScrapedDiagnostic& d) {
    return d.line == want.at.line && d.message.find(want.text) != std::string::npos;
  };
  for (const auto& want : expect.warnings) {
    if (std::any_of(printed.begin(), printed.end(),
                    [&](const ScrapedDiagnostic& d) { return matches(want, d); }))
      continue;
    std::vector<std::string> there;  // the warnings on that line
    for (const ScrapedDiagnostic& d : printed)
      if (d.line == want.at.line) there.push_back("`" + printable(d.message) + "`");
    faults.push_back("missing warning `" + printable(want.text) + "` at line " +
                     std::to_string(want.at.line) +
                     (there.empty() ? std::string() : ", got " + join(there, ", ")));
  }
  for (const ScrapedDiagnostic& d : printed)
    if (std::none_of(expect.warnings.begin(), expect.warnings.end(),
                     [&](const Expectations::Text& want) { return matches(want, d); }))
      faults.push_back("unexpected warning at line " + std::to_string(d.line) + ": `" +
                       printable(d.message) + "`");
}

}  // namespace

std::string judge(const Expectations& expect, const std::optional<std::string>& expected_stdout,
                  std::optional<int> expected_exit, const RunResult& run,
                  std::string_view program_path, DiagnosticFormat format) {
  if (!expect.problems.empty()) return "corpus error: " + join(expect.problems, "; ");
  if (!run.started) return "could not start the implementation: " + run.err;
  if (run.timed_out) return "timed out";
  std::vector<std::string> faults;
  const std::string stderr_hint =
      run.err.empty() ? std::string() : " (stderr: " + first_line(run.err) + ")";
  if (run.left_open)
    faults.push_back("exited with status " + std::to_string(run.exit_status) +
                     ", but a process it started still held its stdout or stderr open 2 s later");
  const Reported reported = read_reported(run.err, format);
  judge_warnings(expect, reported, program_path, faults);

  if (!expect.errors.empty()) {
    // A refusal: exit status 1 and exactly the marked (code, line) pairs.
    if (run.signal || run.exit_status != 1)
      faults.push_back(describe_end(run) + ", expected 1 (refused)" +
                       (run.exit_status == 0 ? std::string() : stderr_hint));
    std::vector<ExpectedDiagnostic> actual;
    std::vector<std::string> elsewhere;
    const auto& scraped = reported.errors;
    for (const auto& d : scraped) {
      if (same_program(d.path, program_path))
        actual.push_back({d.code, d.line});
      else
        elsewhere.push_back(d.code + " at " + d.path + ":" + std::to_string(d.line));
    }
    // Sets of (code, line) pairs (spec/cli.md §6.1): two diagnostics, or two markers, with one
    // code on one line are one pair.
    std::sort(actual.begin(), actual.end());
    actual.erase(std::unique(actual.begin(), actual.end()), actual.end());
    std::vector<ExpectedDiagnostic> wanted = expect.errors;  // sorted by parse_expectations
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    std::vector<ExpectedDiagnostic> missing, unexpected;
    std::set_difference(wanted.begin(), wanted.end(), actual.begin(), actual.end(),
                        std::back_inserter(missing));
    std::set_difference(actual.begin(), actual.end(), wanted.begin(), wanted.end(),
                        std::back_inserter(unexpected));
    auto list = [](const std::vector<ExpectedDiagnostic>& ds) {
      std::vector<std::string> parts;
      for (const auto& d : ds) parts.push_back(code_at(d.code, d.line));
      return join(parts, ", ");
    };
    if (!missing.empty())
      faults.push_back("missing diagnostics " + list(missing) + where_else(run, format, reported));
    if (!unexpected.empty()) faults.push_back("unexpected diagnostics " + list(unexpected));
    if (!elsewhere.empty())
      faults.push_back("diagnostics in other files: " + join(elsewhere, ", "));
    for (const auto& want : expect.error_texts) {
      std::vector<std::string> messages;  // of the diagnostics at that code and line
      bool found = false;
      for (const auto& d : scraped)
        if (d.code == want.at.code && d.line == want.at.line &&
            same_program(d.path, program_path)) {
          found = found || d.message.find(want.text) != std::string::npos;
          messages.push_back("`" + printable(d.message) + "`");
        }
      if (!found && !messages.empty())
        faults.push_back(want.at.code + ":" + std::to_string(want.at.line) + ": expected `" +
                         printable(want.text) + "` in the message, got " + join(messages, ", "));
    }
    return join(faults, "; ");
  }

  if (!expect.runtime_error_lines.empty()) {
    if (run.signal || run.exit_status != 101)
      faults.push_back(describe_end(run) + ", expected 101 (runtime error)" + stderr_hint);
    bool located = false;
    for (const auto& [path, line] : reported.locations)
      if (same_program(path, program_path) &&
          std::find(expect.runtime_error_lines.begin(), expect.runtime_error_lines.end(), line) !=
              expect.runtime_error_lines.end())
        located = true;
    const std::string line = std::to_string(expect.runtime_error_lines.front());
    if (!located && format == DiagnosticFormat::Human)
      faults.push_back("stderr does not point at line " + line + " (` --> " +
                       std::string(program_path) + ":" + line + ":…`)");
    else if (!located)
      faults.push_back("stderr has no JSON error without a code whose primary span is at line " +
                       line);
    if (!expect.runtime_error_text.empty() &&
        reported.text.find(expect.runtime_error_text) == std::string::npos)
      faults.push_back("stderr lacks `" + printable(expect.runtime_error_text) + "`");
    if (expected_stdout) {
      const std::string diff = stdout_difference(*expected_stdout, run.out);
      if (!diff.empty()) faults.push_back(diff);
    }
    return join(faults, "; ");
  }

  if (!expected_stdout && !expect.check_only)
    return "corpus error: no .stdout file and no //~ markers";
  const int want_exit = expected_exit.value_or(0);
  if (run.signal || run.exit_status != want_exit)
    faults.push_back(describe_end(run) + ", expected " + std::to_string(want_exit) + stderr_hint);
  if (expected_stdout) {
    const std::string diff = stdout_difference(*expected_stdout, run.out);
    if (!diff.empty()) faults.push_back(diff);
  }
  return join(faults, "; ");
}

}  // namespace conformance
}  // namespace vx
