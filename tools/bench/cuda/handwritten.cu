// Hand-written CUDA versions of seed 002's four kernels, the baseline tools/device-check compares
// Vx's emitted kernels with (issue 5). Same sizes, same data generator as the .vx programs beside
// this file, timed the way Vx times its own launches: CUDA events around each single launch, the
// median of 50 after 3 warm-up launches. Also a device-to-device copy of the scale loop's bytes.
// Prints one JSON object per line: {"kernel": ..., "median_ms": ..., ...}.
//
// Build: nvcc -O3 -arch=sm_90 -o handwritten handwritten.cu   (tools/device-check does this)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_common.cuh"

namespace {

using namespace bench;

constexpr int kRows = 4096, kCols = 16384;     // the scale loop
constexpr int kGeluN = 6291456;                // GELU
constexpr int kLnRows = 8192, kLnCols = 768;   // layernorm
constexpr int kSmRows = 8192, kSmCols = 1024;  // softmax

// ---- kernels ----------------------------------------------------------------------------------

// Seed 002's "usual way": one block per row, the thread strides by blockDim.x.
__global__ void scale_rows(float* grid) {
  int y = blockIdx.x;
  for (int x = threadIdx.x; x < kCols; x += blockDim.x) {
    size_t i = static_cast<size_t>(y) * kCols + x;
    grid[i] = __fadd_rn(__fmul_rn(grid[i], 0.5f), static_cast<float>(y));
  }
}
// The same with the block size written in (what the blog says a CUDA programmer can do).
__global__ void __launch_bounds__(256) scale_rows_256(float* grid) {
  int y = blockIdx.x;
  for (int x = threadIdx.x; x < kCols; x += 256) {
    size_t i = static_cast<size_t>(y) * kCols + x;
    grid[i] = __fadd_rn(__fmul_rn(grid[i], 0.5f), static_cast<float>(y));
  }
}

// llm.c's gelu_forward_kernel1, with tanhf (exact=true) or the tanh.approx instruction.
template <bool kExact>
__global__ void gelu(float* out, const float* inp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = inp[i];
    float cube = 0.044715f * x * x * x;
    float a = 0.7978846f * (x + cube), t;
    if (kExact) {
      t = tanhf(a);
    } else {
      asm("tanh.approx.f32 %0, %1;" : "=f"(t) : "f"(a));
    }
    out[i] = 0.5f * x * (1.0f + t);
  }
}

// Layernorm in the manner of llm.c's faster versions: one block per row, the row in registers,
// two-pass mean and variance, shuffle reductions.
__global__ void __launch_bounds__(256)
    layernorm(float* out, float* mean, float* rstd, const float* inp, const float* weight,
              const float* bias) {
  __shared__ float scratch[8];
  const int r = blockIdx.x, t = threadIdx.x;
  const float* x = inp + static_cast<size_t>(r) * kLnCols;
  float v[3];
  for (int k = 0; k < 3; ++k) v[k] = x[t + 256 * k];
  const float m = block_reduce<false>(v[0] + v[1] + v[2], scratch) / kLnCols;
  float d = 0;
  for (int k = 0; k < 3; ++k) d += (v[k] - m) * (v[k] - m);
  const float var = block_reduce<false>(d, scratch) / kLnCols;
  const float s = rsqrtf(var + 1e-5f);
  float* o = out + static_cast<size_t>(r) * kLnCols;
  for (int k = 0; k < 3; ++k) {
    const int c = t + 256 * k;
    o[c] = (v[k] - m) * s * weight[c] + bias[c];
  }
  if (t == 0) {
    mean[r] = m;
    rstd[r] = s;
  }
}

// Softmax, one block per row, the row in registers, max and sum by shuffles, __expf.
__global__ void __launch_bounds__(256) softmax(float* out, const float* inp) {
  __shared__ float scratch[8];
  const int r = blockIdx.x, t = threadIdx.x;
  const float* x = inp + static_cast<size_t>(r) * kSmCols;
  float v[4];
  for (int k = 0; k < 4; ++k) v[k] = x[t + 256 * k];
  const float mx = block_reduce<true>(fmaxf(fmaxf(v[0], v[1]), fmaxf(v[2], v[3])), scratch);
  float s = 0;
  for (int k = 0; k < 4; ++k) {
    v[k] = __expf(v[k] - mx);
    s += v[k];
  }
  const float total = block_reduce<false>(s, scratch);
  float* o = out + static_cast<size_t>(r) * kSmCols;
  for (int k = 0; k < 4; ++k) o[t + 256 * k] = v[k] / total;
}

}  // namespace

int main() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("{\"device\": \"%s\", \"sm\": %d, \"multiprocessors\": %d}\n", prop.name,
              prop.major * 10 + prop.minor, prop.multiProcessorCount);

  {  // scale loop, and the copy of the same bytes
    const size_t n = static_cast<size_t>(kRows) * kCols;
    std::vector<float> h = lcg(n, 12345, 0.000000059604645f, -0.5f);
    float* g = upload(h);
    // One launch checked against the host (exact arithmetic, so bit for bit).
    scale_rows<<<kRows, 256>>>(g);
    std::vector<float> back(n);
    CK(cudaMemcpy(back.data(), g, n * 4, cudaMemcpyDeviceToHost));
    double bad = 0;
    for (size_t i = 0; i < n; ++i)
      if (back[i] != h[i] * 0.5f + static_cast<float>(i / kCols)) bad = 1;
    const double bytes = 2.0 * n * 4;
    report("scale_cuda_blockdim", median_ms([&] { scale_rows<<<kRows, 256>>>(g); }), bytes, bad);
    report("scale_cuda_256", median_ms([&] { scale_rows_256<<<kRows, 256>>>(g); }), bytes, bad);
    float* c = nullptr;
    CK(cudaMalloc(&c, n * 4));
    report("copy_d2d",
           median_ms([&] { CK(cudaMemcpyAsync(c, g, n * 4, cudaMemcpyDeviceToDevice)); }), bytes,
           0);
    CK(cudaFree(c));
    CK(cudaFree(g));
  }
  {  // GELU
    std::vector<float> h = lcg(kGeluN, 777, 0.00000047683716f, -4.0f);
    float* in = upload(h);
    float* out = nullptr;
    CK(cudaMalloc(&out, kGeluN * 4));
    std::vector<float> back(kGeluN);
    auto err = [&] {
      CK(cudaMemcpy(back.data(), out, kGeluN * 4, cudaMemcpyDeviceToHost));
      double worst = 0;
      for (int i = 0; i < kGeluN; ++i) {
        const double x = h[i],
                     ref = 0.5 * x * (1.0 + std::tanh(0.7978846 * (x + 0.044715 * x * x * x)));
        worst = std::max(worst, std::fabs(back[i] - ref) / std::max(1e-3, std::fabs(ref)));
      }
      return worst;
    };
    const int blocks = (kGeluN + 255) / 256;
    const double bytes = 2.0 * kGeluN * 4;
    gelu<false><<<blocks, 256>>>(out, in, kGeluN);
    report("gelu_fast_cuda", median_ms([&] { gelu<false><<<blocks, 256>>>(out, in, kGeluN); }),
           bytes, err());
    gelu<true><<<blocks, 256>>>(out, in, kGeluN);
    report("gelu_exact_cuda", median_ms([&] { gelu<true><<<blocks, 256>>>(out, in, kGeluN); }),
           bytes, err());
    CK(cudaFree(in));
    CK(cudaFree(out));
  }
  {  // layernorm
    const size_t n = static_cast<size_t>(kLnRows) * kLnCols;
    std::vector<float> h = lcg(n, 4242, 0.00000011920929f, -1.0f);
    std::vector<float> hw(kLnCols), hb(kLnCols);
    {
      uint32_t s = 4242;
      for (size_t i = 0; i < n; ++i) s = s * 1664525u + 1013904223u;
      for (int c = 0; c < kLnCols; ++c) {
        s = s * 1664525u + 1013904223u;
        hw[c] = static_cast<float>(s >> 8) * 0.000000059604645f + 0.5f;
        s = s * 1664525u + 1013904223u;
        hb[c] = static_cast<float>(s >> 8) * 0.000000059604645f - 0.5f;
      }
    }
    float *in = upload(h), *w = upload(hw), *b = upload(hb), *out, *mean, *rstd;
    CK(cudaMalloc(&out, n * 4));
    CK(cudaMalloc(&mean, kLnRows * 4));
    CK(cudaMalloc(&rstd, kLnRows * 4));
    layernorm<<<kLnRows, 256>>>(out, mean, rstd, in, w, b);
    std::vector<float> back(n);
    CK(cudaMemcpy(back.data(), out, n * 4, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int r = 0; r < kLnRows; r += 97) {
      double m = 0, v = 0;
      for (int c = 0; c < kLnCols; ++c) m += h[r * kLnCols + c];
      m /= kLnCols;
      for (int c = 0; c < kLnCols; ++c) v += (h[r * kLnCols + c] - m) * (h[r * kLnCols + c] - m);
      const double s = 1.0 / std::sqrt(v / kLnCols + 1e-5);
      for (int c = 0; c < kLnCols; ++c) {
        const double ref = (h[r * kLnCols + c] - m) * s * hw[c] + hb[c];
        worst = std::max(worst,
                         std::fabs(back[r * kLnCols + c] - ref) / std::max(1e-3, std::fabs(ref)));
      }
    }
    const double bytes = 2.0 * n * 4 + 2.0 * kLnRows * 4 + 2.0 * kLnCols * 4;
    report("layernorm_cuda",
           median_ms([&] { layernorm<<<kLnRows, 256>>>(out, mean, rstd, in, w, b); }), bytes,
           worst);
    for (float* p : {in, w, b, out, mean, rstd}) CK(cudaFree(p));
  }
  {  // softmax
    const size_t n = static_cast<size_t>(kSmRows) * kSmCols;
    std::vector<float> h = lcg(n, 99, 0.00000095367432f, -8.0f);
    float *in = upload(h), *out;
    CK(cudaMalloc(&out, n * 4));
    softmax<<<kSmRows, 256>>>(out, in);
    std::vector<float> back(n);
    CK(cudaMemcpy(back.data(), out, n * 4, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int r = 0; r < kSmRows; r += 97) {
      double mx = -1e30, s = 0;
      for (int c = 0; c < kSmCols; ++c) mx = std::max(mx, static_cast<double>(h[r * kSmCols + c]));
      for (int c = 0; c < kSmCols; ++c) s += std::exp(h[r * kSmCols + c] - mx);
      for (int c = 0; c < kSmCols; ++c) {
        const double ref = std::exp(h[r * kSmCols + c] - mx) / s;
        worst = std::max(worst, std::fabs(back[r * kSmCols + c] - ref) / std::max(1e-30, ref));
      }
    }
    report("softmax_cuda", median_ms([&] { softmax<<<kSmRows, 256>>>(out, in); }), 2.0 * n * 4,
           worst);
    CK(cudaFree(in));
    CK(cudaFree(out));
  }
  return 0;
}
