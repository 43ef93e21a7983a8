// The conformance runner's progress on standard error (conformance_internal.hpp, spec/cli.md
// §6.4): a line per finished program for a log, or on a terminal one line redrawn in place (and
// twice a second by a ticker thread, so that the time goes on while a slow program runs) with
// each failure printed above it as it happens.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "cli/conformance_internal.hpp"

namespace vx::conformance {

namespace {

using Clock = std::chrono::steady_clock;

// `0.4 s`, `42 s`, `2 min 23 s`, `1 h 5 min`.
std::string duration_text(double seconds) {
  char buf[48];
  if (seconds < 10)
    std::snprintf(buf, sizeof buf, "%.1f s", seconds);
  else if (seconds < 60)
    std::snprintf(buf, sizeof buf, "%d s", static_cast<int>(seconds));
  else if (seconds < 3600)
    std::snprintf(buf, sizeof buf, "%d min %d s", static_cast<int>(seconds) / 60,
                  static_cast<int>(seconds) % 60);
  else
    std::snprintf(buf, sizeof buf, "%d h %d min", static_cast<int>(seconds) / 3600,
                  static_cast<int>(seconds) / 60 % 60);
  return buf;
}

}  // namespace

struct Progress::State {
  State(Mode mode, std::ostream& err, size_t total, int columns, std::string xfail_file)
      : mode(mode), err(err), total(total), columns(columns), xfail_file(std::move(xfail_file)) {}
  Mode mode;
  std::ostream& err;
  size_t total;
  int columns;
  std::string xfail_file;
  Clock::time_point start = Clock::now();
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  size_t finished = 0;
  int passed = 0, failed = 0, xfailed = 0;
  std::thread ticker;

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start).count(); }

  // The bar's line (the mutex held): `[=====>    ] 123/554  120 passed  3 failed  4.1/s  1 min
  // 2 s left`, no wider than the terminal, so that `\r` goes back to its start.
  void draw() {
    const double seconds = elapsed();
    std::string counts = std::to_string(finished) + "/" + std::to_string(total) + "  " +
                         std::to_string(passed) + " passed  " + std::to_string(failed) + " failed";
    if (xfailed) counts += "  " + std::to_string(xfailed) + " xfail";
    char rate[32] = "";
    if (finished > 0 && seconds > 0)
      std::snprintf(rate, sizeof rate, "  %.1f/s", finished / seconds);
    counts += rate;
    counts += finished > 0 ? "  " + duration_text(seconds / finished * (total - finished)) + " left"
                           : "  " + duration_text(seconds);
    const int room = columns - 1 - static_cast<int>(counts.size()) - 3;
    std::string line;
    if (room >= 10) {
      const int width = std::min(room, 40);
      const int full = total ? static_cast<int>(finished * width / total) : width;
      line = "[" + std::string(full, '=') + (full < width ? ">" : "") +
             std::string(std::max(0, width - full - 1), ' ') + "] ";
    }
    line += counts;
    if (static_cast<int>(line.size()) > columns - 1) line.resize(std::max(0, columns - 1));
    err << "\r" << line << "\x1b[K" << std::flush;
  }
};

Progress::Progress(Mode mode, std::ostream& err, size_t total, int columns, std::string xfail_file)
    : state_(std::make_unique<State>(mode, err, total, columns > 0 ? columns : 80,
                                     std::move(xfail_file))) {
  if (mode != Mode::Bar) return;
  State& s = *state_;
  std::lock_guard lock(s.mutex);
  s.draw();
  s.ticker = std::thread([&s] {
    std::unique_lock lock(s.mutex);
    while (!s.wake.wait_for(lock, std::chrono::milliseconds(500), [&s] { return s.stopping; }))
      s.draw();
  });
}

Progress::~Progress() {
  State& s = *state_;
  {
    std::lock_guard lock(s.mutex);
    s.stopping = true;
  }
  s.wake.notify_all();
  if (s.ticker.joinable()) s.ticker.join();
}

void Progress::finished(const Case& c) {
  State& s = *state_;
  if (s.mode == Mode::Off) return;
  std::lock_guard lock(s.mutex);
  ++s.finished;
  const Status status = status_of(c);
  (status == Status::Pass ? s.passed : status == Status::XFail ? s.xfailed : s.failed)++;
  if (s.mode == Mode::Lines) {
    const std::string n = std::to_string(s.total);
    std::string count = std::to_string(s.finished);
    count.insert(0, n.size() - std::min(n.size(), count.size()), ' ');
    s.err << "[" << count << "/" << n << "] " << case_line(c, s.xfail_file) << "\n" << std::flush;
    return;
  }
  // On the terminal a failure is printed above the bar as it happens.
  if (status == Status::Fail || status == Status::XPass)
    s.err << "\r\x1b[K" << case_line(c, s.xfail_file) << "\n";
  s.draw();
}

void Progress::done() {
  State& s = *state_;
  {
    std::lock_guard lock(s.mutex);
    s.stopping = true;
  }
  s.wake.notify_all();
  if (s.ticker.joinable()) s.ticker.join();
  if (s.mode == Mode::Off) return;
  if (s.mode == Mode::Bar) s.err << "\r\x1b[K";
  s.err << "ran " << s.finished << (s.finished == 1 ? " program" : " programs") << " in "
        << duration_text(s.elapsed()) << "\n"
        << std::flush;
}

}  // namespace vx::conformance
