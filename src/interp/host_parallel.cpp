// See host_parallel.hpp.
#include "interp/host_parallel.hpp"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <cstdlib>
#include <exception>
#include <limits>
#include <mutex>

namespace vx::interp {

struct HostThreads::Controls {
  tbb::global_control threads;
  tbb::global_control stack;
  Controls(int n, size_t stack_bytes)
      : threads(tbb::global_control::max_allowed_parallelism, static_cast<size_t>(n)),
        stack(tbb::global_control::thread_stack_size, stack_bytes) {}
};

HostThreads::HostThreads() {
  count_ = tbb::info::default_concurrency();
  if (const char* env = std::getenv("VX_HOST_THREADS")) {
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && n >= 1 && n <= 4096) count_ = static_cast<int>(n);
  }
  if (count_ < 1) count_ = 1;
  // Block code may call functions up to the call-depth limit, as the main thread may
  // (run_program's thread): reserve the same order of stack; only touched pages are committed.
  controls_ = std::make_unique<Controls>(count_, size_t{256} << 20);
}

HostThreads::~HostThreads() = default;

namespace {

// The failure of the lowest pass seen so far. Only the error path takes the lock.
struct FirstFailure {
  std::atomic<int64_t> pass{std::numeric_limits<int64_t>::max()};
  std::mutex mutex;
  std::exception_ptr error;

  void record(int64_t k, std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(mutex);
    if (k < pass.load(std::memory_order_relaxed)) {
      pass.store(k, std::memory_order_relaxed);
      error = std::move(e);
    }
  }
  // A pass after a failing one need not run: the sequential run never reaches it.
  bool skip(int64_t k) const { return k > pass.load(std::memory_order_relaxed); }
};

// A frame for a task: the scalars of `f` copied, its tensor slots as views (never owning), so
// that tiles the block code makes belong to the task. The scalar slots (loop variables are
// written on every pass) get a cache line of padding on each side, so that two tasks' frames
// never share a line.
constexpr size_t kPadSlots = 64 / sizeof(uint64_t);
void copy_frame(const Frame& f, Frame& task) {
  const size_t n = f.tensors_.size();  // the slot count (scalars_ may be padded)
  task.scalars_.assign(n + 2 * kPadSlots, 0);
  task.s = task.scalars_.data() + kPadSlots;
  std::copy(f.s, f.s + n, task.s);
  for (size_t i = 0; i < n; ++i) task.t[i].view = f.t[i].view;
}

}  // namespace

void run_blocks_parallel(Frame& f, int64_t count, uint64_t first, BlockPass pass,
                         const void* self) {
  FirstFailure failure;
  const ExecContext& parent = *f.ctx;
  const int slot_count = static_cast<int>(f.tensors_.size());
  tbb::parallel_for(tbb::blocked_range<int64_t>(0, count), [&](const tbb::blocked_range<int64_t>& r) {
    if (failure.skip(r.begin())) return;
    ExecContext ctx;
    parent.fork_into(ctx);
    ctx.concurrent = true;
    Frame task(slot_count);
    copy_frame(f, task);
    task.ctx = &ctx;
    for (int64_t k = r.begin(); k != r.end(); ++k) {
      if (failure.skip(k)) return;
      try {
        pass(self, task, first + static_cast<uint64_t>(k));
      } catch (...) {
        failure.record(k, std::current_exception());
        return;
      }
    }
  });
  if (failure.error) std::rethrow_exception(failure.error);
}

}  // namespace vx::interp
