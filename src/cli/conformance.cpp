// The conformance runner. Programs are found and sorted first, run in parallel by `jobs` worker
// threads (each spawns the implementation with an argument vector, no shell, in its own process
// group and polls its two pipes against a deadline), judged, and reported in corpus order so that
// two runs print the same text. Nothing a test file says is ever read by a shell: its run flags
// become argument words and its environment is limited to `VX_…` names.
#include "cli/conformance.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

extern char** environ;

namespace vx {
namespace conformance {

namespace {

std::string_view trim(std::string_view s) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

// Process groups of the programs running now, so that an interrupted runner (Ctrl-C, a CI
// timeout) does not leave them behind: they run in their own groups and get no terminal signal.
constexpr int kMaxLive = 256;
std::atomic<pid_t> live_groups[kMaxLive];

void remember_group(pid_t pid) {
  for (auto& slot : live_groups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pid)) return;
  }
}

void forget_group(pid_t pid) {
  for (auto& slot : live_groups) {
    pid_t mine = pid;
    if (slot.compare_exchange_strong(mine, 0)) return;
  }
}

}  // namespace

void kill_live_groups() {  // async-signal-safe
  for (auto& slot : live_groups) {
    const pid_t pid = slot.load();
    if (pid > 0) kill(-pid, SIGKILL);
  }
}

namespace {

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

bool is_code(std::string_view s) {
  if (s.size() < 2 || !(s[0] >= 'A' && s[0] <= 'Z')) return false;
  return std::all_of(s.begin() + 1, s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool parse_int(std::string_view s, int& value) {
  s = trim(s);
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

// Keeps a reason on one readable line: control characters escaped, long text cut.
std::string printable(std::string_view s, size_t limit = 160) {
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

}  // namespace

Expectations parse_expectations(std::string_view source, std::string_view comment) {
  const std::string marker = std::string(comment) + "~";
  Expectations e;
  const auto lines = split_lines(source);
  // Header directives: only in the leading run of comment and blank lines.
  for (std::string_view raw : lines) {
    std::string_view line = trim(raw);
    if (line.empty()) continue;
    if (line.substr(0, comment.size()) != comment) break;
    line = trim(line.substr(comment.size()));
    if (line.substr(0, 10) == "run-flags:") {
      const std::string_view flags = trim(line.substr(10));
      if (!flags.empty()) {
        if (!e.run_flags.empty()) e.run_flags += ' ';
        e.run_flags += flags;
        const std::string why = split_words(flags, e.run_flag_words, false);
        if (!why.empty()) e.problems.push_back("malformed `// run-flags:` line: " + printable(why));
      }
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
    rest = trim(rest);
    const size_t space = rest.find_first_of(" \t");
    const std::string_view kind = rest.substr(0, space);
    const std::string_view after =
        space == std::string_view::npos ? std::string_view{} : trim(rest.substr(space));
    if (kind == "ERROR") {
      const std::string_view code = after.substr(0, after.find_first_of(" \t"));
      if (!is_code(code)) {
        e.problems.push_back("line " + std::to_string(this_line) +
                             ": `//~ ERROR` needs a code such as E0200");
        continue;
      }
      e.errors.push_back({std::string(code), target});
    } else if (kind == "RUNTIME-ERROR") {
      e.runtime_error_lines.push_back(target);
      if (!after.empty()) e.runtime_error_text = std::string(after);
    } else {
      e.problems.push_back("line " + std::to_string(this_line) + ": unknown marker `//~ " +
                           std::string(kind) + "` (expected ERROR or RUNTIME-ERROR)");
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
  line = trim(line);
  if (line.substr(0, 4) != "--> ") return false;
  line = trim(line.substr(4));
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

std::vector<ScrapedDiagnostic> scrape_diagnostics(std::string_view text) {
  std::vector<ScrapedDiagnostic> found;
  std::optional<std::string> pending;  // the code of an `error[…]` still waiting for its `-->`
  for (std::string_view line : split_lines(text)) {
    if (line.substr(0, 6) == "error[") {
      const size_t close = line.find("]:");
      pending.reset();
      if (close != std::string_view::npos && is_code(line.substr(6, close - 6)))
        pending = std::string(line.substr(6, close - 6));
      continue;
    }
    if (line.substr(0, 6) == "error:" || line.substr(0, 7) == "warning") {
      pending.reset();  // a diagnostic without a code, or a warning: its location is not ours
      continue;
    }
    std::string path;
    int line_no = 0;
    if (pending && parse_location(line, path, line_no)) {
      found.push_back({*pending, path, line_no});
      pending.reset();
    }
  }
  return found;
}

std::vector<std::pair<std::string, int>> scrape_locations(std::string_view text) {
  std::vector<std::pair<std::string, int>> found;
  for (std::string_view line : split_lines(text)) {
    std::string path;
    int line_no = 0;
    if (parse_location(line, path, line_no)) found.emplace_back(path, line_no);
  }
  return found;
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

std::string split_words(std::string_view text, std::vector<std::string>& words, bool operators) {
  auto blank = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
  };
  size_t i = 0;
  while (true) {
    while (i < text.size() && blank(text[i])) ++i;
    if (i >= text.size()) return {};
    std::string word;
    while (i < text.size() && !blank(text[i])) {
      const char c = text[i];
      if (c == '\'') {
        const size_t close = text.find('\'', i + 1);
        if (close == std::string_view::npos) return "a `'` is not closed";
        word.append(text.substr(i + 1, close - i - 1));
        i = close + 1;
      } else if (c == '"') {
        ++i;
        while (true) {
          if (i >= text.size()) return "a `\"` is not closed";
          if (text[i] == '"') break;
          if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] != '\0' &&
              std::strchr("\"\\$`\n", text[i + 1]))
            ++i;
          word += text[i++];
        }
        ++i;
      } else if (c == '\\') {
        if (i + 1 >= text.size()) return "a `\\` ends the text";
        word += text[i + 1];
        i += 2;
      } else if (operators && c != '\0' && std::strchr("|&;<>()$`", c)) {
        return std::string("`") + c +
               "` is not quoted: the command is not run by a shell (quote it to pass it on)";
      } else {
        word += c;
        ++i;
      }
    }
    words.push_back(std::move(word));
  }
}

std::vector<std::string> command_words(const std::vector<std::string>& tmpl, std::string_view file,
                                       const std::vector<std::string>& flags, bool check_only) {
  const bool has_flags = std::find(tmpl.begin(), tmpl.end(), "{flags}") != tmpl.end();
  const bool has_file = std::any_of(tmpl.begin(), tmpl.end(), [](const std::string& w) {
    return w.find("{file}") != std::string::npos;
  });
  std::vector<std::string> argv;
  bool flags_placed = has_flags;
  auto place = [&](const std::string& word) {
    if (word == "{flags}") {
      argv.insert(argv.end(), flags.begin(), flags.end());
      return;
    }
    std::string out;
    for (size_t i = 0; i < word.size();) {  // one scan: a substituted path is not read again
      if (word.compare(i, 6, "{file}") == 0) {
        if (!flags_placed) argv.insert(argv.end(), flags.begin(), flags.end());
        flags_placed = true;
        out += file;
        i += 6;
      } else if (word.compare(i, 6, "{mode}") == 0) {
        out += check_only ? "check" : "run";
        i += 6;
      } else {
        out += word[i++];
      }
    }
    argv.push_back(std::move(out));
  };
  for (const auto& word : tmpl) place(word);
  if (!has_file) place("{file}");
  return argv;
}

bool env_name_allowed(std::string_view name) {
  if (name.size() < 4 || name.substr(0, 3) != "VX_") return false;
  if (!std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
      }))
    return false;
  // These name files the implementation loads or reuses as code.
  return name != "VX_CUDA_DRIVER" && name != "VX_CACHE_DIR";
}

RunResult run_command(const std::vector<std::string>& command,
                      const std::vector<std::pair<std::string, std::string>>& env,
                      int timeout_seconds) {
  using Clock = std::chrono::steady_clock;
  RunResult r;
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::seconds(std::max(1, timeout_seconds));

  // Everything the child needs is built before spawning.
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    const std::string_view entry(*e);
    const std::string_view name = entry.substr(0, entry.find('='));
    if (std::none_of(env.begin(), env.end(), [&](const auto& kv) { return kv.first == name; }))
      env_strings.emplace_back(entry);
  }
  for (const auto& [name, value] : env) env_strings.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  if (command.empty()) {
    r.started = false;
    r.err = "the command is empty";
    return r;
  }
  std::vector<std::string> words = command;
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);

  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    r.started = false;
    return r;
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    r.started = false;
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  sigset_t no_mask;
  sigemptyset(&no_mask);
  posix_spawnattr_setsigmask(&attr, &no_mask);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  pid_t pid = -1;
  // posix_spawnp looks a bare name up in the runner's own PATH (never one a test sets).
  const int spawn_error =
      posix_spawnp(&pid, words[0].c_str(), &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (spawn_error != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    r.started = false;
    r.err = "cannot run `" + printable(words[0]) + "`: " + std::strerror(spawn_error);
    return r;
  }

  remember_group(pid);
  // A runaway program must not fill the runner's memory: keep the first 16 MiB of each stream.
  constexpr size_t kCap = size_t{16} << 20;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open_count = 2;
  char buf[65536];
  while (open_count > 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      r.timed_out = true;
      break;
    }
    const int n = poll(fds, 2, static_cast<int>(std::min<long long>(left, INT_MAX)));
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int k = 0; k < 2; ++k) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t got = read(fds[k].fd, buf, sizeof buf);
      if (got > 0) {
        const size_t room = kCap - std::min(kCap, sinks[k]->size());
        sinks[k]->append(buf, std::min(room, static_cast<size_t>(got)));
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        close(fds[k].fd);
        fds[k].fd = -1;
        --open_count;
      }
    }
  }
  // Both pipes closed (or time is up): wait for the program within what is left of the deadline.
  // WNOWAIT leaves it a zombie, so that its pid (the group's id) cannot be reused before the
  // group is killed below.
  while (!r.timed_out) {
    siginfo_t info{};
    const int w = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
    if (w == 0 && info.si_pid == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (Clock::now() >= deadline) {
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  kill(-pid, SIGKILL);  // the timed-out program, or anything it left running in the background
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  forget_group(pid);
  for (auto& fd : fds)
    if (fd.fd >= 0) close(fd.fd);
  r.duration_ms = static_cast<long>(
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count());
  if (!r.timed_out) {
    if (WIFEXITED(status))
      r.exit_status = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
      r.signal = WTERMSIG(status);
  }
  return r;
}

namespace {

std::string first_line(std::string_view text) {
  for (std::string_view line : split_lines(text))
    if (!trim(line).empty()) return printable(trim(line));
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

}  // namespace

std::string judge(const Expectations& expect, const std::optional<std::string>& expected_stdout,
                  std::optional<int> expected_exit, const RunResult& run,
                  std::string_view program_path) {
  if (!expect.problems.empty()) return "corpus error: " + join(expect.problems, "; ");
  if (!run.started) return "could not start the implementation: " + run.err;
  if (run.timed_out) return "timed out";
  std::vector<std::string> faults;
  const std::string stderr_hint =
      run.err.empty() ? std::string() : " (stderr: " + first_line(run.err) + ")";

  if (!expect.errors.empty()) {
    // A refusal: exit status 1 and exactly the marked (code, line) pairs.
    if (run.signal || run.exit_status != 1)
      faults.push_back(describe_end(run) + ", expected 1 (refused)" +
                       (run.exit_status == 0 ? std::string() : stderr_hint));
    std::vector<ExpectedDiagnostic> actual;
    std::vector<std::string> elsewhere;
    for (const auto& d : scrape_diagnostics(run.err)) {
      if (same_program(d.path, program_path))
        actual.push_back({d.code, d.line});
      else
        elsewhere.push_back(d.code + " at " + d.path + ":" + std::to_string(d.line));
    }
    std::sort(actual.begin(), actual.end());
    std::vector<ExpectedDiagnostic> missing, unexpected;
    std::set_difference(expect.errors.begin(), expect.errors.end(), actual.begin(), actual.end(),
                        std::back_inserter(missing));
    std::set_difference(actual.begin(), actual.end(), expect.errors.begin(), expect.errors.end(),
                        std::back_inserter(unexpected));
    auto list = [](const std::vector<ExpectedDiagnostic>& ds) {
      std::vector<std::string> parts;
      for (const auto& d : ds) parts.push_back(d.code + ":" + std::to_string(d.line));
      return join(parts, ", ");
    };
    if (!missing.empty()) faults.push_back("missing diagnostics " + list(missing));
    if (!unexpected.empty()) faults.push_back("unexpected diagnostics " + list(unexpected));
    if (!elsewhere.empty())
      faults.push_back("diagnostics in other files: " + join(elsewhere, ", "));
    return join(faults, "; ");
  }

  if (!expect.runtime_error_lines.empty()) {
    if (run.signal || run.exit_status != 101)
      faults.push_back(describe_end(run) + ", expected 101 (runtime error)" + stderr_hint);
    bool located = false;
    for (const auto& [path, line] : scrape_locations(run.err))
      if (same_program(path, program_path) &&
          std::find(expect.runtime_error_lines.begin(), expect.runtime_error_lines.end(), line) !=
              expect.runtime_error_lines.end())
        located = true;
    if (!located)
      faults.push_back("stderr does not point at line " +
                       std::to_string(expect.runtime_error_lines.front()) + " (` --> " +
                       std::string(program_path) + ":" +
                       std::to_string(expect.runtime_error_lines.front()) + ":…`)");
    if (!expect.runtime_error_text.empty() &&
        run.err.find(expect.runtime_error_text) == std::string::npos)
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

namespace {

namespace fs = std::filesystem;
using namespace conformance;

struct Case {
  std::string path;
  std::string reason;  // empty: passed
  long duration_ms = 0;
};

constexpr size_t kMaxCorpusFile = size_t{16} << 20;

// A corpus file: a regular file (a FIFO would block the runner) of at most 16 MiB; a longer one
// comes back with one byte more than that, which no expectation can match.
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

std::string to_json(const std::vector<Case>& cases, int passed, int failed) {
  nlohmann::json results = nlohmann::json::array();
  for (const auto& c : cases)
    results.push_back({{"file", valid_utf8(c.path)},
                       {"status", c.reason.empty() ? "pass" : "fail"},
                       {"reason", valid_utf8(c.reason)},
                       {"duration_ms", c.duration_ms}});
  nlohmann::json doc = {{"passed", passed}, {"failed", failed}, {"results", results}};
  return doc.dump(2) + "\n";
}

std::string to_junit(const std::vector<Case>& cases, int passed, int failed) {
  long total_ms = 0;
  for (const auto& c : cases) total_ms += c.duration_ms;
  auto seconds = [](long ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", ms / 1000.0);
    return std::string(buf);
  };
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x << "<testsuites name=\"vx conformance\" tests=\"" << passed + failed << "\" failures=\""
    << failed << "\" errors=\"0\" time=\"" << seconds(total_ms) << "\">\n";
  x << "  <testsuite name=\"conformance\" tests=\"" << passed + failed << "\" failures=\"" << failed
    << "\" errors=\"0\" skipped=\"0\" time=\"" << seconds(total_ms) << "\">\n";
  for (const auto& c : cases) {
    const fs::path p(c.path);
    std::string classname = p.parent_path().generic_string();
    std::replace(classname.begin(), classname.end(), '/', '.');
    if (classname.empty()) classname = "conformance";
    x << "    <testcase classname=\"" << xml_escape(classname) << "\" name=\""
      << xml_escape(p.filename().string()) << "\" file=\"" << xml_escape(c.path) << "\" time=\""
      << seconds(c.duration_ms) << "\"";
    if (c.reason.empty()) {
      x << "/>\n";
    } else {
      const std::string reason = xml_escape(c.reason);
      x << ">\n      <failure message=\"" << reason << "\" type=\"mismatch\">" << reason
        << "</failure>\n    </testcase>\n";
    }
  }
  x << "  </testsuite>\n</testsuites>\n";
  return x.str();
}

Case run_case(const std::string& path, const ConformanceOptions& options,
              const std::vector<std::string>& tmpl) {
  Case c;
  c.path = path;
  const auto source = read_file(path);
  if (!source) {
    c.reason = "cannot read the program";
    return c;
  }
  const Expectations expect =
      parse_expectations(*source, fs::path(path).extension() == ".uir" ? "#" : "//");
  fs::path base(path);
  std::optional<std::string> expected_stdout =
      read_file(fs::path(base).replace_extension(".stdout"));
  std::optional<int> expected_exit;
  if (auto text = read_file(fs::path(base).replace_extension(".exitcode"))) {
    int value = 0;
    if (!parse_int(*text, value) || value < 0 || value > 255) {
      c.reason = "corpus error: the .exitcode file does not hold a status from 0 to 255";
      return c;
    }
    expected_exit = value;
  }
  if (!expect.problems.empty() || (expect.errors.empty() && expect.runtime_error_lines.empty() &&
                                   !expected_stdout && !expect.check_only)) {
    c.reason = judge(expect, expected_stdout, expected_exit, RunResult{}, path);
    return c;
  }
  const auto command = command_words(tmpl, path, expect.run_flag_words, expect.check_only);
  const RunResult run = run_command(command, expect.env, options.timeout_seconds);
  c.duration_ms = run.duration_ms;
  c.reason = judge(expect, expected_stdout, expected_exit, run, path);
  if (run.timed_out) c.reason = "timed out after " + std::to_string(options.timeout_seconds) + " s";
  return c;
}

}  // namespace

int run_conformance(const ConformanceOptions& options, std::ostream& out, std::ostream& err) {
  if (options.format != "text" && options.format != "json" && options.format != "junit") {
    err << "vx conformance: unknown format `" << options.format
        << "` (expected text, json or junit)\n";
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
  if (programs.empty()) {
    err << "vx conformance: no .vx or .uir programs under the given directories\n";
    return 2;
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

  // Interrupted, the runner takes its running programs with it, then dies of the same signal.
  struct sigaction on_signal {
  }, old_int{}, old_term{};
  on_signal.sa_handler = [](int sig) {
    conformance::kill_live_groups();
    signal(sig, SIG_DFL);
    raise(sig);
  };
  sigemptyset(&on_signal.sa_mask);
  sigaction(SIGINT, &on_signal, &old_int);
  sigaction(SIGTERM, &on_signal, &old_term);

  std::vector<Case> cases(programs.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < programs.size(); i = next++)
      cases[i] = run_case(programs[i], options, tmpl);
  };
  const int jobs = std::clamp(options.jobs, 1, 256);
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs && static_cast<size_t>(j) < programs.size(); ++j)
    threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);

  int passed = 0, failed = 0;
  for (const auto& c : cases) (c.reason.empty() ? passed : failed)++;
  const std::string summary =
      std::to_string(passed) + " passed, " + std::to_string(failed) + " failed";

  if (options.format == "text") {
    for (const auto& c : cases) {
      if (!c.reason.empty())
        out << "FAIL " << c.path << ": " << c.reason << "\n";
      else if (options.verbose)
        out << "PASS " << c.path << " (" << c.duration_ms << " ms)\n";
    }
    out << summary << "\n";
  } else {
    out << (options.format == "json" ? to_json(cases, passed, failed)
                                     : to_junit(cases, passed, failed));
    if (options.verbose)
      for (const auto& c : cases)
        if (!c.reason.empty()) err << "FAIL " << c.path << ": " << c.reason << "\n";
    err << summary << "\n";
  }
  out.flush();
  if (!options.output_file.empty()) {
    const bool junit =
        options.format == "junit" ||
        (options.format == "text" && fs::path(options.output_file).extension() == ".xml");
    std::ofstream file(options.output_file, std::ios::binary);
    file << (junit ? to_junit(cases, passed, failed) : to_json(cases, passed, failed));
    if (!file) {
      err << "vx conformance: cannot write `" << options.output_file << "`\n";
      return 2;
    }
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace vx
