// A test-only CUDA on the host (issue 5, point 7): g++ compiles emitted kernels unchanged, with
// one Boost.Context fiber per lane. blockIdx/threadIdx/blockDim/gridDim are globals that the
// scheduler sets before it resumes a lane; __syncthreads() switches back to the scheduler, which
// resumes every lane of the block in turn (a barrier); __shared__ is `static` (blocks run one
// after another on one OS thread, so a block's shared variables are the function's statics).
// Atomics are plain read-modify-writes: only one lane runs at a time, between barriers.
// __shfl_down_sync is a barrier of the whole block (the emitter calls it only in uniform code).
#pragma once
#include <boost/context/fiber.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
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
#define __launch_bounds__(n)

namespace vx_host {

struct Lane {
  boost::context::fiber fiber;
  boost::context::fiber sink;
  dim3 idx;
  bool done = false;
};
inline Lane* current = nullptr;
inline std::vector<uint64_t> shuffle_slots;

inline void yield_to_scheduler() { current->sink = std::move(current->sink).resume(); }

// Runs `kernel` (which reads the CUDA globals) on a grid of blocks, each block's lanes as fibers.
inline void launch(const dim3& grid, const dim3& block, const std::function<void()>& kernel) {
  gridDim = grid;
  blockDim = block;
  const unsigned n = block.x * block.y * block.z;
  shuffle_slots.assign(n, 0);
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        blockIdx = dim3{bx, by, bz};
        std::vector<Lane> lanes(n);
        for (unsigned t = 0; t < n; ++t) {
          Lane& l = lanes[t];
          l.idx = dim3{t % block.x, (t / block.x) % block.y, t / (block.x * block.y)};
          l.fiber = boost::context::fiber(
              std::allocator_arg, boost::context::fixedsize_stack(256 * 1024),
              [&l, &kernel](boost::context::fiber&& sink) {
                l.sink = std::move(sink);
                kernel();
                l.done = true;
                return std::move(l.sink);
              });
        }
        bool live = true;
        while (live) {
          live = false;
          for (auto& l : lanes) {
            if (l.done) continue;
            current = &l;
            threadIdx = l.idx;
            l.fiber = std::move(l.fiber).resume();
            if (!l.done) live = true;
          }
        }
        current = nullptr;
      }
}

inline unsigned lane_id() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }

}  // namespace vx_host

inline void __syncthreads() { vx_host::yield_to_scheduler(); }
inline void __threadfence_block() {}
inline void __threadfence() {}
inline void __threadfence_system() {}

template <class T> T __shfl_down_sync(unsigned, T v, unsigned delta, int width = 32) {
  static_assert(sizeof(T) <= 8);
  const unsigned me = vx_host::lane_id();
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  vx_host::shuffle_slots[me] = bits;
  __syncthreads();
  const unsigned base = me - me % static_cast<unsigned>(width);
  const unsigned src = me + delta;
  T r = v;
  if (src < base + static_cast<unsigned>(width) && src < vx_host::shuffle_slots.size())
    std::memcpy(&r, &vx_host::shuffle_slots[src], sizeof(T));
  __syncthreads();
  return r;
}

template <class T> T atomicAdd(T* p, T v) { T o = *p; *p = static_cast<T>(o + v); return o; }
template <class T> T atomicSub(T* p, T v) { T o = *p; *p = static_cast<T>(o - v); return o; }
template <class T> T atomicMax(T* p, T v) { T o = *p; if (o < v) *p = v; return o; }
template <class T> T atomicMin(T* p, T v) { T o = *p; if (v < o) *p = v; return o; }
template <class T> T atomicExch(T* p, T v) { T o = *p; *p = v; return o; }
template <class T> T atomicCAS(T* p, T c, T v) { T o = *p; if (o == c) *p = v; return o; }
