// CI test of src/numeric/vx_math.h against MPFR (spec/math.md): one million f32 inputs per
// function spread over every bit pattern, every special value, pow on a million pairs and its
// C99 special cases, f64 faithfulness on samples, and the integer-rounding functions.
// The exhaustive check is tools/mathcheck.
#include <doctest/doctest.h>
#include <mpfr.h>

#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "src/numeric/vx_math.h"
#include "tools/mathcheck/mpfr32.hpp"

namespace {

struct Unary {
  const char* name;
  float (*f32)(float);
  double (*f64)(double);
  MpfrFn mpfr;
};
const Unary kUnary[] = {
// numeric/math.def's exact rows
#define VX_MATH_EXACT(Id, name, f32, f64, libm, mpfr) \
  {name, f32, f64, [](mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t r) -> int { return mpfr(y, x, r); }},
#include "src/numeric/math.def"
#undef VX_MATH_EXACT
};

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint64_t bits64(double f) {
  uint64_t u;
  std::memcpy(&u, &f, 8);
  return u;
}
bool same(float a, float b) { return (a != a && b != b) || bits(a) == bits(b); }
bool same64(double a, double b) { return (a != a && b != b) || bits64(a) == bits64(b); }

struct Failures {
  std::atomic<uint64_t> count{0};
  std::vector<std::string> examples;
  std::mutex mu;
  void add(const std::string& s) {
    ++count;
    std::lock_guard<std::mutex> g(mu);
    if (examples.size() < 8) examples.push_back(s);
  }
};

template <class Fn>
void on_two_threads(uint64_t n, Fn fn) {  // fn(i) for i in [0, n)
  std::thread t([&] {
    for (uint64_t i = 0; i < n; i += 2) fn(i);
  });
  for (uint64_t i = 1; i < n; i += 2) fn(i);
  t.join();
}

std::vector<float> special_f32() {
  std::vector<float> v = {0.0f,
                          INFINITY,
                          NAN,
                          FLT_MIN,
                          FLT_MAX,
                          0x1p-149f,
                          0x1.fffffcp-127f,
                          1.0f,
                          0.5f,
                          2.0f,
                          3.0f,
                          10.0f,
                          0x1.000002p0f,
                          0x1.fffffep-1f,
                          88.72283f,
                          88.72284f,
                          88.7228394f,
                          89.0f,
                          -87.33654f,
                          -103.972f,
                          -103.97208f,
                          -104.0f,
                          128.0f,
                          0x1.fffffep6f,
                          -126.0f,
                          -149.0f,
                          -150.0f,
                          -151.0f,
                          -149.5f,
                          9.0f,
                          9.01f,
                          9.02f,
                          9.5f,
                          0x1p-12f,
                          0x1.fffffep-13f,
                          3.14159274f,
                          1.57079637f,
                          6.28318548f,
                          0x1p12f,
                          0x1.fffffep11f,
                          1e20f,
                          0x1.921fb6p+0f,
                          0x1.921fb6p+1f,
                          1e38f,
                          0x1p127f,
                          0x1p-126f,
                          0.75f,
                          1.5f,
                          0x1.6a09e6p0f,
                          0x1.6a09e6p-1f};
  size_t n = v.size();
  for (size_t i = 0; i < n; ++i) v.push_back(-v[i]);
  for (int e = -149; e <= 127; ++e) {
    v.push_back(std::ldexp(1.0f, e));
    v.push_back(-std::ldexp(1.0f, e));
  }
  for (int k = -200; k <= 200; ++k) {  // floats nearest multiples of pi/32 and integers
    float m = (float)(k * 3.14159265358979323846 / 32);
    v.push_back(m);
    v.push_back(std::nextafter(m, INFINITY));
    v.push_back((float)k);
  }
  return v;
}

}  // namespace

TEST_CASE("f32 functions are correctly rounded on a million inputs each and every special value") {
  const uint64_t step = 4295;  // 2^32 / step ~ 10^6 bit patterns, both signs, all exponents
  const uint64_t n = ((uint64_t)1 << 32) / step;
  const std::vector<float> specials = special_f32();
  for (const Unary& f : kUnary) {
    Failures fails;
    auto check = [&](Mpfr32& m, float x) {
      float got = f.f32(x), want = m.unary(f.mpfr, x);
      if (!same(got, want)) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s(%a) = %a, want %a", f.name, x, got, want);
        fails.add(buf);
      }
    };
    std::thread t([&] {
      Mpfr32 m;
      for (uint64_t i = 0; i < n; i += 2) check(m, from_bits((uint32_t)(i * step + 12345)));
    });
    {
      Mpfr32 m;
      for (uint64_t i = 1; i < n; i += 2) check(m, from_bits((uint32_t)(i * step + 12345)));
      for (float x : specials) check(m, x);
    }
    t.join();
    INFO(f.name);
    for (auto& s : fails.examples) MESSAGE(s);
    CHECK(fails.count == 0);
  }
}

TEST_CASE("pow is correctly rounded on a million pairs, exact cases and midpoints included") {
  Failures fails;
  const uint64_t n = 1000000;
  auto one = [&](Mpfr32& m, float x, float y) {
    float got = vx_pow_f32(x, y), want = m.pow(x, y);
    if (!same(got, want)) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "pow(%a, %a) = %a, want %a", x, y, got, want);
      fails.add(buf);
    }
  };
  auto run = [&](uint64_t start) {
    Mpfr32 m;
    std::mt19937_64 rng(start + 99);
    for (uint64_t i = start; i < n; i += 2) {
      uint64_t r = rng();
      float x, y;
      if (i % 3 == 0) {  // any x, y such that the result is in range
        x = from_bits((uint32_t)(r % 0x7f800000u));
        double l = std::fabs(std::log2((double)x));
        y = (float)(((double)(rng() >> 11) * 0x1p-52 - 1.0) * (l > 0 ? 160.0 / l : 1e30));
      } else if (i % 3 == 1) {  // any bit patterns
        x = from_bits((uint32_t)r);
        y = from_bits((uint32_t)(r >> 32));
      } else {  // x with few bits, small integer y: exact results and midpoints
        int sh = (int)((r >> 30) % 24);
        x = std::ldexp((float)(((uint32_t)r & 0xffffffu) >> sh | 1u), (int)((r >> 24) % 40) - 20);
        y = (float)((int)((r >> 40) % 48) - 12);
        if (r >> 63) x = -x;
      }
      one(m, x, y);
    }
  };
  std::thread t(run, 0);
  run(1);
  t.join();
  Mpfr32 m;
  const float sv[] = {
      0.0f,           -0.0f,   1.0f,  -1.0f,  INFINITY,  -INFINITY, NAN,     2.0f,   -2.0f,
      0.5f,           -0.5f,   3.0f,  -3.0f,  0x1p-149f, FLT_MAX,   1e10f,   -1e10f, 0x1.000002p0f,
      0x1.fffffep-1f, 4097.0f, 0.25f, 127.5f, 128.0f,    -149.0f,   -150.0f, 1.5f};
  for (float x : sv)
    for (float y : sv) one(m, x, y);
  // Exact results of non-integer powers (t^2)^(k/2) and (t^4)^(k/4), midpoints among them.
  const float halves[] = {0.5f, 1.5f, -1.5f, 2.5f, -0.5f, 3.5f};
  const float quarters[] = {0.25f, 0.75f, 1.25f, -0.75f, 1.75f};
  for (int t = 3; t < 4096; t += 2) {
    double t2 = (double)t * t, t4 = t2 * t2;
    for (int s = -24; s <= 24; s += 12) {
      if (t2 < 0x1p24)
        for (float y : halves) one(m, std::ldexp((float)t2, s), y);
      if (t4 < 0x1p24)
        for (float y : quarters) one(m, std::ldexp((float)t4, s), y);
    }
  }
  for (auto& s : fails.examples) MESSAGE(s);
  CHECK(fails.count == 0);
}

TEST_CASE("f64 functions are faithful on samples") {
  for (const Unary& f : kUnary) {
    Failures fails;
    auto run = [&](uint64_t start) {
      mpfr_set_emin(mpfr_get_emin_min());  // Mpfr32 narrowed them on this thread
      mpfr_set_emax(mpfr_get_emax_max());
      mpfr_t x, y;
      mpfr_inits2(200, x, y, (mpfr_ptr)0);
      std::mt19937_64 rng(start + 7);
      for (uint64_t i = start; i < 100000; i += 2) {
        uint64_t r = rng();
        double in;
        if (i & 2)
          std::memcpy(&in, &r, 8);
        else
          in =
              std::ldexp((double)(r >> 11) * 0x1p-53, (int)(r % 40) - 20) * ((r >> 6) & 1 ? -1 : 1);
        if (std::isnan(in)) continue;
        double got = f.f64(in);
        mpfr_set_d(x, in, MPFR_RNDN);
        f.mpfr(y, x, MPFR_RNDN);
        double lo = mpfr_get_d(y, MPFR_RNDD), hi = mpfr_get_d(y, MPFR_RNDU);
        bool ok = mpfr_nan_p(y) ? got != got : (same64(got, lo) || same64(got, hi));
        if (!ok) {
          char buf[200];
          std::snprintf(buf, sizeof buf, "%s_f64(%a) = %a, want %a or %a", f.name, in, got, lo, hi);
          fails.add(buf);
        }
      }
      mpfr_clears(x, y, (mpfr_ptr)0);
    };
    std::thread t(run, 0);
    run(1);
    t.join();
    INFO(f.name);
    for (auto& s : fails.examples) MESSAGE(s);
    CHECK(fails.count == 0);
  }
  CHECK(vx_pow_f64(2.0, 0.5) == std::sqrt(2.0));
  CHECK(vx_pow_f64(-2.0, 3.0) == -8.0);
  CHECK(std::isnan(vx_pow_f64(-2.0, 0.5)));
  CHECK(vx_pow_f64(0.0, -1.0) == INFINITY);
  CHECK(vx_pow_f64(-0.0, -1.0) == -INFINITY);
  CHECK(vx_pow_f64(NAN, 0.0) == 1.0);
  CHECK(vx_pow_f64(1.0, NAN) == 1.0);
  CHECK(vx_pow_f64(-1.0, INFINITY) == 1.0);
  CHECK(vx_pow_f64(10.0, 308.0) == 1e308);
  CHECK(vx_exp_f64(-745.0) == 0x1p-1074 * 1.0);
}

TEST_CASE("floor ceil round trunc abs match the C library bit for bit") {
  std::mt19937_64 rng(5);
  auto check32 = [](float x) {
    CHECK(same(vx_floor_f32(x), std::floor(x)));
    CHECK(same(vx_ceil_f32(x), std::ceil(x)));
    CHECK(same(vx_round_f32(x), std::round(x)));  // C round: half away from zero, as Rust
    CHECK(same(vx_trunc_f32(x), std::trunc(x)));
    CHECK(same(vx_abs_f32(x), std::fabs(x)));
  };
  auto check64 = [](double x) {
    CHECK(same64(vx_floor_f64(x), std::floor(x)));
    CHECK(same64(vx_ceil_f64(x), std::ceil(x)));
    CHECK(same64(vx_round_f64(x), std::round(x)));
    CHECK(same64(vx_trunc_f64(x), std::trunc(x)));
    CHECK(same64(vx_abs_f64(x), std::fabs(x)));
  };
  for (float x : special_f32()) {
    check32(x);
    check32(x + 0.5f);
    check64(x);
    check64((double)x + 0.5);
  }
  const float halfs[] = {0.49999997f, -0.49999997f, 0.5f,       -0.5f,
                         1.5f,        -2.5f,        8388607.5f, 8388609.0f};
  for (float x : halfs) check32(x);
  check64(0.49999999999999994);
  check64(-0.49999999999999994);
  check64(4503599627370495.5);
  for (int i = 0; i < 200000; ++i) {
    uint64_t r = rng();
    check32(from_bits((uint32_t)r));
    check32(std::ldexp((float)(r >> 40), -(int)(r % 24)));
    double d;
    std::memcpy(&d, &r, 8);
    check64(d);
    check64(std::ldexp((double)(r >> 11), -(int)(r % 53)));
  }
}

TEST_CASE("fast_exp and fast_tanh on the host: the exact value of the instruction's input") {
  // spec/math.md: fast_exp(x) = 2^(x * log2(e) rounded to float), correctly rounded on the host;
  // the GPU's ex2.approx.f32 adds at most 2 ulp. fast_tanh(x) = tanh(x) on the host.
  for (float x : special_f32()) {
    CHECK(same(vx_fast_exp_f32(x), vx_exp2_f32(x * 0x1.715476p+0f)));
    CHECK(same(vx_fast_tanh_f32(x), vx_tanh_f32(x)));
  }
  // Relative to exp: the float log2(e) and the rounding of x * log2(e) cost at most |x| * 2^-23.5,
  // the final rounding 2^-24.
  for (float x = -87.0f; x < 88.0f; x += 0.37f) {
    double e = std::exp((double)x), f = vx_fast_exp_f32(x);
    CHECK(std::fabs(f - e) / e <= std::fabs(x) * 0x1.6a09e6p-24 + 0x1p-24);
  }
}
