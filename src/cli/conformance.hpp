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
  std::string impl_template;      // `mycompiler {flags} {file}` (split_words); empty = this vx
  std::string self_exe;           // this vx, for the default template
  std::string format = "text";    // text | json | junit
  std::string output_file;        // optional: also write json (or junit, for *.xml) here
  int timeout_seconds = 20;
  int jobs = 2;
  bool verbose = false;
  std::vector<std::string> filters;   // `--filter GLOB`: only the programs whose path matches one
  std::vector<std::string> excludes;  // `--exclude GLOB`: not those whose path matches one
  std::string xfail_file;             // `--xfail FILE`: globs of the programs expected to fail
  bool bless = false;                 // `--bless`: (re)write NAME.stdout from what this vx printed
  bool coverage = false;  // `--coverage`: the sections of spec/ with their tests; nothing runs
  std::string spec_dir;   // `--spec DIR`; empty: the spec/ of the nearest directory above DIR
  // `--progress`: how the run is reported as it goes, on `err`: `lines` (one per finished
  // program), `bar` (one line kept up to date, for a terminal), `auto` (bar when standard error
  // is a terminal, else lines) or `off`. The command line's default is auto; the library's off.
  std::string progress = "off";
  bool by_section = false;  // `--by-section`: pass rates per `// spec:` section in the text
  std::string write_xfail;  // `--write-xfail FILE`: the failing programs, as --xfail reads them
  std::string impl_format = "human";  // `--impl-format`: human | json (spec/cli.md §5's lines)
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
  std::vector<std::string> run_flag_words;               // the same, split by split_words
  std::vector<std::pair<std::string, std::string>> env;  // `// env: NAME=VALUE …`
  bool check_only = false;                               // `// check-only`
  std::vector<ExpectedDiagnostic> errors;                // `//~ ERROR CODE`, `//~^ …`, `//~| …`
  // `//~ ERROR CODE text`: the diagnostic with that code on that line has the text in its message.
  struct Text {
    ExpectedDiagnostic at;
    std::string text;
  };
  std::vector<Text> error_texts;
  // `//~ WARNING text`: a warning on that line whose message has the text. A file with such
  // markers expects exactly those warnings (one per marked line and text); a file without any
  // may print any warnings.
  std::vector<Text> warnings;            // `at.code` is empty
  std::vector<int> runtime_error_lines;  // `//~ RUNTIME-ERROR [text]`
  std::string runtime_error_text;        // text that must appear in stderr
  std::vector<std::string> problems;     // malformed markers: corpus errors
  std::string spec;                      // `// spec: memory.md §1`: the sections it tests
};

// `comment` is the line-comment mark of the program's language: `//` for .vx, `#` for .uir
// (whose markers read `#~ ERROR E6032`, spec/uir.md §8).
Expectations parse_expectations(std::string_view source, std::string_view comment = "//");

// A diagnostic as an implementation printed it: `error[CODE]: …` (or `warning: …`) then
// ` --> path:LINE:COL`, or one JSON object of spec/cli.md §5.
struct ScrapedDiagnostic {
  std::string code;  // empty for a warning
  std::string path;
  int line = 0;
  std::string message;  // what follows `error[CODE]: ` or `warning: `
};
std::vector<ScrapedDiagnostic> scrape_diagnostics(std::string_view stderr_text);
// The warnings (`warning: …` with a location; not the `N warnings emitted` line).
std::vector<ScrapedDiagnostic> scrape_warnings(std::string_view stderr_text);

// Every ` --> path:LINE:COL` location in the text, in order (path, line).
std::vector<std::pair<std::string, int>> scrape_locations(std::string_view stderr_text);

// How an implementation prints its diagnostics on standard error: rustc's human form, or one
// JSON object a line in vx's `--error-format=json` schema (`--impl-format=json`).
enum class DiagnosticFormat { Human, Json };

// What an implementation reported on standard error, read in one of the two forms.
struct Reported {
  std::vector<ScrapedDiagnostic> errors;    // with a code
  std::vector<ScrapedDiagnostic> warnings;  // code empty
  // Where runtime errors point: every ` --> ` location of the human form; in JSON the primary
  // span of each error without a code.
  std::vector<std::pair<std::string, int>> locations;
  // Where the text of a `//~ RUNTIME-ERROR text` marker is looked for: the human stderr, or the
  // JSON objects' messages and rendered texts.
  std::string text;
  int json_objects = 0;  // JSON mode: the lines that were diagnostic objects
};
Reported read_reported(std::string_view stderr_text, DiagnosticFormat format);

// Whether a path printed by the implementation names the program at `program_path`.
bool same_program(std::string_view printed, std::string_view program_path);

// Splits text into words the way a shell splits one simple command, but expands nothing and runs
// nothing: blanks separate words; '…' keeps everything literally; "…" keeps everything but `\`
// before `"`, `\`, `$`, `` ` `` or a newline; `\` outside quotes keeps the next character.
// `operators`: an unquoted `|&;<>()$` or `` ` `` is an error (for a template the user typed, whose
// author may expect a shell); else it is an ordinary character. Returns an empty string, or why
// the text cannot be split (an unclosed quote …).
std::string split_words(std::string_view text, std::vector<std::string>& words, bool operators);

// The argument vector of one run: in each template word, `{file}` becomes the program's path
// and `{mode}` `run` or `check`; a word `{flags}` becomes the run flags, one word each (put
// before the first word with `{file}` when there is no `{flags}`; `{file}` is appended when the
// template has none). Nothing is quoted: no shell reads the words.
std::vector<std::string> command_words(const std::vector<std::string>& tmpl, std::string_view file,
                                       const std::vector<std::string>& flags, bool check_only);

// Whether a test's `// env:` line may set NAME: only `VX_…` names, none of which makes the
// implementation load code from a path (spec/cli.md §6.2).
bool env_name_allowed(std::string_view name);

// How one run ended.
struct RunResult {
  bool started = true;  // false: the command could not be spawned
  bool timed_out = false;
  // It exited, but a process it started kept its stdout or stderr open: the runner stopped
  // reading 2 s after the exit (what it printed until then is kept).
  bool left_open = false;
  int exit_status = -1;  // valid when it exited
  int signal = 0;        // non-zero when a signal killed it
  std::string out, err;
  long duration_ms = 0;
};

// The file that running `word` executes: `word` itself when it has a `/`, else the first
// executable regular file of that name in the runner's PATH (/bin:/usr/bin when unset). Returns
// an empty string, or why it cannot be run (`path` is then empty).
std::string find_program(const std::string& word, std::string& path);

// Runs argv[0] (looked up in PATH when it has no `/`) with the arguments argv[1…], no shell, with
// `env` added, stdin from /dev/null, in its own process group (killed whole on timeout),
// capturing stdout and stderr (the first 16 MiB of each). The program dies with the runner: its
// parent-death signal is SIGKILL, and a watchdog (start_watchdog) kills its whole group.
// `started` is false when it could not be executed (RunResult::err says why).
RunResult run_command(const std::vector<std::string>& argv,
                      const std::vector<std::pair<std::string, std::string>>& env,
                      int timeout_seconds);

// Kills the process group of every program run_command is running now (async-signal-safe).
void kill_live_groups();

// The watchdog of a run: a process in a group of its own that kills the process group of every
// program run_command started and that has not ended, when the runner dies, by any signal
// (SIGKILL too: it notices that its socket to the runner is closed). Started once per run;
// `stop_watchdog` ends it (nothing is left to kill then). Returns false when it cannot start
// (the run goes on with the parent-death signal alone).
bool start_watchdog();
void stop_watchdog();

// Compares a run with the expectations; returns an empty string when it passes, else the reason.
// `expected_stdout` / `expected_exit` come from NAME.stdout / NAME.exitcode when they exist.
std::string judge(const Expectations& expect, const std::optional<std::string>& expected_stdout,
                  std::optional<int> expected_exit, const RunResult& run,
                  std::string_view program_path, DiagnosticFormat format = DiagnosticFormat::Human);

// A section of spec/ (spec/cli.md §6.5): its key as a `// spec:` header names it
// (`memory.md §1`, `cli.md §2.1`, `errors.md E0200`), its title, and the tests of vx's own that a
// `<!-- tests: FILE, … -->` line under its heading names (paths from the repository's root).
struct SpecSection {
  std::string key, title;
  std::vector<std::string> tests;
};
// Every `##` and `###` heading of every chapter (*.md but README.md) of `spec_dir`, outside
// fenced code, in file order; empty with `why` set when there are none.
std::vector<SpecSection> spec_sections(const std::string& spec_dir, std::string& why);
// The keys of a `// spec:` header: `memory.md §2; kernel-rules.md §4` → both.
std::vector<std::string> spec_keys(std::string_view header);
// `--coverage` over the programs found: 0 when every section is tested and every program's
// header names sections that exist, 1 otherwise, 2 when spec/ cannot be read.
int report_coverage(const std::vector<std::string>& programs, const ConformanceOptions& options,
                    std::ostream& out, std::ostream& err);

}  // namespace conformance
}  // namespace vx
