// Internal to the conformance runner (src/cli/conformance*.cpp), not an API: what its files share
// besides conformance.hpp (text helpers, one case's result, the reports). Needs nothing from the
// rest of vx. spec/cli.md (`vx conformance`), DESIGN §7.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vx::conformance {

// A corpus file: a regular file (a FIFO would block the runner) of at most 16 MiB; a longer one
// comes back with one byte more than that, which no expectation can match.
std::optional<std::string> read_file(const std::filesystem::path& p);

// Keeps a reason on one readable line: control characters escaped, long text cut.
std::string printable(std::string_view s, size_t limit = 160);

// A decimal int of at most 9 characters (blanks around it allowed); false when it is not one.
bool parse_int(std::string_view s, int& value);

// `E0200:3`: a diagnostic's code and line, as reports and reasons list them.
std::string code_at(std::string_view code, int line);

// Blanks and line breaks off both ends; the lines of a text (without their `\n`).
std::string_view trim(std::string_view s);
std::vector<std::string_view> split_lines(std::string_view text);

// How a failed case failed: its output or diagnostics differ, it ran past the time limit, a
// signal killed the implementation, or the corpus file itself is wrong.
enum class Failure { None, Mismatch, Timeout, Crash, Corpus };  // failure_name's order
const char* failure_name(Failure f);  // "mismatch", "timeout", "crash", "corpus-error"

// One program's result, as the reports list it.
struct Case {
  std::string path;
  std::string reason;  // empty: passed
  long duration_ms = 0;
  bool xfail = false;    // listed in `--xfail FILE`: a failure is expected
  bool blessed = false;  // `--bless` wrote its NAME.stdout
  Failure failure = Failure::None;
  std::string spec;  // the `// spec:` header: the section the program tests
  // What was expected and what happened (the reports bound the texts); `ran` when the
  // implementation was run at all.
  bool ran = false;
  std::optional<std::string> expected_stdout;
  std::optional<int> expected_exit;
  std::string out, err;
  int exit_status = -1, signal = 0;
  std::vector<std::string> expected_diagnostics, found_diagnostics;  // `E0200:3`
};

// What a case counts as: pass, fail, xfail (failed as listed: not a failure of the run) or xpass
// (listed, but passed: a failure, so that the list is kept up to date).
enum class Status { Pass, Fail, XFail, XPass };  // status_name's order
Status status_of(const Case& c);
const char* status_name(Status s);  // "pass", "fail", "xfail", "xpass"

struct Tally {
  int passed = 0, failed = 0, xfailed = 0;  // an xpass is one of the failed
  int crashed = 0;                          // the failed that crashed (JUnit's errors)
};
Tally tally(const std::vector<Case>& cases);

// The reports (conformance_report.cpp): `{passed, failed, xfailed, results: [{file, status,
// reason, duration_ms}]}` as JSON, and JUnit XML (an xfail is `<skipped>`); both valid whatever
// bytes a reason quotes.
std::string to_json(const std::vector<Case>& cases);
std::string to_junit(const std::vector<Case>& cases);

// A unified diff of two outputs, line by line, cut to about `max_lines` lines; empty when equal.
std::string unified_diff(std::string_view expected, std::string_view actual, size_t max_lines = 40);

// At most `limit` bytes of a program's output for a report, with a note of what was cut.
std::string bounded(std::string_view text, size_t limit = 64 << 10);

}  // namespace vx::conformance
