// The conformance runner. Programs are found and sorted first, run in parallel by `jobs` worker
// threads (each spawns `/bin/sh -c CMD` in its own process group and polls its two pipes against
// a deadline), judged, and reported in corpus order so that two runs print the same text.
#include "cli/conformance.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
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
      }
    } else if (line.substr(0, 4) == "env:") {
      std::istringstream words{std::string(line.substr(4))};
      std::string word;
      while (words >> word) {
        const size_t eq = word.find('=');
        if (eq == std::string::npos || eq == 0)
          e.problems.push_back("malformed `// env:` entry `" + word + "` (expected NAME=VALUE)");
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

std::string shell_quote(std::string_view s) {
  if (!s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("/._-+=:,@%", c);
      }))
    return std::string(s);
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  out += '\'';
  return out;
}

std::string substitute_template(std::string_view tmpl, std::string_view file,
                                std::string_view flags, bool check_only) {
  std::string t(tmpl);
  const bool has_flags = t.find("{flags}") != std::string::npos;
  if (t.find("{file}") == std::string::npos) t += " {file}";
  std::string out;
  bool flags_placed = has_flags;
  for (size_t i = 0; i < t.size();) {
    if (t.compare(i, 6, "{file}") == 0) {
      if (!flags_placed && !flags.empty()) {
        out += flags;
        out += ' ';
      }
      flags_placed = true;
      out += shell_quote(file);
      i += 6;
    } else if (t.compare(i, 7, "{flags}") == 0) {
      out += flags;
      i += 7;
    } else if (t.compare(i, 6, "{mode}") == 0) {
      out += check_only ? "check" : "run";
      i += 6;
    } else {
      out += t[i++];
    }
  }
  return out;
}

RunResult run_command(const std::string& command,
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
  std::string sh = "/bin/sh", dash_c = "-c", cmd = command;
  char* argv[] = {sh.data(), dash_c.data(), cmd.data(), nullptr};

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
  const int spawn_error = posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (spawn_error != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    r.started = false;
    r.err = std::string("cannot run /bin/sh: ") + std::strerror(spawn_error);
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
  // Both pipes closed (or time is up): wait for the shell within what is left of the deadline.
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

std::optional<std::string> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string xml_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
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
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
          out += '?';  // not representable in XML 1.0
        else
          out += c;
    }
  }
  return out;
}

// JSON needs valid UTF-8; reasons quote program output, which may not be.
std::string valid_utf8(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    bool ok = len > 0 && i + len <= s.size();
    for (int k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    if (ok) {
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
    x << "    <testcase classname=\"" << xml_escape(valid_utf8(classname)) << "\" name=\""
      << xml_escape(valid_utf8(p.filename().string())) << "\" file=\""
      << xml_escape(valid_utf8(c.path)) << "\" time=\"" << seconds(c.duration_ms) << "\"";
    if (c.reason.empty()) {
      x << "/>\n";
    } else {
      const std::string reason = xml_escape(valid_utf8(c.reason));
      x << ">\n      <failure message=\"" << reason << "\" type=\"mismatch\">" << reason
        << "</failure>\n    </testcase>\n";
    }
  }
  x << "  </testsuite>\n</testsuites>\n";
  return x.str();
}

Case run_case(const std::string& path, const ConformanceOptions& options, const std::string& tmpl) {
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
  const std::string command = substitute_template(tmpl, path, expect.run_flags, expect.check_only);
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

  std::string tmpl = options.impl_template;
  if (tmpl.empty()) {
    std::string self = options.self_exe;
    if (self.empty()) {
      std::error_code ec;
      self = fs::read_symlink("/proc/self/exe", ec).string();
    }
    tmpl = shell_quote(self) + " {mode} {flags} {file}";
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
