// GELU with the exact tanh, hand-written: llm.c's gelu_forward_kernel1 calling vx_math.h's
// correctly rounded vx_tanh_f32 — the function gelu_exact.vx computes — instead of CUDA's
// tanhf (up to 2 ulp off, and faster). Against this kernel tools/device-check measures what the
// emitter costs; against handwritten.cu's tanhf version, what exactness costs. vx_math.h needs
// no contraction, so this file is built apart from handwritten.cu, with -fmad=false:
//
// Build: nvcc -O3 -fmad=false -arch=sm_90 -o handwritten_exact handwritten_exact.cu
#include <cmath>

#include "../../../src/numeric/vx_math.h"
#include "bench_common.cuh"

namespace {

constexpr int kGeluN = 6291456;

__global__ void gelu_vx_tanh(float* out, const float* inp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = inp[i];
    float cube = 0.044715f * x * x * x;
    out[i] = 0.5f * x * (1.0f + vx_tanh_f32(0.7978846f * (x + cube)));
  }
}

}  // namespace

int main() {
  std::vector<float> h = bench::lcg(kGeluN, 777, 0.00000047683716f, -4.0f);
  float* in = bench::upload(h);
  float* out = nullptr;
  CK(cudaMalloc(&out, kGeluN * 4));
  const int blocks = (kGeluN + 255) / 256;
  gelu_vx_tanh<<<blocks, 256>>>(out, in, kGeluN);
  std::vector<float> back(kGeluN);
  CK(cudaMemcpy(back.data(), out, kGeluN * 4, cudaMemcpyDeviceToHost));
  double worst = 0;
  for (int i = 0; i < kGeluN; ++i) {
    const double x = h[i],
                 ref = 0.5 * x * (1.0 + std::tanh(0.7978846 * (x + 0.044715 * x * x * x)));
    worst = std::max(worst, std::fabs(back[i] - ref) / std::max(1e-3, std::fabs(ref)));
  }
  // The three values gelu_exact.vx prints (its stdout is the interpreter's): the same bits.
  std::printf("{\"values\": [%.9g, %.9g, %.9g]}\n", back[0], back[3000000], back[6291455]);
  bench::report("gelu_exact_vx_tanh_cuda",
                bench::median_ms([&] { gelu_vx_tanh<<<blocks, 256>>>(out, in, kGeluN); }),
                2.0 * kGeluN * 4, worst);
  CK(cudaFree(in));
  CK(cudaFree(out));
}
