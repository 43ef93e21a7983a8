// What tools/bench/cuda's hand-written kernels share: error checks, the .vx programs' data
// generator, block reductions by warp shuffles, and timing the way Vx times its own launches (CUDA
// events around each single launch, the median of 50 after 3 warm-up launches), one JSON object
// per line.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(e)                                                                                    \
  do {                                                                                           \
    cudaError_t err_ = (e);                                                                      \
    if (err_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #e, cudaGetErrorString(err_)); \
      std::exit(3);                                                                              \
    }                                                                                            \
  } while (0)

namespace bench {

// The .vx programs' generator: s = s * 1664525 + 1013904223, value from the top 24 bits.
inline std::vector<float> lcg(size_t n, uint32_t seed, float scale, float offset) {
  std::vector<float> v(n);
  uint32_t s = seed;
  for (size_t i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    v[i] = static_cast<float>(s >> 8) * scale + offset;
  }
  return v;
}
// Its top 24 bits modulo m, as integers (the token ids of the llm.c programs).
inline std::vector<int> lcg_ints(size_t n, uint32_t seed, uint32_t m) {
  std::vector<int> v(n);
  uint32_t s = seed;
  for (size_t i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    v[i] = static_cast<int>((s >> 8) % m);
  }
  return v;
}

// ---- block reductions ---------------------------------------------------------------------------

__device__ inline float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ inline float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
// A block of 256: warp shuffles, then the 8 warp results through shared memory.
template <bool kMax>
__device__ inline float block_reduce(float v, float* scratch) {
  v = kMax ? warp_max(v) : warp_sum(v);
  const int w = threadIdx.x / 32, l = threadIdx.x % 32;
  if (l == 0) scratch[w] = v;
  __syncthreads();
  float r = l < 8 ? scratch[l] : (kMax ? -INFINITY : 0.0f);
  r = kMax ? warp_max(r) : warp_sum(r);
  __syncthreads();
  return r;
}

// ---- timing -----------------------------------------------------------------------------------

template <class Launch>
double median_ms(Launch launch) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i) launch();
  CK(cudaDeviceSynchronize());
  std::vector<float> ms;
  for (int i = 0; i < 50; ++i) {
    CK(cudaEventRecord(a));
    launch();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    CK(cudaGetLastError());
    float t = 0;
    CK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return ms[ms.size() / 2];
}

template <class T>
inline T* upload(const std::vector<T>& h) {
  T* d = nullptr;
  CK(cudaMalloc(&d, h.size() * sizeof(T)));
  CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

inline void report(const char* name, double ms, double bytes, double max_rel_err) {
  std::printf(
      "{\"kernel\": \"%s\", \"median_ms\": %.5f, \"bytes\": %.0f, \"GBps\": %.1f, \"max_rel_err\": "
      "%.3g}\n",
      name, ms, bytes, bytes / (ms * 1e6), max_rel_err);
  std::fflush(stdout);
}

}  // namespace bench
