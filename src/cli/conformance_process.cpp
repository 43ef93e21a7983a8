// The conformance runner's processes (conformance.hpp): a test's command as argument words (no
// shell ever reads them), its environment limited to allowed `VX_…` names, and the run itself in
// its own process group with a deadline, killed whole on timeout or when the runner is stopped,
// and dying with the runner however it dies (a parent-death signal and a watchdog process).
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
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

std::string find_program(const std::string& word, std::string& path) {
  path.clear();
  // Why a candidate cannot be run, or an empty string when it can.
  auto check = [](const std::string& candidate) -> std::string {
    struct stat st {};
    if (::stat(candidate.c_str(), &st) != 0) return std::strerror(errno);
    if (S_ISDIR(st.st_mode)) return "it is a directory";
    if (!S_ISREG(st.st_mode)) return "it is not a regular file";
    if (::access(candidate.c_str(), X_OK) != 0) return std::strerror(errno);
    return {};
  };
  if (word.empty()) return "the command names no program";
  if (word.find('/') != std::string::npos) {
    const std::string why = check(word);
    if (why.empty()) path = word;
    return why;
  }
  const char* env_path = std::getenv("PATH");
  const std::string_view dirs = env_path ? env_path : "/bin:/usr/bin";
  std::string first_why;  // of a file of that name that is there but cannot be run
  for (size_t start = 0; start <= dirs.size();) {
    const size_t colon = std::min(dirs.find(':', start), dirs.size());
    const std::string_view dir = dirs.substr(start, colon - start);
    start = colon + 1;
    const std::string candidate = (dir.empty() ? std::string(".") : std::string(dir)) + "/" + word;
    const std::string why = check(candidate);
    if (why.empty()) {
      path = candidate;
      return {};
    }
    if (first_why.empty() && access(candidate.c_str(), F_OK) == 0)
      first_why = candidate + ": " + why;
  }
  return first_why.empty() ? "not found in PATH" : first_why;
}

namespace {

// The watchdog's end of its socket (-1 when none runs), and its process.
std::atomic<int> watchdog_socket{-1};
pid_t watchdog_pid = -1;

// Tells the watchdog that process group `group` is started (> 0) or gone (< 0). Async-signal-
// safe; MSG_NOSIGNAL: a watchdog that is gone raises no SIGPIPE in the runner.
void tell_watchdog(pid_t group) {
  const int fd = watchdog_socket.load();
  if (fd >= 0) (void)::send(fd, &group, sizeof group, MSG_NOSIGNAL);
}

// The watchdog process, forked from the runner: only async-signal-safe calls (the runner may
// have other threads). It reads group ids until the runner's end of the socket is closed, then
// kills the groups still listed.
[[noreturn]] void watchdog_main(int fd) {
  setpgid(0, 0);  // not killed with the runner's group (`kill -9 -PGID`, a terminal's Ctrl-C)
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) sigaction(sig, &ignore, nullptr);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  // Hold nothing of the runner's open: a pipe the runner's caller reads to its end must not wait
  // for the watchdog.
  const int null = ::open("/dev/null", O_RDWR);
  for (int k = 0; k < 3; ++k)
    if (null >= 0) dup2(null, k);
  for (int other = 3; other < 1024; ++other)
    if (other != fd) close(other);
  constexpr int kMaxGroups = 4096;
  static pid_t groups[kMaxGroups];
  int count = 0;
  while (true) {
    pid_t message = 0;
    const ssize_t got = ::recv(fd, &message, sizeof message, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got != static_cast<ssize_t>(sizeof message)) break;  // end of the runner, or an error
    if (message > 0 && count < kMaxGroups) {
      groups[count++] = message;
    } else if (message < 0) {
      for (int k = 0; k < count; ++k)
        if (groups[k] == -message) {
          groups[k] = groups[--count];
          break;
        }
    }
  }
  for (int k = 0; k < count; ++k) kill(-groups[k], SIGKILL);
  _exit(0);
}

}  // namespace

bool start_watchdog() {
  if (watchdog_socket.load() >= 0) return true;
  int ends[2];
  // SEQPACKET: each group id is one message, whichever thread sends it, and the end of the
  // runner reads as the end of the stream.
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) return false;
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  const pid_t pid = fork();
  if (pid == 0) watchdog_main(ends[1]);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  close(ends[1]);
  if (pid < 0) {
    close(ends[0]);
    return false;
  }
  watchdog_pid = pid;
  watchdog_socket = ends[0];
  return true;
}

void stop_watchdog() {
  const int fd = watchdog_socket.exchange(-1);
  if (fd < 0) return;
  close(fd);
  int status = 0;
  while (waitpid(watchdog_pid, &status, 0) < 0 && errno == EINTR) {
  }
  watchdog_pid = -1;
}

RunResult run_command(const std::vector<std::string>& command,
                      const std::vector<std::pair<std::string, std::string>>& env,
                      int timeout_seconds) {
  using Clock = std::chrono::steady_clock;
  RunResult r;
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::seconds(std::max(1, timeout_seconds));

  // Everything the child needs is built before forking: after fork it may call only
  // async-signal-safe functions (other threads of the runner may hold the allocator's locks).
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
  // The program is looked up in the runner's own PATH (never one a test sets).
  std::string program;
  if (const std::string why = find_program(command[0], program); !why.empty()) {
    r.started = false;
    r.err = "cannot run `" + printable(command[0]) + "`: " + why;
    return r;
  }
  std::vector<std::string> words = command;
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);

  int out_pipe[2], err_pipe[2], exec_pipe[2];
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
  // The child writes errno here when it cannot exec; a successful exec closes it (O_CLOEXEC).
  if (pipe2(exec_pipe, O_CLOEXEC) != 0) {
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    r.started = false;
    return r;
  }
  const int null_in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  const pid_t parent = getpid();
  // No signal handler of the runner may run in the child before it execs.
  sigset_t all, old_mask;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old_mask);
  const pid_t pid = fork();
  if (pid == 0) {
    struct sigaction defaults {};
    defaults.sa_handler = SIG_DFL;
    sigemptyset(&defaults.sa_mask);
    for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &defaults, nullptr);
    setpgid(0, 0);
    // The watchdog learns of the group before the program runs: a runner killed right after the
    // fork leaves nothing behind.
    tell_watchdog(getpid());
    // Killed with the runner (the thread that forked it waits for it, so that is the runner).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the runner died before prctl
    if (null_in < 0 || dup2(null_in, 0) < 0 || dup2(out_pipe[1], 1) < 0 ||
        dup2(err_pipe[1], 2) < 0) {
      const int e = errno;
      (void)!write(exec_pipe[1], &e, sizeof e);
      _exit(127);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    execve(program.c_str(), argv.data(), envp.data());
    const int e = errno;
    (void)!write(exec_pipe[1], &e, sizeof e);
    _exit(127);
  }
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  if (null_in >= 0) close(null_in);
  close(out_pipe[1]);
  close(err_pipe[1]);
  close(exec_pipe[1]);
  int exec_error = pid < 0 ? errno : 0;
  if (pid > 0) {
    int e = 0;
    ssize_t got;
    while ((got = read(exec_pipe[0], &e, sizeof e)) < 0 && errno == EINTR) {
    }
    if (got == static_cast<ssize_t>(sizeof e)) exec_error = e;
  }
  close(exec_pipe[0]);
  if (exec_error != 0) {
    if (pid > 0) {
      tell_watchdog(-pid);
      int status = 0;
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
    close(out_pipe[0]);
    close(err_pipe[0]);
    r.started = false;
    r.err = "cannot run `" + printable(words[0]) + "`: " + std::strerror(exec_error);
    // A script whose `#!` interpreter is missing fails with ENOENT, as if it were missing itself.
    if (exec_error == ENOENT && access(program.c_str(), F_OK) == 0)
      r.err += " (the interpreter its `#!` line names?)";
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
  tell_watchdog(-pid);  // before the reaping below frees the id for another group
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
