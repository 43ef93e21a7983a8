// The conformance runner's reports (conformance_internal.hpp): JSON and JUnit XML of the results,
// in corpus order. Program output quoted in a reason may be any bytes: JSON gets valid UTF-8 and
// XML only characters of its Char production (invalid ones become U+FFFD).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/conformance_internal.hpp"

namespace vx::conformance {

namespace {

namespace fs = std::filesystem;

// Decodes one UTF-8 sequence at `i` strictly (no overlong forms, no surrogates, at most
// U+10FFFF); returns its length, or 0 for a byte that does not start a valid sequence.
int decode_utf8(std::string_view s, size_t i, uint32_t& cp) {
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
    const int len = decode_utf8(s, i, cp);
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
    const int len = decode_utf8(s, i, cp);
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

Status status_of(const Case& c) {
  if (c.xfail) return c.reason.empty() ? Status::XPass : Status::XFail;
  return c.reason.empty() ? Status::Pass : Status::Fail;
}

const char* status_name(Status s) {
  switch (s) {
    case Status::Pass:
      return "pass";
    case Status::Fail:
      return "fail";
    case Status::XFail:
      return "xfail";
    case Status::XPass:
      return "xpass";
  }
  return "fail";
}

Tally tally(const std::vector<Case>& cases) {
  Tally t;
  for (const Case& c : cases) {
    const Status s = status_of(c);
    (s == Status::Pass ? t.passed : s == Status::XFail ? t.xfailed : t.failed)++;
  }
  return t;
}

std::string to_json(const std::vector<Case>& cases) {
  nlohmann::json results = nlohmann::json::array();
  for (const auto& c : cases) {
    const Status s = status_of(c);
    const std::string reason =
        s == Status::XPass ? "passed, but listed as an expected failure (--xfail)" : c.reason;
    results.push_back({{"file", valid_utf8(c.path)},
                       {"status", status_name(s)},
                       {"reason", valid_utf8(reason)},
                       {"duration_ms", c.duration_ms}});
  }
  const Tally t = tally(cases);
  nlohmann::json doc = {
      {"passed", t.passed}, {"failed", t.failed}, {"xfailed", t.xfailed}, {"results", results}};
  return doc.dump(2) + "\n";
}

std::string to_junit(const std::vector<Case>& cases) {
  const Tally t = tally(cases);
  const int passed = t.passed, failed = t.failed, skipped = t.xfailed;
  long total_ms = 0;
  for (const auto& c : cases) total_ms += c.duration_ms;
  auto seconds = [](long ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", ms / 1000.0);
    return std::string(buf);
  };
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  const int tests = passed + failed + skipped;
  x << "<testsuites name=\"vx conformance\" tests=\"" << tests << "\" failures=\"" << failed
    << "\" errors=\"0\" skipped=\"" << skipped << "\" time=\"" << seconds(total_ms) << "\">\n";
  x << "  <testsuite name=\"conformance\" tests=\"" << tests << "\" failures=\"" << failed
    << "\" errors=\"0\" skipped=\"" << skipped << "\" time=\"" << seconds(total_ms) << "\">\n";
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
    } else if (s == Status::XFail) {
      const std::string reason = xml_escape("expected failure: " + c.reason);
      x << ">\n      <skipped message=\"" << reason << "\"/>\n    </testcase>\n";
    } else {
      const std::string reason = xml_escape(
          s == Status::XPass ? "passed, but listed as an expected failure (--xfail)" : c.reason);
      x << ">\n      <failure message=\"" << reason << "\" type=\""
        << (s == Status::XPass ? "xpass" : "mismatch") << "\">" << reason
        << "</failure>\n    </testcase>\n";
    }
  }
  x << "  </testsuite>\n</testsuites>\n";
  return x.str();
}

}  // namespace vx::conformance
