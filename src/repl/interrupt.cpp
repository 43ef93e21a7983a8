// See interrupt.hpp. The handler only stores to lock-free atomics, which is async-signal-safe;
// SA_RESTART lets a read that SIGINT breaks (standard input while idle) go on.
#include "repl/interrupt.hpp"

#include <signal.h>

#include <mutex>

namespace vx::repl {

namespace {

std::atomic<bool> g_requested{false};
std::atomic<int> g_running{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

void on_sigint(int) {
  if (g_running.load(std::memory_order_relaxed) > 0)
    g_requested.store(true, std::memory_order_relaxed);
}

std::mutex g_mutex;  // guards the two below (never taken in the handler)
int g_handlers = 0;
struct sigaction g_previous {};

}  // namespace

InterruptHandler::InterruptHandler() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_handlers++ > 0) return;
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, &g_previous);
}

InterruptHandler::~InterruptHandler() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (--g_handlers == 0) sigaction(SIGINT, &g_previous, nullptr);
}

RunningInput::RunningInput() {
  // The outermost one starts afresh (`:vars` runs inputs of its own inside one).
  if (g_running.load(std::memory_order_relaxed) == 0)
    g_requested.store(false, std::memory_order_relaxed);
  g_running.fetch_add(1, std::memory_order_relaxed);
}

RunningInput::~RunningInput() { g_running.fetch_sub(1, std::memory_order_relaxed); }

const std::atomic<bool>* interrupt_flag() { return &g_requested; }

bool interrupt_requested() { return g_requested.load(std::memory_order_relaxed); }

}  // namespace vx::repl
