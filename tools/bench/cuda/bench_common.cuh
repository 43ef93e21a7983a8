// What tools/bench/cuda's hand-written kernels share: error checks, the .vx programs' data
// generator, and timing the way Vx times its own launches (CUDA events around each single launch,
// the median of 50 after 3 warm-up launches), one JSON object per line.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(e)                                                                        \
  do {                                                                               \
    cudaError_t err_ = (e);                                                          \
    if (err_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #e, cudaGetErrorString(err_)); \
      std::exit(3);                                                                  \
    }                                                                                \
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

inline float* upload(const std::vector<float>& h) {
  float* d = nullptr;
  CK(cudaMalloc(&d, h.size() * sizeof(float)));
  CK(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

inline void report(const char* name, double ms, double bytes, double max_rel_err) {
  std::printf("{\"kernel\": \"%s\", \"median_ms\": %.5f, \"bytes\": %.0f, \"GBps\": %.1f, \"max_rel_err\": %.3g}\n",
              name, ms, bytes, bytes / (ms * 1e6), max_rel_err);
  std::fflush(stdout);
}

}  // namespace bench
