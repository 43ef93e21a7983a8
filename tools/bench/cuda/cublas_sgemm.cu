// cuBLAS SGEMM on matmul.vx's shape (issue 20): out = inp . weight^T, inp 8192 x 768, weight
// 2304 x 768 (llm.c's layout), the same data, called as llm.c's matmul_forward2 calls it (column-
// major cuBLAS computes out^T = weight^T' . inp: transa = T, transb = N), in plain FP32
// (CUBLAS_DEFAULT_MATH: no TF32 tensor cores). Timed as Vx times its launches (bench_common.cuh).
// Prints the GEMM alone and the GEMM followed by llm.c's add_bias kernel, the whole of what
// matmul.vx computes.
//
// Build: nvcc -O3 -arch=sm_90 -o cublas_sgemm cublas_sgemm.cu -lcublas   (tools/device-check)
#include <cublas_v2.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "bench_common.cuh"
#include "llmc_matmul.cuh"

namespace {

using llmc::kBT;
using llmc::kC;
using llmc::kOC;

#define CKB(e)                                                                      \
  do {                                                                              \
    cublasStatus_t st_ = (e);                                                       \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                             \
      std::fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #e, \
                   static_cast<int>(st_));                                          \
      std::exit(3);                                                                 \
    }                                                                               \
  } while (0)

// llm.c's add_bias: a grid-stride loop over the outputs.
__global__ void add_bias(float* out, const float* bias, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] += bias[i % kOC];
}

}  // namespace

int main() {
  using namespace bench;
  const llmc::Matmul m;
  float *d_inp = upload(m.inp), *d_w = upload(m.weight), *d_bias = upload(m.bias), *d_out;
  const size_t n_out = llmc::Matmul::outputs();
  CK(cudaMalloc(&d_out, n_out * 4));
  cublasHandle_t handle;
  CKB(cublasCreate(&handle));
  CKB(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
  const float one = 1.0f, zero = 0.0f;
  auto gemm = [&] {
    CKB(cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, kOC, kBT, kC, &one, d_w, kC, d_inp, kC, &zero,
                    d_out, kOC));
  };
  const int n = static_cast<int>(n_out);
  auto gemm_bias = [&] {
    gemm();
    add_bias<<<(n + 255) / 256, 256>>>(d_out, d_bias, n);
  };
  gemm_bias();
  std::vector<float> out(n_out);
  CK(cudaMemcpy(out.data(), d_out, n_out * 4, cudaMemcpyDeviceToHost));
  const double worst = m.error(out);
  const double bytes = llmc::Matmul::bytes();
  report("cublas_sgemm", median_ms(gemm), bytes, worst);
  report("cublas_sgemm_bias", median_ms(gemm_bias), bytes, worst);
  CKB(cublasDestroy(handle));
  for (float* p : {d_inp, d_w, d_bias, d_out}) CK(cudaFree(p));
  return 0;
}
