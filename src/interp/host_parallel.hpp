// Host parallelism (DESIGN §3.10, spec/semantics.md §7): the blocks of an `across blocks` loop
// run on TBB tasks, the lanes of one block in order on its task. Each task gets its own copy of
// the frame (so loop variables, block-code locals and SMEM tiles are its own) and its own
// ExecContext (frame pools for calls); tensors outside the loop are shared through views, which
// the kernel rules make safe. Results stay those of the sequential run: a runtime error reported
// is the one of the lowest block that fails, as in the sequential order.
#pragma once
#include <cstdint>
#include <memory>

#include "interp/nodes.hpp"

namespace vx::interp {

// The number of host threads for a run: VX_HOST_THREADS when it is a positive integer, else
// every core. While alive, it limits TBB to that many threads (tbb::global_control) and gives
// TBB's workers a stack as deep as the interpreter's call-depth limit needs.
class HostThreads {
 public:
  HostThreads();
  ~HostThreads();
  int count() const { return count_; }

 private:
  int count_ = 1;
  struct Controls;
  std::unique_ptr<Controls> controls_;
};

// One block pass: runs the body of the loop `self` with the block variable set to `value` (the
// variable's slot bits, wrapped to its type by the loop).
using BlockPass = void (*)(const void* self, Frame& f, uint64_t value);

// Runs the passes first, first + 1, …, first + count - 1 (as slot bits) of an across-blocks loop
// whose code runs in frame `f`, spread over TBB tasks. Rethrows the exception of the lowest
// failing pass, after every lower pass has run.
void run_blocks_parallel(Frame& f, int64_t count, uint64_t first, BlockPass pass, const void* self);

}  // namespace vx::interp
