// Host parallelism (DESIGN §3.10, spec/semantics.md §7): the blocks of an `across blocks` loop
// run on TBB tasks, the lanes of one block in order on its task. Each task gets its own copy of
// the frame (so loop variables, block-code locals and SMEM tiles are its own) and its own
// ExecContext (frame pools for calls); tensors outside the loop are shared through views, which
// the kernel rules make safe. Results stay those of the sequential run: a runtime error reported
// is the one of the lowest block that fails, as in the sequential order.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "interp/nodes.hpp"

namespace vx::interp {

// VX_HOST_THREADS: digits, 1 to 4096; nullopt when unset. Anything else sets `error` (a usage
// error before the run, as a VX_MEMORY_LIMIT that is not a size is).
std::optional<int> host_threads_from_env(std::string* error);

// The number of host threads for a run: `requested` when it is positive (the Python package's
// host_threads=), else VX_HOST_THREADS when it is good, else every core. While alive,
// it limits TBB to that many threads (tbb::global_control) and gives TBB's workers a stack as deep
// as the interpreter's call-depth limit needs.
class HostThreads {
 public:
  explicit HostThreads(int requested = 0);
  ~HostThreads();
  int count() const { return count_; }

 private:
  int count_ = 1;
  struct Controls;
  std::unique_ptr<Controls> controls_;
};

// One block pass: runs the body of the loop `self` with the block variable set to `value` (the
// variable's slot bits, wrapped to its type by the loop).
using BlockPass = void (*)(const void* self, Frame& f, uint64_t value, int64_t pass);

// A tensor local of the frame that the loop's passes update only by integer Relaxed
// atomic_fetch_add / atomic_fetch_sub whose old values nobody reads (private_sum_tensors): each
// task sums its updates in a copy of its own and adds the copy to the tensor when it ends, one
// atomic update per element, instead of contending for the same elements with the other tasks
// (a histogram's bins). Integer sums wrap, so any grouping gives the same totals, and Relaxed
// promises no order between the updates, so nothing in the loop can tell.
struct PrivateSumSlot {
  int slot = -1;
  int elem_bytes = 0;
};
struct PrivateSumPlan {
  std::vector<PrivateSumSlot> tensors;
  // The other locals the loop uses that it does not define: a tensor is summed privately only
  // when none of them holds any of its elements (a reference to it under another name).
  std::vector<int> others;
};
// The tensors of the across-blocks loop `loop` that qualify (at most 4,096 elements each when it
// runs; larger ones are updated in place).
PrivateSumPlan private_sum_tensors(const tir::Stmt& loop);

// Runs the passes first, first + 1, …, first + count - 1 (as slot bits) of an across-blocks loop
// whose code runs in frame `f`, spread over TBB tasks. Rethrows the exception of the lowest
// failing pass, after every lower pass has run.
void run_blocks_parallel(Frame& f, int64_t count, uint64_t first, BlockPass pass, const void* self,
                         const PrivateSumPlan& private_sums = {});

}  // namespace vx::interp
