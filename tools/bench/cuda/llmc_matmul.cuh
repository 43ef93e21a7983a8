// matmul.vx's problem, shared by its hand-written kernels (handwritten_llmc.cu) and cuBLAS
// (cublas_sgemm.cu): the shape of GPT-2's qkv projection, the program's data, and the check of a
// result against an f64 reference on a grid of samples.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "bench_common.cuh"

namespace llmc {

constexpr int kBT = 8192, kC = 768,
              kOC = 2304;  // out (kBT x kOC) = inp (kBT x kC) . weight^T + bias

struct Matmul {
  std::vector<float> inp =
      bench::lcg(static_cast<size_t>(kBT) * kC, 20031, 0.00000011920929f, -1.0f);
  std::vector<float> weight =
      bench::lcg(static_cast<size_t>(kOC) * kC, 20032, 0.000000059604645f, -0.5f);
  std::vector<float> bias = bench::lcg(kOC, 20033, 0.000000059604645f, -0.5f);

  static constexpr size_t outputs() { return static_cast<size_t>(kBT) * kOC; }
  // The bytes a launch must move at least: both inputs read once, the output written once.
  static constexpr double bytes() {
    return (static_cast<double>(kBT) * kC + kOC * kC + outputs() + kOC) * 4;
  }

  // The largest relative error of `out` over every 331st row and 37th column.
  double error(const std::vector<float>& out) const {
    double worst = 0;
    for (int r = 0; r < kBT; r += 331)
      for (int o = 0; o < kOC; o += 37) {
        double ref = bias[o];
        for (int k = 0; k < kC; ++k)
          ref += static_cast<double>(inp[static_cast<size_t>(r) * kC + k]) *
                 weight[static_cast<size_t>(o) * kC + k];
        const double got = out[static_cast<size_t>(r) * kOC + o];
        worst = std::max(worst, std::fabs(got - ref) / std::max(1e-3, std::fabs(ref)));
      }
    return worst;
  }
};

}  // namespace llmc
