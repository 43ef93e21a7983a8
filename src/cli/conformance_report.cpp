// The conformance runner's reports (conformance_internal.hpp): JSON and JUnit XML of the results,
// in corpus order, what the text report says of one case and under a failure, and the pass
// rates per spec section. Program output quoted in a reason may be any bytes: JSON gets valid UTF-8
// and XML only characters of its Char production (invalid ones become U+FFFD).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/conformance.hpp"
#include "cli/conformance_internal.hpp"

namespace vx::conformance {

namespace {

namespace fs = std::filesystem;

// Decodes one UTF-8 sequence at `i` strictly (no overlong forms, no surrogates, at most
// U+10FFFF); returns its length, or 0 for a byte that does not start a valid sequence.
int decode_utf8_strict(std::string_view s, size_t i, uint32_t& cp) {
  const auto b = static_cast<unsigned char>(s[i]);
  int len = 0;
  uint32_t min = 0;
  if (b < 0x80) {
    cp = b;
    return 1;
  } else if ((b >> 5) == 6) {
    len = 2, cp = b & 0x1f, min = 0x80;
  } else if ((b >> 4) == 14) {
    len = 3, cp = b & 0x0f, min = 0x800;
  } else if ((b >> 3) == 30) {
    len = 4, cp = b & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (int k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return len;
}

// XML 1.0 text for an attribute or element: each character outside the Char production
// (#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]) and each byte that is
// not valid UTF-8 becomes U+FFFD; markup characters and line breaks become references (so that
// an attribute keeps its tabs and newlines).
std::string xml_escape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0;
    const int len = decode_utf8_strict(s, i, cp);
    const bool is_char =
        len > 0 && (cp == 0x9 || cp == 0xa || cp == 0xd || (cp >= 0x20 && cp <= 0xd7ff) ||
                    (cp >= 0xe000 && cp <= 0xfffd) || cp >= 0x10000);
    if (!is_char) {
      out += "\xef\xbf\xbd";
      i += len > 0 ? len : 1;
      continue;
    }
    switch (cp) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\t':
        out += "&#9;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        out.append(s.substr(i, len));
    }
    i += len;
  }
  return out;
}

// JSON needs valid UTF-8 (nlohmann refuses overlong forms and surrogates); reasons quote program
// output, which may not be: each invalid byte becomes U+FFFD.
std::string valid_utf8(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0;
    const int len = decode_utf8_strict(s, i, cp);
    if (len > 0) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out += "\xef\xbf\xbd";
      ++i;
    }
  }
  return out;
}

}  // namespace

const char* failure_name(Failure f) {
  static constexpr const char* kNames[] = {"none", "mismatch", "timeout", "crash", "corpus-error"};
  return kNames[static_cast<int>(f)];
}

std::string bounded(std::string_view text, size_t limit) {
  if (text.size() <= limit) return std::string(text);
  return std::string(text.substr(0, limit)) + "\n[… " + std::to_string(text.size() - limit) +
         " more bytes]\n";
}

std::string unified_diff(std::string_view expected, std::string_view actual, size_t max_lines) {
  if (expected == actual) return {};
  const std::vector<std::string_view> a = split_lines(expected), b = split_lines(actual);
  if (a == b) return "(the outputs differ only in the final newline)\n";
  size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre &&
         a[a.size() - 1 - suf] == b[b.size() - 1 - suf])
    ++suf;
  // The differing middle as an edit script: a longest common subsequence when it is small enough
  // to find cheaply, else everything removed, then everything added.
  const size_t n = a.size() - pre - suf, m = b.size() - pre - suf;
  std::vector<std::pair<char, std::string_view>> edits;
  if (n * m <= 4'000'000) {
    std::vector<std::vector<uint32_t>> lcs(n + 1, std::vector<uint32_t>(m + 1, 0));
    for (size_t i = n; i-- > 0;)
      for (size_t j = m; j-- > 0;)
        lcs[i][j] = a[pre + i] == b[pre + j] ? lcs[i + 1][j + 1] + 1
                                             : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[pre + i] == b[pre + j]) {
        edits.push_back({' ', a[pre + i++]});
        ++j;
      } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
        edits.push_back({'-', a[pre + i++]});  // removed lines first, as diff -u prints them
      } else {
        edits.push_back({'+', b[pre + j++]});
      }
    }
  } else {
    for (size_t i = 0; i < n; ++i) edits.push_back({'-', a[pre + i]});
    for (size_t j = 0; j < m; ++j) edits.push_back({'+', b[pre + j]});
  }
  constexpr size_t kContext = 3;
  const size_t before = std::min(pre, kContext), after = std::min(suf, kContext);
  std::vector<std::pair<char, std::string_view>> lines;
  for (size_t k = pre - before; k < pre; ++k) lines.push_back({' ', a[k]});
  lines.insert(lines.end(), edits.begin(), edits.end());
  for (size_t k = a.size() - suf; k < a.size() - suf + after; ++k) lines.push_back({' ', a[k]});
  std::string out = "--- expected\n+++ actual\n@@ -" + std::to_string(pre - before + 1) + "," +
                    std::to_string(before + n + after) + " +" + std::to_string(pre - before + 1) +
                    "," + std::to_string(before + m + after) + " @@\n";
  for (size_t k = 0; k < lines.size(); ++k) {
    if (k == max_lines) {
      out += "[… " + std::to_string(lines.size() - k) + " more lines]\n";
      break;
    }
    out += lines[k].first + printable(lines[k].second, 200) + "\n";
  }
  return out;
}

Status status_of(const Case& c) {
  if (c.xfail) return c.reason.empty() ? Status::XPass : Status::XFail;
  return c.reason.empty() ? Status::Pass : Status::Fail;
}

const char* status_name(Status s) {
  static constexpr const char* kNames[] = {"pass", "fail", "xfail", "xpass"};
  return kNames[static_cast<int>(s)];
}

Tally tally(const std::vector<Case>& cases) {
  Tally t;
  for (const Case& c : cases) {
    const Status s = status_of(c);
    (s == Status::Pass ? t.passed : s == Status::XFail ? t.xfailed : t.failed)++;
    if (s == Status::Fail && c.failure == Failure::Crash) ++t.crashed;
  }
  return t;
}

namespace {

constexpr const char* kXPass = "passed, but listed as an expected failure (--xfail)";
constexpr std::string_view kNoHeader = "(no spec header)";

// Each line of `text` after `prefix`, at most `max_lines` of them (then a line saying how many
// more), control characters escaped.
std::string quoted_lines(std::string_view text, std::string_view prefix, size_t max_lines) {
  std::string out;
  const auto lines = split_lines(text);
  for (size_t k = 0; k < lines.size(); ++k) {
    if (k == max_lines) {
      out += std::string(prefix) + "[… " + std::to_string(lines.size() - k) + " more lines]\n";
      break;
    }
    out += std::string(prefix) + printable(lines[k], 300) + "\n";
  }
  return out;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out.empty() ? "none" : out;
}

// `§2.10` after `§2.9`: digit runs compare as numbers, the rest as text.
bool natural_less(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      size_t ie = i, je = j;
      while (ie < a.size() && digit(a[ie])) ++ie;
      while (je < b.size() && digit(b[je])) ++je;
      std::string_view na = a.substr(i, ie - i), nb = b.substr(j, je - j);
      while (na.size() > 1 && na[0] == '0') na.remove_prefix(1);
      while (nb.size() > 1 && nb[0] == '0') nb.remove_prefix(1);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ie, j = je;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i, ++j;
  }
  return a.size() - i < b.size() - j;
}

}  // namespace

std::string glob_escape(std::string_view path) {
  std::string out;
  for (char c : path) {
    if (c == '*' || c == '?' || c == '[' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string case_line(const Case& c, std::string_view xfail_file) {
  switch (status_of(c)) {
    case Status::Fail:
      return "FAIL " + c.path + ": " + c.reason;
    case Status::XPass:
      return "XPASS " + c.path + ": passed, but listed in `" + std::string(xfail_file) + "`";
    case Status::XFail:
      return "XFAIL " + c.path + ": " + c.reason;
    case Status::Pass:
      break;
  }
  return "PASS " + c.path + " (" + std::to_string(c.duration_ms) + " ms)";
}

std::string failure_details(const Case& c, bool with_outputs, size_t stderr_lines) {
  std::string out;
  if (!c.spec.empty()) out += "spec: " + c.spec + "\n";
  if (c.ran && c.expected_stdout && c.failure == Failure::Mismatch)
    out += unified_diff(*c.expected_stdout, c.out);
  if (with_outputs && c.expected_stdout)
    out += "expected stdout:\n" + quoted_lines(bounded(*c.expected_stdout), "| ", SIZE_MAX);
  if (with_outputs && c.ran) {
    out += "stdout:\n" + quoted_lines(bounded(c.out), "| ", SIZE_MAX);
    if (!c.expected_diagnostics.empty() || !c.found_diagnostics.empty())
      out += "expected diagnostics: " + joined(c.expected_diagnostics) +
             "\nfound diagnostics: " + joined(c.found_diagnostics) + "\n";
  }
  if (c.ran && c.stderr_matters && !c.err.empty())
    out += "stderr:\n" + quoted_lines(bounded(c.err), "| ", stderr_lines);
  return out;
}

SectionRates section_rates(const std::vector<Case>& cases) {
  std::map<std::string, SectionRate> chapters, sections;
  auto count = [](SectionRate& r, Status s) {
    (s == Status::Pass ? r.passed : s == Status::XFail ? r.xfailed : r.failed)++;
  };
  for (const Case& c : cases) {
    const Status s = status_of(c);
    std::vector<std::string> keys = spec_keys(c.spec);
    if (keys.empty()) keys.emplace_back(kNoHeader);
    std::vector<std::string> named_chapters;
    for (const std::string& key : keys) {
      const std::string chapter = key == kNoHeader ? key : key.substr(0, key.find(' '));
      if (std::find(named_chapters.begin(), named_chapters.end(), chapter) == named_chapters.end())
        named_chapters.push_back(chapter);
      if (key != chapter) {
        SectionRate& r = sections[key];
        r.key = key;
        count(r, s);
      }
    }
    for (const std::string& chapter : named_chapters) {
      SectionRate& r = chapters[chapter];
      r.key = chapter;
      count(r, s);
    }
  }
  SectionRates rates;
  for (auto& [key, r] : chapters) rates.chapters.push_back(r);
  for (auto& [key, r] : sections) rates.sections.push_back(r);
  auto order = [](const SectionRate& a, const SectionRate& b) {  // the programs without last
    return (a.key == kNoHeader) != (b.key == kNoHeader) ? b.key == kNoHeader
                                                        : natural_less(a.key, b.key);
  };
  std::sort(rates.chapters.begin(), rates.chapters.end(), order);
  std::sort(rates.sections.begin(), rates.sections.end(), order);
  return rates;
}

std::string section_rates_text(const SectionRates& rates) {
  auto line = [](const SectionRate& r) {
    const int total = r.passed + r.failed + r.xfailed;
    std::string out = r.key + ": " + std::to_string(r.passed) + " of " + std::to_string(total) +
                      " passed (" + std::to_string(total ? 100 * r.passed / total : 0) + "%)";
    if (r.failed) out += ", " + std::to_string(r.failed) + " failed";
    if (r.xfailed) out += ", " + std::to_string(r.xfailed) + " expected failures";
    return out + "\n";
  };
  std::string out = "pass rates by spec section:\n";
  for (const SectionRate& chapter : rates.chapters) {
    out += "  " + line(chapter);
    for (const SectionRate& section : rates.sections)
      if (section.key.starts_with(chapter.key + " ")) out += "    " + line(section);
  }
  return out;
}

std::string to_json(const std::vector<Case>& cases) {
  nlohmann::json results = nlohmann::json::array();
  for (const auto& c : cases) {
    const Status s = status_of(c);
    nlohmann::json r = {
        {"file", valid_utf8(c.path)},
        {"status", status_name(s)},
        {"reason", valid_utf8(s == Status::XPass ? kXPass : c.reason)},
        {"duration_ms", c.duration_ms},
        {"spec", c.spec.empty() ? nlohmann::json() : nlohmann::json(valid_utf8(c.spec))},
        {"failure", c.reason.empty() ? nlohmann::json() : failure_name(c.failure)},
        {"expected_diagnostics", c.expected_diagnostics}};
    if (c.expected_stdout) r["expected_stdout"] = valid_utf8(bounded(*c.expected_stdout));
    if (c.expected_exit) r["expected_exit"] = *c.expected_exit;
    if (c.ran) {
      r["stdout"] = valid_utf8(bounded(c.out));
      r["stderr"] = valid_utf8(bounded(c.err));
      r["exit_status"] = c.exit_status >= 0 ? nlohmann::json(c.exit_status) : nlohmann::json();
      r["signal"] = c.signal ? nlohmann::json(c.signal) : nlohmann::json();
      r["found_diagnostics"] = c.found_diagnostics;
    }
    results.push_back(std::move(r));
  }
  const Tally t = tally(cases);
  const SectionRates rates = section_rates(cases);
  auto rate_rows = [](const std::vector<SectionRate>& rows) {
    nlohmann::json out = nlohmann::json::array();
    for (const SectionRate& r : rows) {
      const int total = r.passed + r.failed + r.xfailed;
      out.push_back({{"section", valid_utf8(r.key)},
                     {"passed", r.passed},
                     {"failed", r.failed},
                     {"xfailed", r.xfailed},
                     {"total", total},
                     {"pass_rate", total ? static_cast<double>(r.passed) / total : 0.0}});
    }
    return out;
  };
  nlohmann::json doc = {{"passed", t.passed},
                        {"failed", t.failed},
                        {"xfailed", t.xfailed},
                        {"results", results},
                        {"chapters", rate_rows(rates.chapters)},
                        {"sections", rate_rows(rates.sections)}};
  return doc.dump(2) + "\n";
}

std::string to_junit(const std::vector<Case>& cases) {
  const Tally t = tally(cases);
  const int errors = t.crashed, failed = t.failed - errors;  // a crash is JUnit's error
  const int tests = t.passed + t.failed + t.xfailed;
  long total_ms = 0;
  for (const auto& c : cases) total_ms += c.duration_ms;
  auto seconds = [](long ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", ms / 1000.0);
    return std::string(buf);
  };
  const std::string counts = "tests=\"" + std::to_string(tests) + "\" failures=\"" +
                             std::to_string(failed) + "\" errors=\"" + std::to_string(errors) +
                             "\" skipped=\"" + std::to_string(t.xfailed) + "\" time=\"" +
                             seconds(total_ms) + "\"";
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x << "<testsuites name=\"vx conformance\" " << counts << ">\n";
  x << "  <testsuite name=\"conformance\" " << counts << ">\n";
  for (const auto& c : cases) {
    const fs::path p(c.path);
    std::string classname = p.parent_path().generic_string();
    std::replace(classname.begin(), classname.end(), '/', '.');
    if (classname.empty()) classname = "conformance";
    x << "    <testcase classname=\"" << xml_escape(classname) << "\" name=\""
      << xml_escape(p.filename().string()) << "\" file=\"" << xml_escape(c.path) << "\" time=\""
      << seconds(c.duration_ms) << "\"";
    const Status s = status_of(c);
    if (s == Status::Pass) {
      x << "/>\n";
      continue;
    }
    if (s == Status::XFail) {
      const std::string reason = xml_escape("expected failure: " + c.reason);
      x << ">\n      <skipped message=\"" << reason << "\"/>\n    </testcase>\n";
      continue;
    }
    // A failure (an error for a crash) of its kind, with what the implementation printed.
    // Its text: the reason, then what the text report shows under it and both outputs.
    const std::string reason = xml_escape(s == Status::XPass ? kXPass : c.reason);
    const std::string details =
        s == Status::XPass ? std::string() : failure_details(c, true, SIZE_MAX);
    const char* element = s == Status::Fail && c.failure == Failure::Crash ? "error" : "failure";
    x << ">\n      <" << element << " message=\"" << reason << "\" type=\""
      << (s == Status::XPass ? "xpass" : failure_name(c.failure)) << "\">" << reason
      << (details.empty() ? "" : xml_escape("\n\n" + details)) << "</" << element << ">\n";
    if (c.ran)
      x << "      <system-out>" << xml_escape(bounded(c.out)) << "</system-out>\n"
        << "      <system-err>" << xml_escape(bounded(c.err)) << "</system-err>\n";
    x << "    </testcase>\n";
  }
  x << "  </testsuite>\n</testsuites>\n";
  return x.str();
}

}  // namespace vx::conformance
