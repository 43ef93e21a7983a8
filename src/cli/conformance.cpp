// The conformance runner. Programs are found and sorted first, run in parallel by `jobs` worker
// threads (each spawns the implementation with an argument vector, no shell, in its own process
// group and polls its two pipes against a deadline), judged, and reported in corpus order so that
// two runs print the same text. Nothing a test file says is ever read by a shell: its run flags
// become argument words and its environment is limited to `VX_…` names.
// This file finds, runs and collects the cases; conformance_process.cpp spawns them,
// conformance_judge.cpp reads their expectations and judges a run, conformance_progress.cpp
// shows the run as it goes, conformance_report.cpp writes the reports.
#include "cli/conformance.hpp"

#include <fcntl.h>
#include <fnmatch.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <thread>

#include "cli/conformance_internal.hpp"

namespace vx {

namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxCorpusFile = size_t{16} << 20;

}  // namespace

namespace conformance {

std::optional<std::string> read_file(const fs::path& p) {
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return std::nullopt;
  }
  std::string text;
  char buf[65536];
  while (text.size() <= kMaxCorpusFile) {
    const ssize_t got = ::read(fd, buf, std::min(sizeof buf, kMaxCorpusFile + 1 - text.size()));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    text.append(buf, static_cast<size_t>(got));
  }
  ::close(fd);
  return text;
}

namespace {

// Whether the path matches one of the globs (fnmatch without flags: `*` matches `/` too).
bool matches_any(const std::string& path, const std::vector<std::string>& globs) {
  return std::any_of(globs.begin(), globs.end(), [&](const std::string& g) {
    return ::fnmatch(g.c_str(), path.c_str(), 0) == 0;
  });
}

// Whether the glob matches one of the paths.
bool matches_any_of(const std::string& glob, const std::vector<std::string>& paths) {
  return std::any_of(paths.begin(), paths.end(), [&](const std::string& p) {
    return ::fnmatch(glob.c_str(), p.c_str(), 0) == 0;
  });
}

// The globs of an `--xfail` file with their line numbers: one a line, blank lines and `#`
// comments skipped.
std::optional<std::vector<std::pair<std::string, int>>> read_xfail(const std::string& path) {
  const auto text = read_file(path);
  if (!text) return std::nullopt;
  std::vector<std::pair<std::string, int>> globs;
  int number = 0;
  for (std::string_view line : split_lines(*text)) {
    ++number;
    line = trimmed(line);
    if (!line.empty() && line[0] != '#') globs.emplace_back(line, number);
  }
  return globs;
}

// `--write-xfail FILE`: the programs that failed (xfails included: they fail still), one escaped
// path a line, each under a comment with its reason, in the format `--xfail` reads.
bool write_xfail(const std::string& file, const std::vector<Case>& cases) {
  std::string text =
      "# The programs that failed in a run of `vx conformance` (--write-xfail), for --xfail.\n";
  int failing = 0;
  for (const Case& c : cases)
    if (!c.reason.empty()) ++failing;
  text += "# " + std::to_string(failing) + " of " + std::to_string(cases.size()) +
          " programs failed.\n";
  for (const Case& c : cases)
    if (!c.reason.empty())
      text += "\n# " + std::string(failure_name(c.failure)) + ": " + printable(c.reason, 200) +
              "\n" + glob_escape(c.path) + "\n";
  std::ofstream out(file, std::ios::binary);
  out << text;
  return static_cast<bool>(out.flush());
}

std::string indent_lines(std::string_view text) {
  std::string out;
  for (std::string_view line : split_lines(text)) out += "    " + std::string(line) + "\n";
  return out;
}

Case run_case(const std::string& path, const ConformanceOptions& options,
              const std::vector<std::string>& tmpl, DiagnosticFormat format) {
  Case c;
  c.path = path;
  const auto source = read_file(path);
  if (!source) {
    c.reason = "cannot read the program";
    c.failure = Failure::Corpus;
    return c;
  }
  const Expectations expect =
      parse_expectations(*source, fs::path(path).extension() == ".uir" ? "#" : "//");
  c.spec = expect.spec;
  for (const ExpectedDiagnostic& d : expect.errors)
    c.expected_diagnostics.push_back(code_at(d.code, d.line));
  fs::path base(path);
  std::optional<std::string> expected_stdout =
      read_file(fs::path(base).replace_extension(".stdout"));
  std::optional<int> expected_exit;
  if (auto text = read_file(fs::path(base).replace_extension(".exitcode"))) {
    int value = 0;
    if (!parse_int(*text, value) || value < 0 || value > 255) {
      c.reason = "corpus error: the .exitcode file does not hold a status from 0 to 255";
      c.failure = Failure::Corpus;
      return c;
    }
    expected_exit = value;
  }
  c.expected_stdout = expected_stdout;
  c.expected_exit = expected_exit;
  // `--bless` writes the output of a program that expects output (no `//~ ERROR`, not
  // check-only), also one that has no .stdout yet.
  const bool output_test = expect.errors.empty() && !expect.check_only;
  const bool bless = options.bless && output_test && expect.problems.empty();
  // Nothing to compare with: a corpus error, unless `--bless` is about to write the .stdout.
  const bool expects_nothing =
      output_test && expect.runtime_error_lines.empty() && !expected_stdout;
  if (!expect.problems.empty() || (expects_nothing && !bless)) {
    c.reason = judge(expect, expected_stdout, expected_exit, RunResult{}, path);
    c.failure = Failure::Corpus;
    return c;
  }
  const auto command = command_words(tmpl, path, expect.run_flag_words, expect.check_only);
  const RunResult run = run_command(command, expect.env, options.timeout_seconds);
  c.duration_ms = run.duration_ms;
  const int want_exit = expect.runtime_error_lines.empty() ? expected_exit.value_or(0) : 101;
  if (bless && run.started && !run.timed_out && !run.left_open && run.signal == 0 &&
      run.exit_status == want_exit && expected_stdout != run.out) {
    const fs::path stdout_file = fs::path(base).replace_extension(".stdout");
    std::ofstream file(stdout_file, std::ios::binary);
    file << run.out;
    if (file.flush()) {
      expected_stdout = c.expected_stdout = run.out;
      c.blessed = true;
    }
  }
  c.reason = judge(expect, expected_stdout, expected_exit, run, path, format);
  c.ran = run.started;
  c.start_failed = !run.started;
  c.out = run.out;
  c.err = run.err;
  c.exit_status = run.exit_status;
  c.signal = run.signal;
  for (const ScrapedDiagnostic& d : read_reported(run.err, format).errors)
    if (same_program(d.path, path)) c.found_diagnostics.push_back(code_at(d.code, d.line));
  c.stderr_matters = !expect.errors.empty() || !expect.runtime_error_lines.empty() ||
                     !expect.warnings.empty() || run.signal != 0 || run.exit_status != want_exit;
  if (run.timed_out) c.reason = "timed out after " + std::to_string(options.timeout_seconds) + " s";
  if (!c.reason.empty())
    c.failure = run.timed_out                   ? Failure::Timeout
                : run.signal != 0               ? Failure::Crash
                : expects_nothing && !c.blessed ? Failure::Corpus
                                                : Failure::Mismatch;
  return c;
}

}  // namespace
}  // namespace conformance

int run_conformance(const ConformanceOptions& options, std::ostream& out, std::ostream& err) {
  using namespace conformance;
  if (options.format != "text" && options.format != "json" && options.format != "junit") {
    err << "vx conformance: unknown format `" << options.format
        << "` (expected text, json or junit)\n";
    return 2;
  }
  if (options.timeout_seconds < 1) {
    err << "vx conformance: `--timeout` must be at least 1 second, not " << options.timeout_seconds
        << "\n";
    return 2;
  }
  if (options.progress != "auto" && options.progress != "bar" && options.progress != "lines" &&
      options.progress != "off") {
    err << "vx conformance: unknown --progress `" << options.progress
        << "` (expected auto, bar, lines or off)\n";
    return 2;
  }
  if (options.impl_format != "human" && options.impl_format != "json") {
    err << "vx conformance: unknown --impl-format `" << options.impl_format
        << "` (expected human or json)\n";
    return 2;
  }
  if (options.bless && !options.impl_template.empty()) {
    err << "vx conformance: `--bless` writes what this vx prints; it cannot be used with --impl\n";
    return 2;
  }
  if (options.dirs.empty()) {
    err << "vx conformance: no corpus directory given\n";
    return 2;
  }
  std::vector<std::string> programs;
  for (const auto& dir : options.dirs) {
    std::error_code ec;
    const fs::path root(dir);
    if (fs::is_regular_file(root, ec)) {
      programs.push_back(root.string());
      continue;
    }
    if (!fs::is_directory(root, ec)) {
      err << "vx conformance: `" << dir << "` is not a directory\n";
      return 2;
    }
    std::vector<std::string> found;
    for (auto it = fs::recursive_directory_iterator(
             root, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file(ec) &&
          (it->path().extension() == ".vx" || it->path().extension() == ".uir"))
        found.push_back(it->path().string());
    }
    if (ec) {
      err << "vx conformance: cannot read `" << dir << "`: " << ec.message() << "\n";
      return 2;
    }
    std::sort(found.begin(), found.end());
    programs.insert(programs.end(), found.begin(), found.end());
  }
  const std::vector<std::string> found_programs = programs;  // before --filter and --exclude
  std::erase_if(programs, [&](const std::string& p) {
    return (!options.filters.empty() && !matches_any(p, options.filters)) ||
           matches_any(p, options.excludes);
  });
  if (programs.empty()) {
    err << "vx conformance: no .vx or .uir programs under the given directories"
        << (options.filters.empty() && options.excludes.empty() ? ""
                                                                : " (after --filter/--exclude)")
        << "\n";
    return 2;
  }
  if (options.coverage) {
    if (options.format == "junit") {
      err << "vx conformance: `--coverage` prints text or json, not junit\n";
      return 2;
    }
    return report_coverage(programs, options, out, err);
  }
  std::vector<std::string> tmpl;
  if (options.impl_template.empty()) {
    std::string self = options.self_exe;
    if (self.empty()) {
      std::error_code ec;
      self = fs::read_symlink("/proc/self/exe", ec).string();
    }
    tmpl = {self, "{mode}", "{flags}", "{file}"};
  } else {
    const std::string why = split_words(options.impl_template, tmpl, true);
    if (!why.empty() || tmpl.empty()) {
      err << "vx conformance: cannot use --impl `" << options.impl_template
          << "`: " << (why.empty() ? "it names no program" : why) << "\n";
      return 2;
    }
    for (const auto& word : tmpl)
      if (word != "{flags}" && word.find("{flags}") != std::string::npos) {
        err << "vx conformance: cannot use --impl `" << options.impl_template
            << "`: `{flags}` must be a word of its own\n";
        return 2;
      }
  }
  // An implementation that cannot start is one error before anything runs, not a failure per
  // program; unless its first word depends on the program (`{file}`, `{mode}`).
  const bool fixed_program = tmpl[0].find('{') == std::string::npos;
  if (fixed_program) {
    std::string path;
    if (const std::string why = find_program(tmpl[0], path); !why.empty()) {
      err << "vx conformance: cannot run the implementation `" << printable(tmpl[0]) << "`: " << why
          << "\n";
      return 2;
    }
  }
  std::vector<std::string> xfail;
  if (!options.xfail_file.empty()) {
    auto globs = read_xfail(options.xfail_file);
    if (!globs) {
      err << "vx conformance: cannot read the --xfail file `" << options.xfail_file << "`\n";
      return 2;
    }
    // A glob that matches nothing is a stale entry or a typo: it would excuse nothing.
    for (const auto& [glob, line] : *globs) {
      if (!matches_any_of(glob, found_programs))
        err << "vx conformance: warning: " << options.xfail_file << ":" << line << ": `"
            << printable(glob) << "` matches no program under the given directories\n";
      xfail.push_back(glob);
    }
  }

  const DiagnosticFormat format =
      options.impl_format == "json" ? DiagnosticFormat::Json : DiagnosticFormat::Human;

  // Interrupted, the runner takes its running programs with it, then dies of the same signal
  // (SIGHUP: its terminal closed). A signal ignored when it started (nohup) stays ignored. Killed
  // by a signal it cannot catch, the watchdog and the children's parent-death signal do it.
  struct sigaction on_signal {};
  on_signal.sa_handler = [](int sig) {
    conformance::kill_live_groups();
    signal(sig, SIG_DFL);
    raise(sig);
  };
  sigemptyset(&on_signal.sa_mask);
  constexpr int kCaught[] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction old_actions[std::size(kCaught)] = {};
  bool installed[std::size(kCaught)] = {};
  for (size_t k = 0; k < std::size(kCaught); ++k) {
    sigaction(kCaught[k], nullptr, &old_actions[k]);
    if (old_actions[k].sa_handler == SIG_IGN) continue;
    sigaction(kCaught[k], &on_signal, nullptr);
    installed[k] = true;
  }
  const bool own_watchdog = start_watchdog();

  Progress::Mode mode = options.progress == "bar"     ? Progress::Mode::Bar
                        : options.progress == "lines" ? Progress::Mode::Lines
                                                      : Progress::Mode::Off;
  if (options.progress == "auto")
    mode = isatty(STDERR_FILENO) ? Progress::Mode::Bar : Progress::Mode::Lines;
  winsize size{};
  const int columns = ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 ? size.ws_col : 80;
  Progress progress(mode, err, programs.size(), columns, options.xfail_file);

  std::vector<Case> cases(programs.size());
  std::atomic<size_t> next{0};
  std::atomic<bool> cannot_start{false};
  std::mutex start_error_mutex;
  std::string start_error;
  auto worker = [&] {
    for (size_t i = next++; i < programs.size() && !cannot_start; i = next++) {
      Case c = run_case(programs[i], options, tmpl, format);
      c.xfail = matches_any(c.path, xfail);
      if (c.start_failed && fixed_program) {
        // It could be started when checked: its `#!` interpreter is missing, or it changed.
        std::lock_guard lock(start_error_mutex);
        if (!cannot_start.exchange(true)) start_error = c.reason;
        break;
      }
      progress.finished(c);
      cases[i] = std::move(c);
    }
  };
  const int jobs = std::clamp(options.jobs, 1, 256);
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs && static_cast<size_t>(j) < programs.size(); ++j)
    threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (own_watchdog) stop_watchdog();
  for (size_t k = 0; k < std::size(kCaught); ++k)
    if (installed[k]) sigaction(kCaught[k], &old_actions[k], nullptr);
  progress.done();
  if (cannot_start) {
    err << "vx conformance: " << start_error << "\n";
    return 2;
  }

  const Tally t = tally(cases);
  const std::string summary =
      std::to_string(t.passed) + " passed, " + std::to_string(t.failed) + " failed" +
      (options.xfail_file.empty() ? "" : ", " + std::to_string(t.xfailed) + " expected failures");
  // FAIL and XPASS lines always (they fail the run), XFAIL and PASS with -v; under a FAIL its
  // section, the diff of its output and its standard error where that matters.
  auto lines = [&](std::ostream& o, bool passes) {
    for (const auto& c : cases)
      if (c.blessed)
        o << "BLESSED " << fs::path(c.path).replace_extension(".stdout").string() << "\n";
    for (const auto& c : cases) {
      const Status s = status_of(c);
      if ((s == Status::XFail && !options.verbose) || (s == Status::Pass && !passes)) continue;
      o << case_line(c, options.xfail_file) << "\n";
      if (s == Status::Fail) o << indent_lines(failure_details(c, false, 20));
    }
  };
  const std::string by_section =
      options.by_section ? section_rates_text(section_rates(cases)) : std::string();
  if (options.format == "text") {
    lines(out, options.verbose);
    out << by_section << summary << "\n";
  } else {
    out << (options.format == "json" ? to_json(cases) : to_junit(cases));
    if (options.verbose) lines(err, false);
    err << by_section << summary << "\n";
  }
  if (!options.write_xfail.empty() && !write_xfail(options.write_xfail, cases)) {
    err << "vx conformance: cannot write `" << options.write_xfail << "`\n";
    return 2;
  }
  out.flush();
  if (!options.output_file.empty()) {
    // The file's name picks its format (spec/cli.md §6.4), whatever `--format` printed.
    const bool junit = fs::path(options.output_file).extension() == ".xml";
    std::ofstream file(options.output_file, std::ios::binary);
    file << (junit ? to_junit(cases) : to_json(cases));
    if (!file) {
      err << "vx conformance: cannot write `" << options.output_file << "`\n";
      return 2;
    }
  }
  return t.failed == 0 ? 0 : 1;
}

}  // namespace vx
