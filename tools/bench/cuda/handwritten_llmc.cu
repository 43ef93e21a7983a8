// Hand-written CUDA versions of the llm.c kernels of issue 20, the baseline tools/device-check
// compares the Vx programs beside this file with: encoder.vx, residual.vx, matmul.vx,
// attention.vx, crossentropy.vx, gelu_bf16.vx and residual_bf16.vx. Each kernel is the algorithm
// of its Vx program (the same grid, block, tiles, per-lane work and order of operations), written
// as a CUDA programmer would; the same sizes and data generator; timed as Vx times its launches
// (bench_common.cuh: the median of 50 single launches, CUDA events). Where nvcc's default
// contraction into FMAs changes the arithmetic (the matmul, the attention's dot products), a twin
// with __fmul_rn/__fadd_rn computes Vx's exact operations (`_nofma`; Vx never contracts, spec/
// offload.md); the bf16 kernels also have llm.c's packed form, 8 values per 16-byte load (`_x8`).
// Prints one JSON object per line: {"kernel": ...} and {"values": ...} (results to compare with
// the Vx programs' output).
//
// Build: nvcc -O3 -arch=sm_90 -o handwritten_llmc handwritten_llmc.cu   (tools/device-check)
#include <cuda_bf16.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_common.cuh"
#include "llmc_matmul.cuh"

namespace {

using namespace bench;
using bf16 = __nv_bfloat16;

constexpr int kB = 8, kT = 1024, kC = 768, kNH = 12, kHS = 64, kV = 50257;
constexpr int kBT = kB * kT, kC3 = 3 * kC, kOC = 3 * kC, kN = kBT * kC, kRows = kB * kNH * kT;
static_assert(kBT == llmc::kBT && kC == llmc::kC && kOC == llmc::kOC, "matmul.vx's shape");

// ---- kernels ----------------------------------------------------------------------------------

// encoder.vx: a block per position, its 256 threads over the channels.
__global__ void __launch_bounds__(256)
    encoder(float* out, const int* tokens, const float* wte, const float* wpe) {
  const int bt = blockIdx.x;
  const float* e = wte + static_cast<size_t>(tokens[bt]) * kC;
  const float* p = wpe + static_cast<size_t>(bt % kT) * kC;
  float* o = out + static_cast<size_t>(bt) * kC;
  for (int c = threadIdx.x; c < kC; c += 256) o[c] = e[c] + p[c];
}

// residual.vx: llm.c's residual_forward_kernel1, an element per thread.
__global__ void __launch_bounds__(256) residual(float* out, const float* a, const float* b, int n) {
  const int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

// residual_bf16.vx: the f32 sum of the widened values, rounded once.
__device__ bf16 add_bf16(bf16 a, bf16 b) {
  return __float2bfloat16_rn(__bfloat162float(a) + __bfloat162float(b));
}
__global__ void __launch_bounds__(256)
    residual_bf16(bf16* out, const bf16* a, const bf16* b, int n) {
  const int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n) out[i] = add_bf16(a[i], b[i]);
}

// gelu_bf16.vx: widened, GELU with the tanh instruction (fast_tanh), rounded once.
__device__ bf16 gelu_bf16_one(bf16 v) {
  const float x = __bfloat162float(v);
  const float cube = 0.044715f * x * x * x;
  float t;
  asm("tanh.approx.f32 %0, %1;" : "=f"(t) : "f"(0.7978846f * (x + cube)));
  return __float2bfloat16_rn(0.5f * x * (1.0f + t));
}
__global__ void __launch_bounds__(256) gelu_bf16(bf16* out, const bf16* inp, int n) {
  const int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n) out[i] = gelu_bf16_one(inp[i]);
}

// llm.c's packed form of the two bf16 kernels: 8 values per thread, one 16-byte load each.
struct alignas(16) Pack8 {
  bf16 v[8];
};
__global__ void __launch_bounds__(256)
    residual_bf16_x8(bf16* out, const bf16* a, const bf16* b, int n) {
  const int i = (blockIdx.x * 256 + threadIdx.x) * 8;
  if (i >= n) return;
  const Pack8 pa = *reinterpret_cast<const Pack8*>(a + i);
  const Pack8 pb = *reinterpret_cast<const Pack8*>(b + i);
  Pack8 po;
  for (int k = 0; k < 8; ++k) po.v[k] = add_bf16(pa.v[k], pb.v[k]);
  *reinterpret_cast<Pack8*>(out + i) = po;
}
__global__ void __launch_bounds__(256) gelu_bf16_x8(bf16* out, const bf16* inp, int n) {
  const int i = (blockIdx.x * 256 + threadIdx.x) * 8;
  if (i >= n) return;
  const Pack8 p = *reinterpret_cast<const Pack8*>(inp + i);
  Pack8 po;
  for (int k = 0; k < 8; ++k) po.v[k] = gelu_bf16_one(p.v[k]);
  *reinterpret_cast<Pack8*>(out + i) = po;
}

// a * b + c: one rounding (an FMA, nvcc's default) or Vx's two.
template <bool kFma>
__device__ __forceinline__ float mul_add(float a, float b, float c) {
  return kFma ? fmaf(a, b, c) : __fadd_rn(__fmul_rn(a, b), c);
}

// matmul.vx: out = inp . weight^T + bias. A block of 256 threads computes 128 x 128 outputs;
// thread t keeps rows t / 16 + 16 i and columns t % 16 + 16 j (i, j < 8) in registers. Per step of
// 16 along k, the block copies 16 columns of its 128 rows of inp and of weight into shared memory,
// transposed (k first) and padded to 132 floats a row.
template <bool kFma>
__global__ void __launch_bounds__(256)
    matmul(float* out, const float* inp, const float* weight, const float* bias) {
  __shared__ float a_t[16][132], w_t[16][132];
  const int t = threadIdx.x, ty = t / 16, tx = t % 16;
  const int r0 = blockIdx.y * 128, c0 = blockIdx.x * 128;
  float acc[8][8] = {};
  for (int k0 = 0; k0 < kC; k0 += 16) {
#pragma unroll
    for (int p = 0; p < 8; ++p) {
      const int e = t + 256 * p;
      a_t[e % 16][e / 16] = inp[static_cast<size_t>(r0 + e / 16) * kC + k0 + e % 16];
      w_t[e % 16][e / 16] = weight[static_cast<size_t>(c0 + e / 16) * kC + k0 + e % 16];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; ++k) {
      float a[8], w[8];
#pragma unroll
      for (int i = 0; i < 8; ++i) a[i] = a_t[k][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < 8; ++j) w[j] = w_t[k][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = mul_add<kFma>(a[i], w[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j)
      out[static_cast<size_t>(r0 + ty + 16 * i) * kOC + c0 + tx + 16 * j] =
          acc[i][j] + bias[c0 + tx + 16 * j];
}

// attention.vx, 1: a block per (b, h, t), a thread per key t2 <= t: the dot product / sqrt(64).
template <bool kFma>
__global__ void __launch_bounds__(256) attention_scores(float* preatt, const float* qkv) {
  const int t = blockIdx.x, h = blockIdx.y, b = blockIdx.z;
  const float* q = qkv + static_cast<size_t>(b * kT + t) * kC3 + h * kHS;
  float* row = preatt + (static_cast<size_t>(b * kNH + h) * kT + t) * kT;
  for (int t2 = threadIdx.x; t2 < kT; t2 += 256) {
    if (t2 > t) continue;
    const float* k = qkv + static_cast<size_t>(b * kT + t2) * kC3 + kC + h * kHS;
    float dot = 0.0f;
    for (int i = 0; i < kHS; ++i) dot = mul_add<kFma>(q[i], k[i], dot);
    row[t2] = dot * 0.125f;
  }
}

// attention.vx, 2: a block per row, the row in registers, the masked softmax (llm.c's -10000 and
// zeros past t), __expf.
__global__ void __launch_bounds__(256) attention_softmax(float* att, const float* preatt) {
  __shared__ float scratch[8];
  const int r = blockIdx.x, t = r % kT;
  const float* x = preatt + static_cast<size_t>(r) * kT;
  constexpr int kPer = kT / 256;
  float v[kPer];
  float m = -INFINITY;
  for (int k = 0; k < kPer; ++k) {
    const int c = threadIdx.x + 256 * k;
    v[k] = c <= t ? x[c] : -10000.0f;
    m = fmaxf(m, v[k]);
  }
  const float mx = block_reduce<true>(m, scratch);
  float s = 0.0f;
  for (int k = 0; k < kPer; ++k) {
    const int c = threadIdx.x + 256 * k;
    v[k] = c <= t ? __expf(v[k] - mx) : 0.0f;
    s += v[k];
  }
  const float total = block_reduce<false>(s, scratch);
  const float inv = total == 0.0f ? 0.0f : 1.0f / total;
  float* o = att + static_cast<size_t>(r) * kT;
  for (int k = 0; k < kPer; ++k) o[threadIdx.x + 256 * k] = v[k] * inv;
}

// attention.vx, 3: a block per (b, t), a thread per channel c of head c / 64: the sum over t2 <= t.
template <bool kFma>
__global__ void __launch_bounds__(256)
    attention_value(float* out, const float* att, const float* qkv) {
  const int t = blockIdx.x, b = blockIdx.y;
  for (int c = threadIdx.x; c < kC; c += 256) {
    const float* a = att + (static_cast<size_t>(b * kNH + c / kHS) * kT + t) * kT;
    const float* v = qkv + static_cast<size_t>(b * kT) * kC3 + 2 * kC + c;
    float acc = 0.0f;
    for (int t2 = 0; t2 <= t; ++t2)
      acc = mul_add<kFma>(a[t2], v[static_cast<size_t>(t2) * kC3], acc);
    out[static_cast<size_t>(b * kT + t) * kC + c] = acc;
  }
}

// crossentropy.vx: a block per position; the row's max and sum of exponentials, each thread over
// every 256th logit, then -log(p[target]) = log(sum) - (logit[target] - max).
__global__ void __launch_bounds__(256)
    crossentropy(float* losses, const float* logits, const int* targets) {
  __shared__ float scratch[8];
  const int r = blockIdx.x;
  const float* x = logits + static_cast<size_t>(r) * kV;
  float m = x[threadIdx.x];
  for (int c = threadIdx.x + 256; c < kV; c += 256) m = fmaxf(m, x[c]);
  const float mx = block_reduce<true>(m, scratch);
  float s = 0.0f;
  for (int c = threadIdx.x; c < kV; c += 256) s += __expf(x[c] - mx);
  const float total = block_reduce<false>(s, scratch);
  if (threadIdx.x == 0) losses[r] = logf(total) - (x[targets[r]] - mx);
}

// ---- host side ----------------------------------------------------------------------------------

std::vector<bf16> to_bf16(const std::vector<float>& v) {
  std::vector<bf16> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = __float2bfloat16_rn(v[i]);
  return out;
}

template <class T>
std::vector<T> download(const T* d, size_t n) {
  std::vector<T> h(n);
  CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

double rel(double got, double want) {
  return std::fabs(got - want) / std::max(1e-3, std::fabs(want));
}

// A few results, printed as the Vx program prints them (f32 with 9 digits, f64 sums with 17), so
// that tools/device-check can compare the bits.
void values(const char* kernel, std::initializer_list<double> f32s, const double* f64_sum) {
  std::printf("{\"values\": \"%s\", \"f32\": [", kernel);
  const char* sep = "";
  for (double v : f32s) {
    std::printf("%s%.9g", sep, v);
    sep = ", ";
  }
  if (f64_sum) std::printf("], \"f64\": [%.17g", *f64_sum);
  std::printf("]}\n");
  std::fflush(stdout);
}

double sum_f64(const std::vector<float>& v) {
  double s = 0;
  for (float x : v) s += x;
  return s;
}

void bench_encoder() {
  const std::vector<int> tokens = lcg_ints(kBT, 20001, kV);
  const std::vector<float> wte = lcg(static_cast<size_t>(kV) * kC, 20002, 0.00000011920929f, -1.0f);
  const std::vector<float> wpe = lcg(static_cast<size_t>(kT) * kC, 20003, 0.00000011920929f, -1.0f);
  int* d_tokens = upload(tokens);
  float *d_wte = upload(wte), *d_wpe = upload(wpe), *d_out;
  CK(cudaMalloc(&d_out, static_cast<size_t>(kN) * 4));
  encoder<<<kBT, 256>>>(d_out, d_tokens, d_wte, d_wpe);
  const std::vector<float> out = download(d_out, kN);
  double bad = 0;
  for (int bt = 0; bt < kBT; ++bt)
    for (int c = 0; c < kC; ++c)
      if (out[static_cast<size_t>(bt) * kC + c] != wte[static_cast<size_t>(tokens[bt]) * kC + c] +
                                                       wpe[static_cast<size_t>(bt % kT) * kC + c])
        bad = 1;
  const double sum = sum_f64(out);
  values("encoder", {out[0], out[4097 * kC + 300], out[kN - 1]}, &sum);
  report("encoder_cuda", median_ms([&] { encoder<<<kBT, 256>>>(d_out, d_tokens, d_wte, d_wpe); }),
         3.0 * kN * 4 + kBT * 4, bad);
  CK(cudaFree(d_tokens));
  for (float* p : {d_wte, d_wpe, d_out}) CK(cudaFree(p));
}

void bench_residual() {
  const std::vector<float> a = lcg(kN, 20011, 0.00000011920929f, -1.0f);
  const std::vector<float> b = lcg(kN, 20012, 0.00000011920929f, -1.0f);
  float *d_a = upload(a), *d_b = upload(b), *d_out;
  CK(cudaMalloc(&d_out, static_cast<size_t>(kN) * 4));
  residual<<<kN / 256, 256>>>(d_out, d_a, d_b, kN);
  const std::vector<float> out = download(d_out, kN);
  double bad = 0;
  for (int i = 0; i < kN; ++i) bad = out[i] != a[i] + b[i] ? 1 : bad;
  const double sum = sum_f64(out);
  values("residual", {out[0], out[3000000], out[kN - 1]}, &sum);
  report("residual_cuda", median_ms([&] { residual<<<kN / 256, 256>>>(d_out, d_a, d_b, kN); }),
         3.0 * kN * 4, bad);
  for (float* p : {d_a, d_b, d_out}) CK(cudaFree(p));
}

void bench_bf16() {
  const std::vector<bf16> a = to_bf16(lcg(kN, 20021, 0.00000011920929f, -1.0f));
  const std::vector<bf16> b = to_bf16(lcg(kN, 20022, 0.00000011920929f, -1.0f));
  const std::vector<bf16> g = to_bf16(lcg(kN, 777, 0.00000047683716f, -4.0f));
  bf16 *d_a = upload(a), *d_b = upload(b), *d_g = upload(g), *d_out;
  CK(cudaMalloc(&d_out, static_cast<size_t>(kN) * 2));
  const double bytes3 = 3.0 * kN * 2, bytes2 = 2.0 * kN * 2;
  auto check_residual = [&](const char* name) {
    const std::vector<bf16> out = download(d_out, kN);
    double bad = 0, sum = 0;
    for (int i = 0; i < kN; ++i) {
      const float want =
          __bfloat162float(__float2bfloat16_rn(__bfloat162float(a[i]) + __bfloat162float(b[i])));
      bad = __bfloat162float(out[i]) != want ? 1 : bad;
      sum += __bfloat162float(out[i]);
    }
    values(
        name,
        {__bfloat162float(out[0]), __bfloat162float(out[3000000]), __bfloat162float(out[kN - 1])},
        &sum);
    return bad;
  };
  auto check_gelu = [&](const char* name) {
    const std::vector<bf16> out = download(d_out, kN);
    double worst = 0;
    for (int i = 0; i < kN; i += 7) {
      const double x = __bfloat162float(g[i]);
      const double ref = 0.5 * x * (1.0 + std::tanh(0.7978846 * (x + 0.044715 * x * x * x)));
      worst = std::max(worst, rel(__bfloat162float(out[i]), ref));
    }
    values(
        name,
        {__bfloat162float(out[0]), __bfloat162float(out[3000000]), __bfloat162float(out[kN - 1])},
        nullptr);
    return worst;
  };
  residual_bf16<<<kN / 256, 256>>>(d_out, d_a, d_b, kN);
  double err = check_residual("residual_bf16");
  report("residual_bf16_cuda",
         median_ms([&] { residual_bf16<<<kN / 256, 256>>>(d_out, d_a, d_b, kN); }), bytes3, err);
  residual_bf16_x8<<<kN / 2048, 256>>>(d_out, d_a, d_b, kN);
  err = check_residual("residual_bf16_x8");
  report("residual_bf16_x8_cuda",
         median_ms([&] { residual_bf16_x8<<<kN / 2048, 256>>>(d_out, d_a, d_b, kN); }), bytes3,
         err);
  gelu_bf16<<<kN / 256, 256>>>(d_out, d_g, kN);
  err = check_gelu("gelu_bf16");
  report("gelu_bf16_cuda", median_ms([&] { gelu_bf16<<<kN / 256, 256>>>(d_out, d_g, kN); }), bytes2,
         err);
  gelu_bf16_x8<<<kN / 2048, 256>>>(d_out, d_g, kN);
  err = check_gelu("gelu_bf16_x8");
  report("gelu_bf16_x8_cuda", median_ms([&] { gelu_bf16_x8<<<kN / 2048, 256>>>(d_out, d_g, kN); }),
         bytes2, err);
  for (bf16* p : {d_a, d_b, d_g, d_out}) CK(cudaFree(p));
}

void bench_matmul() {
  const llmc::Matmul m;
  float *d_inp = upload(m.inp), *d_w = upload(m.weight), *d_bias = upload(m.bias), *d_out;
  const size_t n_out = llmc::Matmul::outputs();
  CK(cudaMalloc(&d_out, n_out * 4));
  const dim3 grid(kOC / 128, kBT / 128);
  auto check = [&](const char* name) {
    const std::vector<float> out = download(d_out, n_out);
    const double sum = sum_f64(out);
    values(name, {out[0], out[4097 * kOC + 1000], out[n_out - 1], out[5 * kOC + 131]}, &sum);
    return m.error(out);
  };
  matmul<false><<<grid, 256>>>(d_out, d_inp, d_w, d_bias);
  double err = check("matmul_nofma");
  report("matmul_nofma_cuda",
         median_ms([&] { matmul<false><<<grid, 256>>>(d_out, d_inp, d_w, d_bias); }),
         llmc::Matmul::bytes(), err);
  matmul<true><<<grid, 256>>>(d_out, d_inp, d_w, d_bias);
  err = check("matmul_fma");
  report("matmul_cuda", median_ms([&] { matmul<true><<<grid, 256>>>(d_out, d_inp, d_w, d_bias); }),
         llmc::Matmul::bytes(), err);
  for (float* p : {d_inp, d_w, d_bias, d_out}) CK(cudaFree(p));
}

void bench_attention() {
  const std::vector<float> qkv =
      lcg(static_cast<size_t>(kBT) * kC3, 20041, 0.00000011920929f, -1.0f);
  float *d_qkv = upload(qkv), *d_preatt, *d_att, *d_out;
  const size_t n_att = static_cast<size_t>(kRows) * kT;
  CK(cudaMalloc(&d_preatt, n_att * 4));
  CK(cudaMalloc(&d_att, n_att * 4));
  CK(cudaMalloc(&d_out, static_cast<size_t>(kN) * 4));
  CK(cudaMemset(d_preatt, 0, n_att * 4));
  const dim3 g_scores(kT, kNH, kB), g_value(kT, kB);
  // A CPU reference of a few outputs: out[bt][c] from the row of (b, c / 64, t), in f64.
  auto check = [&](const char* name) {
    const std::vector<float> out = download(d_out, kN);
    double worst = 0;
    for (int bt = 0; bt < kBT; bt += 1237) {
      const int b = bt / kT, t = bt % kT;
      for (int h = 0; h < kNH; h += 5) {
        std::vector<double> p(t + 1);
        double mx = -1e30, s = 0;
        for (int t2 = 0; t2 <= t; ++t2) {
          double d = 0;
          for (int i = 0; i < kHS; ++i)
            d += static_cast<double>(qkv[static_cast<size_t>(bt) * kC3 + h * kHS + i]) *
                 qkv[static_cast<size_t>(b * kT + t2) * kC3 + kC + h * kHS + i];
          p[t2] = d * 0.125;
          mx = std::max(mx, p[t2]);
        }
        for (double& x : p) s += (x = std::exp(x - mx));
        for (int i = 0; i < kHS; i += 9) {
          double ref = 0;
          for (int t2 = 0; t2 <= t; ++t2)
            ref += p[t2] / s * qkv[static_cast<size_t>(b * kT + t2) * kC3 + 2 * kC + h * kHS + i];
          worst = std::max(worst, std::fabs(out[static_cast<size_t>(bt) * kC + h * kHS + i] - ref));
        }
      }
    }
    values(name, {out[0], out[5000 * kC + 100], out[kN - 1]}, nullptr);
    return worst;  // absolute: the outputs are averages of values in [-1, 1)
  };
  for (bool fma : {false, true}) {
    auto scores = [&] {
      if (fma)
        attention_scores<true><<<g_scores, 256>>>(d_preatt, d_qkv);
      else
        attention_scores<false><<<g_scores, 256>>>(d_preatt, d_qkv);
    };
    auto softmax = [&] { attention_softmax<<<kRows, 256>>>(d_att, d_preatt); };
    auto value = [&] {
      if (fma)
        attention_value<true><<<g_value, 256>>>(d_out, d_att, d_qkv);
      else
        attention_value<false><<<g_value, 256>>>(d_out, d_att, d_qkv);
    };
    scores();
    softmax();
    value();
    const double err = check(fma ? "attention_fma" : "attention_nofma");
    const std::string suffix = fma ? "_cuda" : "_nofma_cuda";
    report(("attention_scores" + suffix).c_str(), median_ms(scores),
           n_att * 4.0 + kBT * kC3 * 4.0 * 2 / 3, err);
    report(("attention_softmax" + suffix).c_str(), median_ms(softmax), n_att * 8.0, err);
    report(("attention_value" + suffix).c_str(), median_ms(value), n_att * 4.0 + kN * 8.0, err);
  }
  for (float* p : {d_qkv, d_preatt, d_att, d_out}) CK(cudaFree(p));
}

void bench_crossentropy() {
  const size_t n = static_cast<size_t>(kBT) * kV;
  const std::vector<float> logits = lcg(n, 20051, 0.00000095367432f, -8.0f);
  const std::vector<int> targets = lcg_ints(kBT, 20052, kV);
  float *d_logits = upload(logits), *d_losses;
  int* d_targets = upload(targets);
  CK(cudaMalloc(&d_losses, kBT * 4));
  crossentropy<<<kBT, 256>>>(d_losses, d_logits, d_targets);
  const std::vector<float> losses = download(d_losses, kBT);
  double worst = 0;
  for (int r = 0; r < kBT; r += 97) {
    const float* x = logits.data() + static_cast<size_t>(r) * kV;
    double mx = -1e30, s = 0;
    for (int c = 0; c < kV; ++c) mx = std::max(mx, static_cast<double>(x[c]));
    for (int c = 0; c < kV; ++c) s += std::exp(x[c] - mx);
    worst = std::max(worst, rel(losses[r], std::log(s) - (x[targets[r]] - mx)));
  }
  const double sum = sum_f64(losses);
  const double mean = sum / kBT;
  values("crossentropy", {losses[0], losses[4096], losses[kBT - 1], mean}, nullptr);
  report("crossentropy_cuda",
         median_ms([&] { crossentropy<<<kBT, 256>>>(d_losses, d_logits, d_targets); }),
         n * 4.0 + kBT * 8.0, worst);
  CK(cudaFree(d_targets));
  for (float* p : {d_logits, d_losses}) CK(cudaFree(p));
}

}  // namespace

int main(int argc, char** argv) {
  // Optional: the names of the parts to run (encoder residual bf16 matmul attention crossentropy).
  auto wanted = [&](const char* part) {
    if (argc < 2) return true;
    for (int i = 1; i < argc; ++i)
      if (std::string(argv[i]) == part) return true;
    return false;
  };
  if (wanted("encoder")) bench_encoder();
  if (wanted("residual")) bench_residual();
  if (wanted("bf16")) bench_bf16();
  if (wanted("matmul")) bench_matmul();
  if (wanted("attention")) bench_attention();
  if (wanted("crossentropy")) bench_crossentropy();
  return 0;
}
