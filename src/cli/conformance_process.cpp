// The conformance runner's processes (conformance.hpp): a test's command as argument words (no
// shell ever reads them), its environment limited to allowed `VX_…` names, and the run itself in
// its own process group with a deadline, killed whole on timeout or when the runner is stopped.
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
#include <optional>
#include <thread>

#include "cli/conformance.hpp"
#include "cli/conformance_internal.hpp"

extern char** environ;

namespace vx {
namespace conformance {

namespace {

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
  // A program that has exited while something it started keeps a pipe open is not "timed out":
  // the pipes are read for 2 s more, then left (RunResult::left_open).
  std::optional<Clock::time_point> exited_at;
  constexpr auto kGrace = std::chrono::seconds(2);
  while (open_count > 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      r.timed_out = !exited_at;
      r.left_open = exited_at.has_value();
      break;
    }
    if (!exited_at) {
      siginfo_t info{};
      if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
          info.si_pid == pid)
        exited_at = Clock::now();
    }
    if (exited_at && Clock::now() - *exited_at >= kGrace) {
      r.left_open = true;
      break;
    }
    const int n = poll(fds, 2, static_cast<int>(std::min<long long>(left, 100)));
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

}  // namespace conformance
}  // namespace vx
