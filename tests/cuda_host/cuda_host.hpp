// A test-only CUDA on the host (issue 5, point 7): g++ compiles the emitted kernels unchanged,
// with one Boost.Context fiber per lane, so that tests/cuda_host_test.cpp can run them against the
// interpreter bit for bit without a GPU. Include it before vx_math.h and the prelude, with
// VX_HOST_HARNESS defined (that turns on each region's `<name>_host(void** args)` wrapper).
//
// The model: blocks run one after another on the calling thread; the lanes of a block are fibers
// that the scheduler in launch() resumes in turn. A lane runs until it waits: at __syncthreads()
// (every live lane of the block arrives) or at __shfl_down_sync (the lanes of its warp that the
// mask names arrive; the emitter calls it in warp-uniform code such as `if (vx_tid < 32)`). So only
// one lane runs at a time, atomics are plain read-modify-writes, and __shared__ is `static` (a
// block's shared variables are the kernel function's statics; blocks never overlap). A lane that
// ends no longer counts at __syncthreads() (as exited threads on the GPU); a wait that can never
// end (a shuffle the rest of the warp never reaches) is reported by launch() as a deadlock, not a
// hang. One fiber per lane serves every block of a launch; their 128 KiB stacks (a guard page
// below each) are pooled across launches.
// __CUDA_ARCH__ and __CUDACC__ stay undefined: vx_math.h takes its host paths, the interpreter's.
#pragma once
#include <math.h>

#include <bit>
#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};
using uint3 = dim3;

inline dim3 threadIdx, blockIdx, blockDim, gridDim;

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __shared__ static
#define __restrict__ __restrict
#define __launch_bounds__(...)

namespace vx_host {

constexpr unsigned kWarp = 32;
constexpr unsigned kMaxLanes = 1024;
constexpr size_t kStackBytes =
    128 * 1024;  // vx_math.h's slow paths need a few KiB; a guard page below

// Stacks are reused across launches: creating a fiber then costs no mmap.
class StackPool {
 public:
  boost::context::stack_context allocate() {
    if (free_.empty()) return boost::context::protected_fixedsize_stack(kStackBytes).allocate();
    auto sc = free_.back();
    free_.pop_back();
    return sc;
  }
  void deallocate(boost::context::stack_context& sc) noexcept { free_.push_back(sc); }

 private:
  std::vector<boost::context::stack_context> free_;
};
inline StackPool stack_pool;
struct PooledStack {
  boost::context::stack_context allocate() { return stack_pool.allocate(); }
  void deallocate(boost::context::stack_context& sc) noexcept { stack_pool.deallocate(sc); }
};

// What a waiting lane waits for: the phase counter of its barrier to move on.
struct Wait {
  const unsigned* phase = nullptr;
  unsigned seen = 0;
  bool over() const { return phase == nullptr || *phase != seen; }
};

struct Lane {
  boost::context::fiber fiber;
  boost::context::fiber sink;
  dim3 idx;
  unsigned tid = 0;
  bool done = true;  // finished the current block
  Wait wait;
};

struct Barrier {
  unsigned arrived = 0;
  unsigned phase = 0;
};

// The block being run: its lanes, the block barrier and one shuffle barrier per warp (values are
// double-buffered by phase, so a lane that runs ahead to the next shuffle cannot overwrite a value
// that a slower lane of the same warp has yet to read).
struct Block {
  unsigned lanes = 0;
  unsigned live = 0;  // lanes not yet at the end of the kernel
  Barrier sync;
  std::vector<Barrier> warps;
  std::vector<uint64_t> slots[2];
  std::vector<Lane> lane;
  bool stop = false;  // the fibers leave their loop
};
inline Block* block = nullptr;
inline Lane* current = nullptr;

inline void suspend() { current->sink = std::move(current->sink).resume(); }

// Arrives at `b`; the last of `expected` lanes opens it, the others wait until it opens.
inline void arrive(Barrier& b, unsigned expected) {
  const unsigned seen = b.phase;
  if (++b.arrived >= expected) {
    b.arrived = 0;
    ++b.phase;
    return;
  }
  current->wait = Wait{&b.phase, seen};
  suspend();
}

// Runs `kernel(args)` on every block of `grid` with `block_dim` lanes each. Returns false with
// `error` set on a deadlock or an impossible launch.
inline bool launch(const unsigned grid[3], const int block_dim[3], void (*kernel)(void**),
                   void** args, std::string& error) {
  const unsigned n = static_cast<unsigned>(block_dim[0] * block_dim[1] * block_dim[2]);
  if (n == 0 || n > kMaxLanes) {
    error = "a block of " + std::to_string(n) + " lanes";
    return false;
  }
  gridDim = dim3{grid[0], grid[1], grid[2]};
  blockDim = dim3{static_cast<unsigned>(block_dim[0]), static_cast<unsigned>(block_dim[1]),
                  static_cast<unsigned>(block_dim[2])};
  Block b;
  b.lanes = n;
  b.warps.assign((n + kWarp - 1) / kWarp, Barrier{});
  b.slots[0].assign(n, 0);
  b.slots[1].assign(n, 0);
  b.lane.resize(n);
  block = &b;
  // One fiber per lane for the whole launch: it runs the kernel once per block.
  for (unsigned t = 0; t < n; ++t) {
    Lane& l = b.lane[t];
    l.tid = t;
    l.idx = dim3{t % blockDim.x, (t / blockDim.x) % blockDim.y, t / (blockDim.x * blockDim.y)};
    l.fiber = boost::context::fiber(std::allocator_arg, PooledStack{},
                                    [&l, &b, kernel, args](boost::context::fiber&& sink) {
                                      l.sink = std::move(sink);
                                      for (;;) {
                                        suspend();  // until the scheduler starts a block
                                        if (b.stop) break;
                                        kernel(args);
                                        l.done = true;
                                      }
                                      return std::move(l.sink);
                                    });
    current = &l;
    l.fiber = std::move(l.fiber).resume();  // to the first suspend()
  }
  bool ok = true;
  for (unsigned bz = 0; bz < grid[2] && ok; ++bz)
    for (unsigned by = 0; by < grid[1] && ok; ++by)
      for (unsigned bx = 0; bx < grid[0] && ok; ++bx) {
        blockIdx = dim3{bx, by, bz};
        b.live = n;
        b.sync = Barrier{};
        for (auto& w : b.warps) w = Barrier{};
        for (auto& l : b.lane) {
          l.done = false;
          l.wait = Wait{};
        }
        while (b.live > 0) {
          bool progress = false;
          for (auto& l : b.lane) {
            if (l.done || !l.wait.over()) continue;
            l.wait = Wait{};
            current = &l;
            threadIdx = l.idx;
            l.fiber = std::move(l.fiber).resume();
            progress = true;
            if (l.done) {
              --b.live;
              // A lane that ends lets a barrier its block waits at open without it.
              if (b.sync.arrived > 0 && b.sync.arrived >= b.live) {
                b.sync.arrived = 0;
                ++b.sync.phase;
              }
            }
          }
          if (!progress) {
            error = "deadlock in block (" + std::to_string(bx) + ", " + std::to_string(by) + ", " +
                    std::to_string(bz) + "): " + std::to_string(b.live) +
                    " lanes wait at a barrier";
            ok = false;
            break;
          }
        }
      }
  // Let every fiber leave its loop (after a deadlock, the waiting ones are unwound by ~fiber).
  b.stop = true;
  for (auto& l : b.lane) {
    if (!l.done || !l.fiber) continue;
    current = &l;
    l.fiber = std::move(l.fiber).resume();
  }
  b.lane.clear();
  current = nullptr;
  block = nullptr;
  return ok;
}

inline unsigned lanes_in_warp(unsigned warp, unsigned mask) {
  const unsigned first = warp * kWarp;
  const unsigned count = block->lanes - first < kWarp ? block->lanes - first : kWarp;
  const unsigned present = count == kWarp ? ~0u : (1u << count) - 1;
  return static_cast<unsigned>(std::popcount(present & mask));
}

}  // namespace vx_host

inline void __syncthreads() { vx_host::arrive(vx_host::block->sync, vx_host::block->live); }
inline void __threadfence_block() {}
inline void __threadfence() {}
inline void __threadfence_system() {}

// The value of lane (own lane + delta) of the warp, or the lane's own value when that lane is
// beyond the segment of `width` lanes (CUDA's rule).
template <class T>
T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32) {
  static_assert(sizeof(T) <= 8);
  vx_host::Block& b = *vx_host::block;
  const unsigned me = vx_host::current->tid;
  vx_host::Barrier& w = b.warps[me / vx_host::kWarp];
  std::vector<uint64_t>& slots = b.slots[w.phase & 1];
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  slots[me] = bits;
  vx_host::arrive(w, vx_host::lanes_in_warp(me / vx_host::kWarp, mask));
  const unsigned seg = static_cast<unsigned>(width);
  T r = v;
  if (me % seg + delta < seg && me + delta < b.lanes)
    std::memcpy(&r, &slots[me + delta], sizeof(T));
  return r;
}

// Integer atomics wrap, as the GPU's do (in unsigned arithmetic here: no signed overflow).
template <class T>
T wrap_add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}
template <class T>
T wrap_sub(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
  } else {
    return a - b;
  }
}
template <class T>
T atomicAdd(T* p, T v) {
  T o = *p;
  *p = wrap_add(o, v);
  return o;
}
template <class T>
T atomicSub(T* p, T v) {
  T o = *p;
  *p = wrap_sub(o, v);
  return o;
}
template <class T>
T atomicMax(T* p, T v) {
  T o = *p;
  if (o < v) *p = v;
  return o;
}
template <class T>
T atomicMin(T* p, T v) {
  T o = *p;
  if (v < o) *p = v;
  return o;
}
template <class T>
T atomicExch(T* p, T v) {
  T o = *p;
  *p = v;
  return o;
}
template <class T>
T atomicCAS(T* p, T c, T v) {
  T o = *p;
  if (o == c) *p = v;
  return o;
}
