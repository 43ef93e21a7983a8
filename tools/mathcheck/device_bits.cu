// device_bits: runs vx_math.h on the GPU and compares every result bit for bit with the host
// (DESIGN 3.4: the same bits on the CPU and the GPU). Every one of the 2^32 f32 inputs of each
// unary function of numeric/math.def (fn_table.h; with `--stride S`, every S-th bit pattern: S odd
// spreads them over all exponents;
// `--only sin,cos` for some functions alone);
// 2^26 random pairs for pow and 2^26 random inputs per f64 function. For
// the fast ones (fast_exp, fast_tanh), where the GPU uses approximate instructions, it prints the
// largest error of the GPU against the host's exact value instead (spec/math.md section 4). Build
// and run: tools/mathcheck/run_device (needs nvcc and a GPU).
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tools/mathcheck/fn_table.h"

extern "C" float vxm_host_f32(int fn, float x);
extern "C" float vxm_host_pow_f32(float x, float y);
extern "C" double vxm_host_f64(int fn, double x);
extern "C" double vxm_host_pow_f64(double x, double y);

__global__ void k_f32(int fn, uint64_t base, uint32_t stride, uint32_t n, float* out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = vxm_f32(fn, __uint_as_float((uint32_t)((base + i) * stride)));
}
__global__ void k_f64(int fn, const double* in, uint32_t n, double* out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = vxm_f64(fn, in[i]);
}
__global__ void k_pow32(const float* a, const float* b, uint32_t n, float* out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = vx_pow_f32(a[i], b[i]);
}
__global__ void k_pow64(const double* a, const double* b, uint32_t n, double* out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = vx_pow_f64(a[i], b[i]);
}

namespace {

#define CK(e)                                                         \
  do {                                                                \
    cudaError_t err_ = (e);                                           \
    if (err_ != cudaSuccess) {                                        \
      std::fprintf(stderr, "%s: %s\n", #e, cudaGetErrorString(err_)); \
      std::exit(3);                                                   \
    }                                                                 \
  } while (0)

uint32_t b32(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
uint64_t b64(double f) {
  uint64_t u;
  std::memcpy(&u, &f, 8);
  return u;
}
bool same32(float a, float b) { return (a != a && b != b) || b32(a) == b32(b); }
bool same64(double a, double b) { return (a != a && b != b) || b64(a) == b64(b); }

template <class Fn>
void parallel_for(uint32_t n, Fn fn) {
  unsigned t = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned k = 0; k < t; ++k)
    pool.emplace_back([&, k] {
      for (uint32_t i = k; i < n; i += t) fn(i);
    });
  for (auto& th : pool) th.join();
}

}  // namespace

int main(int argc, char** argv) {
  uint32_t stride = 1;
  std::string
      only;  // --only exp,sin: those unary functions alone (the f64 and pow checks always run)
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--stride")
      stride = (uint32_t)std::strtoul(argv[i + 1], nullptr, 10);
    else if (std::string(argv[i]) == "--only")
      only = "," + std::string(argv[i + 1]) + ",";
  }
  if (stride == 0) stride = 1;
  const uint64_t inputs = ((1ull << 32) + stride - 1) / stride;  // inputs j * stride, j < inputs
  const uint32_t chunk = 1u << 26;
  float* d_out;
  std::vector<float> out(chunk);
  CK(cudaMalloc(&d_out, chunk * sizeof(float)));
  uint64_t total_diff = 0;
  std::printf("%-10s %14s %12s %s\n", "fn", "inputs", "differ", "note");
  for (int fn = 0; fn < VXM_COUNT; ++fn) {
    if (!only.empty() && only.find("," + std::string(vxm_names[fn]) + ",") == std::string::npos)
      continue;
    std::atomic<uint64_t> differ{0};
    std::atomic<uint64_t> worst_ulp{0};
    uint32_t first_bad = 0;
    bool have_bad = false;
    for (uint64_t base = 0; base < inputs; base += chunk) {
      const uint32_t count = (uint32_t)std::min<uint64_t>(chunk, inputs - base);
      k_f32<<<(count + 255) / 256, 256>>>(fn, base, stride, count, d_out);
      CK(cudaGetLastError());
      CK(cudaMemcpy(out.data(), d_out, count * sizeof(float), cudaMemcpyDeviceToHost));
      parallel_for(count, [&](uint32_t i) {
        uint32_t u = (uint32_t)((base + i) * stride);
        float x;
        std::memcpy(&x, &u, 4);
        float h = vxm_host_f32(fn, x), g = out[i];
        if (same32(h, g)) return;
        if (fn >= VXM_FIRST_FAST) {  // approximate on the GPU: distance in ulps (same sign, finite)
          uint64_t d = (uint64_t)std::llabs((long long)b32(h) - (long long)b32(g));
          uint64_t w = worst_ulp.load();
          while (d > w && !worst_ulp.compare_exchange_weak(w, d)) {
          }
        } else {
          ++differ;
        }
      });
      if (!have_bad && differ.load()) {
        for (uint32_t i = 0; i < count; ++i) {
          uint32_t u = (uint32_t)((base + i) * stride);
          float x;
          std::memcpy(&x, &u, 4);
          if (!same32(vxm_host_f32(fn, x), out[i])) {
            first_bad = u;
            have_bad = true;
            break;
          }
        }
      }
    }
    if (fn >= VXM_FIRST_FAST) {
      std::printf("%-10s %14llu %12s largest |gpu - host| = %llu ulp\n", vxm_names[fn],
                  (unsigned long long)inputs, "-", (unsigned long long)worst_ulp.load());
    } else {
      float x;
      std::memcpy(&x, &first_bad, 4);
      std::printf("%-10s %14llu %12llu", vxm_names[fn], (unsigned long long)inputs,
                  (unsigned long long)differ.load());
      if (have_bad) std::printf(" first: x=%a host %a", x, vxm_host_f32(fn, x));
      std::printf("\n");
      total_diff += differ;
    }
    std::fflush(stdout);
  }
  CK(cudaFree(d_out));

  // f64 functions and pow: random inputs (any bit pattern, and moderate values).
  const uint32_t n = 1u << 26;
  std::mt19937_64 rng(2024);
  std::vector<double> a(n), b(n), o(n);
  double *da, *db, *dout;
  CK(cudaMalloc(&da, n * 8));
  CK(cudaMalloc(&db, n * 8));
  CK(cudaMalloc(&dout, n * 8));
  auto fill = [&] {
    for (uint32_t i = 0; i < n; ++i) {
      uint64_t r = rng();
      if (i & 1)
        std::memcpy(&a[i], &r, 8);
      else
        a[i] =
            std::ldexp((double)(r >> 11) * 0x1p-53, (int)(r % 64) - 32) * ((r >> 7) & 1 ? -1 : 1);
      uint64_t s = rng();
      b[i] = (i & 2) ? std::ldexp((double)(s >> 11) * 0x1p-53, (int)(s % 16) - 4) *
                           ((s >> 7) & 1 ? -1 : 1)
                     : (double)((int)(s % 41) - 20);
    }
  };
  for (int fn = 0; fn < VXM_FIRST_FAST; ++fn) {
    fill();
    CK(cudaMemcpy(da, a.data(), n * 8, cudaMemcpyHostToDevice));
    k_f64<<<n / 256, 256>>>(fn, da, n, dout);
    CK(cudaMemcpy(o.data(), dout, n * 8, cudaMemcpyDeviceToHost));
    std::atomic<uint64_t> differ{0};
    parallel_for(n, [&](uint32_t i) {
      if (!same64(vxm_host_f64(fn, a[i]), o[i])) ++differ;
    });
    std::printf("%-10s %14u %12llu\n", (std::string(vxm_names[fn]) + "_f64").c_str(), n,
                (unsigned long long)differ.load());
    total_diff += differ;
  }
  fill();
  {
    CK(cudaMemcpy(da, a.data(), n * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b.data(), n * 8, cudaMemcpyHostToDevice));
    k_pow64<<<n / 256, 256>>>(da, db, n, dout);
    CK(cudaMemcpy(o.data(), dout, n * 8, cudaMemcpyDeviceToHost));
    std::atomic<uint64_t> differ{0};
    parallel_for(n, [&](uint32_t i) {
      if (!same64(vxm_host_pow_f64(a[i], b[i]), o[i])) ++differ;
    });
    std::printf("%-10s %14u %12llu\n", "pow_f64", n, (unsigned long long)differ.load());
    total_diff += differ;
    std::vector<float> fa(n), fb(n), fo(n);
    for (uint32_t i = 0; i < n; ++i) {
      fa[i] = (float)a[i];
      fb[i] = (float)b[i];
    }
    float *dfa, *dfb, *dfo;
    CK(cudaMalloc(&dfa, n * 4));
    CK(cudaMalloc(&dfb, n * 4));
    CK(cudaMalloc(&dfo, n * 4));
    CK(cudaMemcpy(dfa, fa.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dfb, fb.data(), n * 4, cudaMemcpyHostToDevice));
    k_pow32<<<n / 256, 256>>>(dfa, dfb, n, dfo);
    CK(cudaMemcpy(fo.data(), dfo, n * 4, cudaMemcpyDeviceToHost));
    std::atomic<uint64_t> d32{0};
    parallel_for(n, [&](uint32_t i) {
      if (!same32(vxm_host_pow_f32(fa[i], fb[i]), fo[i])) ++d32;
    });
    std::printf("%-10s %14u %12llu\n", "pow", n, (unsigned long long)d32.load());
    total_diff += d32;
  }
  std::printf("total differing: %llu\n", (unsigned long long)total_diff);
  return total_diff == 0 ? 0 : 1;
}
