// Internal to the conformance runner (src/cli/conformance*.cpp), not an API: what its files share
// besides conformance.hpp (text helpers, one case's result, the reports). Needs nothing from the
// rest of vx but support/ascii.hpp's inline helpers. spec/cli.md (`vx conformance`), DESIGN §7.
#pragma once
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "support/ascii.hpp"

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

// The lines of a text (without their `\n`).
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
  // Whether standard error is part of the failure, so that the reports show it: the test expects
  // diagnostics, a runtime error or warnings, or the implementation ended otherwise than
  // expected (a wrong exit status, a crash).
  bool stderr_matters = false;
  bool start_failed = false;  // the implementation could not be executed
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
// reason, duration_ms, …}], chapters, sections}` as JSON, and JUnit XML (an xfail is
// `<skipped>`, a failure's text its reason and failure_details); both valid whatever bytes a
// reason quotes.
std::string to_json(const std::vector<Case>& cases);
std::string to_junit(const std::vector<Case>& cases);

// What the reports say under a failure's reason (text, indented, and JUnit): its `// spec:`
// section, the unified diff of its output, both outputs (`with_outputs`: JUnit's), the
// diagnostics expected and found, and its standard error where that matters (at most
// `stderr_lines` lines in the text report).
std::string failure_details(const Case& c, bool with_outputs, size_t stderr_lines);

// The line that reports one finished case (the text report, progress lines): `FAIL path: reason`,
// `PASS path (12 ms)`, `XFAIL path: reason`, `XPASS path: …`;
// `xfail_file` is the --xfail file an XPASS names.
std::string case_line(const Case& c, std::string_view xfail_file);

// Pass rates per section of the spec that the programs' `// spec:` headers name, and per chapter
// (a program counted once in each section and chapter it names; `(no spec header)` for those
// without one), in the spec's order of chapters and sections (`§2` before `§10`).
struct SectionRate {
  std::string key;  // `types.md §2.1`, or the chapter `types.md`
  int passed = 0, failed = 0, xfailed = 0;
};
struct SectionRates {
  std::vector<SectionRate> chapters, sections;
};
SectionRates section_rates(const std::vector<Case>& cases);
// The `--by-section` text: each chapter's line, then its sections' lines, indented.
std::string section_rates_text(const SectionRates& rates);

// A path as a glob of `--xfail` that matches only itself (`*`, `?`, `[` and `\` escaped).
std::string glob_escape(std::string_view path);

// Shows what a run has done so far on standard error (`--progress`): a line per finished program,
// or one line kept up to date on a terminal (count, passes, failures, rate, time left). Its
// methods may be called from every worker thread.
class Progress {
 public:
  enum class Mode { Off, Lines, Bar };
  // `columns`: the terminal's width, for the bar.
  Progress(Mode mode, std::ostream& err, size_t total, int columns, std::string xfail_file);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void finished(const Case& c);
  // The bar is cleared and the last line says how long the run took.
  void done();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// A unified diff of two outputs, line by line, cut to about `max_lines` lines; empty when equal.
std::string unified_diff(std::string_view expected, std::string_view actual, size_t max_lines = 40);

// At most `limit` bytes of a program's output for a report, with a note of what was cut.
std::string bounded(std::string_view text, size_t limit = 64 << 10);

}  // namespace vx::conformance
