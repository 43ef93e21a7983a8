// Internal to the conformance runner (src/cli/conformance*.cpp), not an API: what its files share
// besides conformance.hpp (text helpers, one case's result, the reports). Needs nothing from the
// rest of vx. spec/cli.md (`vx conformance`), DESIGN §7.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace vx::conformance {

// Keeps a reason on one readable line: control characters escaped, long text cut.
std::string printable(std::string_view s, size_t limit = 160);

// A decimal int of at most 9 characters (blanks around it allowed); false when it is not one.
bool parse_int(std::string_view s, int& value);

// Blanks and line breaks off both ends; the lines of a text (without their `\n`).
std::string_view trim(std::string_view s);
std::vector<std::string_view> split_lines(std::string_view text);

// One program's result, as the reports list it.
struct Case {
  std::string path;
  std::string reason;  // empty: passed
  long duration_ms = 0;
  bool xfail = false;  // listed in `--xfail FILE`: a failure is expected
};

// What a case counts as: pass, fail, xfail (failed as listed: not a failure of the run) or xpass
// (listed, but passed: a failure, so that the list is kept up to date).
enum class Status { Pass, Fail, XFail, XPass };
Status status_of(const Case& c);
const char* status_name(Status s);  // "pass", "fail", "xfail", "xpass"

struct Tally {
  int passed = 0, failed = 0, xfailed = 0;  // an xpass is one of the failed
};
Tally tally(const std::vector<Case>& cases);

// The reports (conformance_report.cpp): `{passed, failed, xfailed, results: [{file, status,
// reason, duration_ms}]}` as JSON, and JUnit XML (an xfail is `<skipped>`); both valid whatever
// bytes a reason quotes.
std::string to_json(const std::vector<Case>& cases);
std::string to_junit(const std::vector<Case>& cases);

}  // namespace vx::conformance
