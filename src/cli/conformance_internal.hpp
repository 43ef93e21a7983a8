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

// One program's result, as the reports list it.
struct Case {
  std::string path;
  std::string reason;  // empty: passed
  long duration_ms = 0;
};

// The reports (conformance_report.cpp): `{passed, failed, results: [{file, status, reason,
// duration_ms}]}` as JSON, and JUnit XML; both valid whatever bytes a reason quotes.
std::string to_json(const std::vector<Case>& cases, int passed, int failed);
std::string to_junit(const std::vector<Case>& cases, int passed, int failed);

}  // namespace vx::conformance
