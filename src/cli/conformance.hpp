// The conformance runner (`vx conformance`, DESIGN §7): runs every *.vx program under the given
// directories through an implementation (this vx, or `--impl CMD`) and compares what it did with
// what the corpus expects: exact stdout (NAME.stdout, NAME.exitcode), refusals marked
// `//~ ERROR CODE` at their lines, runtime failures marked `//~ RUNTIME-ERROR`. .uir programs
// (spec/uir.md §8) are run the same way, with `#` for `//`.
// Needs nothing from the rest of vx: it only spawns processes and reads their output.
#pragma once
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vx {

struct ConformanceOptions {
  std::vector<std::string> dirs;  // directories (searched recursively) or single .vx/.uir files
  std::string impl_template;      // `mycompiler {flags} {file}`; empty = this vx
  std::string self_exe;           // this vx, for the default template
  std::string format = "text";    // text | json | junit
  std::string output_file;        // optional: also write json (or junit, for *.xml) here
  int timeout_seconds = 20;
  int jobs = 2;
  bool verbose = false;
};

// Returns the exit status: 0 all passed, 1 some failed, 2 usage error (missing directory …).
int run_conformance(const ConformanceOptions& options, std::ostream& out, std::ostream& err);

// The runner's pieces, exposed for tests/conformance_runner_test.cpp.
namespace conformance {

struct ExpectedDiagnostic {
  std::string code;  // "E0200"
  int line = 0;      // 1-based
  auto operator<=>(const ExpectedDiagnostic&) const = default;
};

// What a corpus program's comments say about it.
struct Expectations {
  std::string run_flags;                                 // `// run-flags: …` (joined)
  std::vector<std::pair<std::string, std::string>> env;  // `// env: NAME=VALUE …`
  bool check_only = false;                               // `// check-only`
  std::vector<ExpectedDiagnostic> errors;                // `//~ ERROR CODE`, `//~^ …`, `//~| …`
  std::vector<int> runtime_error_lines;                  // `//~ RUNTIME-ERROR [text]`
  std::string runtime_error_text;                        // text that must appear in stderr
  std::vector<std::string> problems;                     // malformed markers: corpus errors
};

// `comment` is the line-comment mark of the program's language: `//` for .vx, `#` for .uir
// (whose markers read `#~ ERROR E6032`, spec/uir.md §8).
Expectations parse_expectations(std::string_view source, std::string_view comment = "//");

// A diagnostic as an implementation printed it: `error[CODE]: …` then ` --> path:LINE:COL`.
struct ScrapedDiagnostic {
  std::string code;
  std::string path;
  int line = 0;
};
std::vector<ScrapedDiagnostic> scrape_diagnostics(std::string_view stderr_text);

// Every ` --> path:LINE:COL` location in the text, in order (path, line).
std::vector<std::pair<std::string, int>> scrape_locations(std::string_view stderr_text);

// Whether a path printed by the implementation names the program at `program_path`.
bool same_program(std::string_view printed, std::string_view program_path);

std::string shell_quote(std::string_view s);

// `{file}` -> the quoted path, `{flags}` -> the run flags (inserted before `{file}` when the
// template has no `{flags}`), `{mode}` -> run or check.
std::string substitute_template(std::string_view tmpl, std::string_view file,
                                std::string_view flags, bool check_only);

// How one run ended.
struct RunResult {
  bool started = true;  // false: the command could not be spawned
  bool timed_out = false;
  int exit_status = -1;  // valid when it exited
  int signal = 0;        // non-zero when a signal killed it
  std::string out, err;
  long duration_ms = 0;
};

// Runs `/bin/sh -c command` with `env` added, stdin from /dev/null, in its own process group
// (killed whole on timeout), capturing stdout and stderr.
RunResult run_command(const std::string& command,
                      const std::vector<std::pair<std::string, std::string>>& env,
                      int timeout_seconds);

// Kills the process group of every program run_command is running now (async-signal-safe).
void kill_live_groups();

// Compares a run with the expectations; returns an empty string when it passes, else the reason.
// `expected_stdout` / `expected_exit` come from NAME.stdout / NAME.exitcode when they exist.
std::string judge(const Expectations& expect, const std::optional<std::string>& expected_stdout,
                  std::optional<int> expected_exit, const RunResult& run,
                  std::string_view program_path);

}  // namespace conformance
}  // namespace vx
