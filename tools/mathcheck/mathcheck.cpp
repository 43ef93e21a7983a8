// mathcheck: verifies src/numeric/vx_math.h against MPFR (spec/math.md, "Exactness").
//
// Each unary f32 function is run on every one of the 2^32 inputs (or every step-th one). The
// reference is glibc's double-precision function of (double)x (error < 1 ulp of double); when
// y*(1-2^-48) and y*(1+2^-48) round to the same float, that float is the correctly rounded
// answer. Otherwise the input is near a rounding boundary and MPFR decides. pow is checked on
// random pairs spread over its domain, exact cases and midpoints included; pow_bound and
// sincos_bound check the error bounds of the fast paths of pow and of sin and cos. The f64
// functions are checked for faithfulness on random inputs against MPFR. Prints the count of
// wrong results.
#include <mpfr.h>

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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
  float (*vx)(float);
  double (*ref)(double);  // glibc, double precision
  MpfrFn mpfr;
  double (*vx64)(double);
};

// numeric/math.def's exact rows.
const Unary kUnary[] = {
#define VX_MATH_EXACT(Id, name, f32, f64, libm, mpfr) \
  {name, f32, [](double x) { return std::libm(x); },  \
   [](mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t r) -> int { return mpfr(y, x, r); }, f64},
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

// The correctly rounded float from a double reference with relative error < 2^-48, or
// false when the reference is too close to a rounding boundary to say.
bool quick_ref(double y, float* out) {
  if (y != y) {
    *out = NAN;
    return true;
  }
  if (std::isinf(y)) {
    *out = (float)y;
    return true;
  }
  double e = std::fabs(y) * 0x1p-48;
  float a = (float)(y - e), b = (float)(y + e);
  *out = a;
  return a == b;
}

struct Tally {
  std::atomic<uint64_t> checked{0}, wrong{0}, mpfr_calls{0};
  std::mutex mu;
  std::vector<std::string> examples;
  void report(const std::string& s) {
    std::lock_guard<std::mutex> g(mu);
    if (examples.size() < 10) examples.push_back(s);
  }
};

void check_unary_range(const Unary& f, uint64_t begin, uint64_t end, uint64_t step, Tally* t) {
  Mpfr32 m;
  uint64_t checked = 0, wrong = 0, calls = 0;
  for (uint64_t i = begin; i < end; i += step) {
    float x = from_bits((uint32_t)i);
    float got = f.vx(x), want;
    if (!quick_ref(f.ref((double)x), &want)) {
      want = m.unary(f.mpfr, x);
      ++calls;
    }
    ++checked;
    if (!same(got, want)) {
      ++wrong;
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s(%a) [0x%08x] = %a, want %a", f.name, x, (uint32_t)i, got,
                    want);
      t->report(buf);
    }
  }
  t->checked += checked;
  t->wrong += wrong;
  t->mpfr_calls += calls;
}

template <class Fn>
void parallel(int threads, uint64_t n, Fn fn) {  // fn(begin, end) over [0, n) in chunks
  std::atomic<uint64_t> next{0};
  const uint64_t chunk = 1 << 20;
  std::vector<std::thread> pool;
  for (int k = 0; k < threads; ++k)
    pool.emplace_back([&] {
      for (;;) {
        uint64_t b = next.fetch_add(chunk);
        if (b >= n) return;
        fn(b, std::min(n, b + chunk));
      }
    });
  for (auto& th : pool) th.join();
}

// pow: random pairs. Classes: (a) x any positive float, y chosen so that |y log2 x| <= 160;
// (b) random bit patterns for both; (c) small integer y (exact results and midpoints);
// (d) x near 1 with large y; negative x with integer y in all classes.
void check_pow(uint64_t count, int threads, uint64_t seed, Tally* t) {
  parallel(threads, count, [&](uint64_t b, uint64_t e) {
    Mpfr32 m;
    std::mt19937_64 rng(seed ^ (b * 0x9e3779b97f4a7c15ull));
    uint64_t checked = 0, wrong = 0, calls = 0;
    for (uint64_t i = b; i < e; ++i) {
      uint64_t r = rng();
      float x, y;
      switch (i & 3) {
        case 0: {
          x = from_bits((uint32_t)(r % 0x7f800000u));
          double l = std::fabs(std::log2((double)x));
          double lim = l > 0 ? 160.0 / l : 1e30;
          double u = (double)(rng() >> 11) * 0x1p-53 * 2.0 - 1.0;
          y = (float)(u * lim);
          break;
        }
        case 1:
          x = from_bits((uint32_t)r);
          y = from_bits((uint32_t)(r >> 32));
          break;
        case 2: {
          int n = (int)((r >> 40) % 64) - 16;
          y = (float)n;
          uint32_t mant = (uint32_t)(r & 0xffffff);
          int ex = (int)((r >> 24) % 40) - 20;  // x with few significant bits, so x^n is exact
          int sh = (int)((r >> 30) % 24);
          x = std::ldexp((float)(mant >> sh | 1u), ex);
          if ((r >> 63) & 1) x = -x;
          break;
        }
        default: {
          x = 1.0f + (float)((int)(r % 2001) - 1000) * 0x1p-23f;
          y = from_bits((uint32_t)((r >> 32) & 0x4fffffffu) | (uint32_t)(r >> 63 << 31));
          break;
        }
      }
      if ((i & 7) == 5) x = -x;  // negative bases; integer y in class 2 and large y elsewhere
      float got = vx_pow_f32(x, y), want;
      double yr = std::pow((double)x, (double)y);
      if (!quick_ref(yr, &want)) {
        want = m.pow(x, y);
        ++calls;
      }
      ++checked;
      if (!same(got, want)) {
        ++wrong;
        char buf[200];
        std::snprintf(buf, sizeof buf, "pow(%a, %a) = %a, want %a", x, y, got, want);
        t->report(buf);
      }
    }
    t->checked += checked;
    t->wrong += wrong;
    t->mpfr_calls += calls;
  });
}

// pow_bound: pow's fast path (vx_pow_f32_approx, before its test) against MPFR at 200 bits, on
// pairs aimed at its worst case (x in the two table intervals on either side of 1, where |y| is
// largest; any x besides) with |y log2 x| up to 152. Counts the pairs off by more than the
// stated 244 ulps of the double, and keeps the largest error.
void check_pow_bound(uint64_t count, int threads, uint64_t seed, Tally* t, double* largest) {
  std::mutex mu;
  parallel(threads, count, [&](uint64_t b, uint64_t e) {
    mpfr_t x, y, v, d;
    mpfr_inits2(200, x, y, v, d, (mpfr_ptr)0);
    std::mt19937_64 rng(seed ^ (b * 0x9e3779b97f4a7c15ull));
    uint64_t checked = 0, wrong = 0;
    double most = 0;
    for (uint64_t i = b; i < e; ++i) {
      uint64_t r = rng();
      float xf;
      uint32_t k = (uint32_t)(r >> 20) % 0x20000;  // the two intervals on either side of 1
      if (i % 3 == 0)
        xf = 1.0f + (float)k * 0x1p-23f;
      else if (i % 3 == 1)
        xf = 1.0f - (float)(k + 1) * 0x1p-24f;
      else
        xf = from_bits(0x00800000u + (uint32_t)(r % 0x7f000000u));
      double l = std::log2((double)xf), u = (double)(rng() >> 11) * 0x1p-53;
      if (l == 0) continue;
      float yf = (float)((r & 1 ? 1 - u * 0x1p-10 : u) * 152.0 / l * (r & 2 ? -1 : 1));
      double z, got = vx_pow_f32_approx(xf, yf, &z);
      if (!(z >= -152.0 * 64 && z < 129.0 * 64)) continue;
      mpfr_set_flt(x, xf, MPFR_RNDN);
      mpfr_set_flt(y, yf, MPFR_RNDN);
      mpfr_pow(v, x, y, MPFR_RNDN);
      mpfr_set_d(d, got, MPFR_RNDN);
      mpfr_sub(d, d, v, MPFR_RNDN);  // in ulps of got: 2^(exponent - 53)
      double ulps = std::fabs(std::ldexp(mpfr_get_d(d, MPFR_RNDN), 53 - std::ilogb(got) - 1));
      most = std::max(most, ulps);
      ++checked;
      if (ulps > 244) {
        ++wrong;
        char buf[200];
        std::snprintf(buf, sizeof buf, "pow fast path (%a, %a) = %a, %.1f ulps off", xf, yf, got,
                      ulps);
        t->report(buf);
      }
    }
    mpfr_clears(x, y, v, d, (mpfr_ptr)0);
    t->checked += checked;
    t->wrong += wrong;
    std::lock_guard<std::mutex> g(mu);
    *largest = std::max(*largest, most);
  });
}

// sincos_bound (only when named): the fast path of sin and cos (vx_sincos_f32_approx, before its
// test) against the slow path's double-double evaluation (~2^-100) on every step-th float with
// 2^-12 <= |x| < inf: counts results off by 8 or more of their ulps (the test's bound) and keeps
// the largest error. Where |x| >= 2^12 it also checks the claims behind the bound of
// vx_trig_reduce_f32_big against vx_trig_reduce_big: the same k, an error of r below 2^-94 +
// 2^-103 |r|, and |r| > 2^-29.21 where k is a multiple of 16 (where sin or cos is near 0).
struct SincosBound {
  double most_ulps[2] = {0, 0};      // sin, cos
  double most_err = 0, least_r = 1;  // the error of r over its bound; |r| where 16 divides k
  uint32_t least_r_at = 0;
};
void check_sincos_bound(uint64_t step, int threads, Tally* t, SincosBound* out) {
  std::mutex mu;
  const double least_r_bound = std::exp2(-29.21);
  parallel(threads, (uint64_t)1 << 32, [&](uint64_t b, uint64_t e) {
    SincosBound sb;
    uint64_t checked = 0, wrong = 0;
    for (uint64_t i = (b + step - 1) / step * step; i < e; i += step) {
      uint32_t au = (uint32_t)i & 0x7fffffffu;
      if (au < 0x39800000u || au >= 0x7f800000u) continue;
      float x = from_bits((uint32_t)i);
      for (int q = 0; q < 2; ++q) {
        double y = vx_sincos_f32_approx(x, 16 * q);
        vx_dd r;
        int k = vx_trig_reduce((double)x, &r) + 16 * q;
        vx_dd ref = vx_sin_kernel_dd(k, r);
        double ulps = std::fabs((y - ref.hi) - ref.lo) / std::ldexp(1.0, std::ilogb(y) - 52);
        sb.most_ulps[q] = std::max(sb.most_ulps[q], ulps);
        ++checked;
        if (ulps >= 8) {
          ++wrong;
          char buf[160];
          std::snprintf(buf, sizeof buf, "%s fast path (%a) = %a, %.2f ulps off", q ? "cos" : "sin",
                        x, y, ulps);
          t->report(buf);
        }
      }
      if (au < 0x45800000u) continue;
      vx_dd rf, rb;
      int kf = vx_trig_reduce_f32_big(x, &rf), kb = vx_trig_reduce_big((double)x, &rb);
      vx_dd diff = vx_dd_add(rb, vx_dd_neg(rf));
      double err = std::fabs(diff.hi) / (0x1p-94 + 0x1p-103 * std::fabs(rb.hi));
      sb.most_err = std::max(sb.most_err, err);
      bool near0 = (kb & 15) == 0;
      if (near0 && std::fabs(rb.hi) < sb.least_r) {
        sb.least_r = std::fabs(rb.hi);
        sb.least_r_at = (uint32_t)i;
      }
      if (((kf - kb) & 63) != 0 || !(err < 1) || (near0 && !(std::fabs(rb.hi) > least_r_bound))) {
        ++wrong;
        char buf[160];
        std::snprintf(buf, sizeof buf, "reduction of %a: k %d (want %d), r %a (want %a)", x, kf, kb,
                      rf.hi + rf.lo, rb.hi);
        t->report(buf);
      }
    }
    t->checked += checked;
    t->wrong += wrong;
    std::lock_guard<std::mutex> g(mu);
    for (int q = 0; q < 2; ++q) out->most_ulps[q] = std::max(out->most_ulps[q], sb.most_ulps[q]);
    out->most_err = std::max(out->most_err, sb.most_err);
    if (sb.least_r < out->least_r) {
      out->least_r = sb.least_r;
      out->least_r_at = sb.least_r_at;
    }
  });
}

// f64: faithful, i.e. one of the two doubles around the exact value (MPFR, 200 bits).
void check_f64(const Unary& f, uint64_t count, int threads, uint64_t seed, Tally* t) {
  parallel(threads, count, [&](uint64_t b, uint64_t e) {
    mpfr_t x, y, lo, hi;
    mpfr_inits2(200, x, y, (mpfr_ptr)0);
    mpfr_inits2(53, lo, hi, (mpfr_ptr)0);
    std::mt19937_64 rng(seed ^ (b * 0x9e3779b97f4a7c15ull));
    uint64_t checked = 0, wrong = 0;
    for (uint64_t i = b; i < e; ++i) {
      uint64_t r = rng();
      double in;
      if (i & 1)
        std::memcpy(&in, &r, 8);  // any bit pattern
      else
        in = std::ldexp((double)(r >> 11) * 0x1p-53, (int)((r & 63) % 24) - 12) *
             ((r >> 6) & 1 ? -1 : 1);
      if (std::isnan(in)) continue;
      double got = f.vx64(in);
      mpfr_set_d(x, in, MPFR_RNDN);
      f.mpfr(y, x, MPFR_RNDN);
      double dlo = mpfr_get_d(y, MPFR_RNDD), dhi = mpfr_get_d(y, MPFR_RNDU);
      bool ok = (got != got) ? mpfr_nan_p(y)
                             : (bits64(got) == bits64(dlo) || bits64(got) == bits64(dhi) ||
                                (got == dlo || got == dhi));
      ++checked;
      if (!ok) {
        ++wrong;
        char buf[200];
        std::snprintf(buf, sizeof buf, "%s_f64(%a) = %a, want %a or %a", f.name, in, got, dlo, dhi);
        t->report(buf);
      }
    }
    mpfr_clears(x, y, lo, hi, (mpfr_ptr)0);
    t->checked += checked;
    t->wrong += wrong;
  });
}

}  // namespace

int main(int argc, char** argv) {
  int threads = (int)std::thread::hardware_concurrency();
  uint64_t step = 1, pow_count = 100000000, f64_count = 1000000, bound_count = 1000000;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "mathcheck: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--threads")
      threads = std::atoi(next());
    else if (a == "--step")
      step = std::strtoull(next(), nullptr, 0);
    else if (a == "--pow")
      pow_count = std::strtoull(next(), nullptr, 0);
    else if (a == "--f64")
      f64_count = std::strtoull(next(), nullptr, 0);
    else if (a == "--pow-bound")
      bound_count = std::strtoull(next(), nullptr, 0);
    else if (a == "-h" || a == "--help") {
      std::printf(
          "usage: mathcheck [--threads N] [--step S] [--pow N] [--f64 N] [--pow-bound N]"
          " [FUNCTION...]\n"
          "FUNCTION: exp exp2 log log2 tanh sin cos sqrt pow pow_bound f64; sincos_bound"
          " only when named (about 30 minutes on 2 cores)\n");
      return 0;
    } else
      only.push_back(a);
  }
  if (threads < 1) threads = 1;
  auto wanted = [&](const char* n) {
    if (only.empty()) return true;
    for (auto& o : only)
      if (o == n) return true;
    return false;
  };
  std::printf("mathcheck: %d threads, f32 inputs every %" PRIu64 " of 2^32\n", threads, step);
  std::printf("%-6s %12s %10s %8s %s\n", "fn", "checked", "mpfr", "wrong", "seconds");
  uint64_t total_wrong = 0;
  auto print = [&](const char* name, Tally& t, double secs) {
    std::printf("%-6s %12" PRIu64 " %10" PRIu64 " %8" PRIu64 " %.1f\n", name, t.checked.load(),
                t.mpfr_calls.load(), t.wrong.load(), secs);
    for (auto& s : t.examples) std::printf("    %s\n", s.c_str());
    std::fflush(stdout);
    total_wrong += t.wrong;
  };
  for (const Unary& f : kUnary) {
    if (!wanted(f.name)) continue;
    Tally t;
    auto t0 = std::chrono::steady_clock::now();
    parallel(threads, (uint64_t)1 << 32, [&](uint64_t b, uint64_t e) {
      uint64_t first = (b + step - 1) / step * step;
      check_unary_range(f, first, e, step, &t);
    });
    print(f.name, t, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  if (wanted("pow")) {
    Tally t;
    auto t0 = std::chrono::steady_clock::now();
    check_pow(pow_count, threads, 12345, &t);
    print("pow", t, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  if (wanted("pow_bound")) {
    Tally t;
    double largest = 0;
    auto t0 = std::chrono::steady_clock::now();
    check_pow_bound(bound_count, threads, 4242, &t, &largest);
    print("powfp", t, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    std::printf("    largest error of pow's fast path: %.1f ulps of the double (bound 244)\n",
                largest);
  }
  if (!only.empty() && wanted("sincos_bound")) {  // only when named: 2^33 double-double sines
    Tally t;
    SincosBound sb;
    auto t0 = std::chrono::steady_clock::now();
    check_sincos_bound(step, threads, &t, &sb);
    print("scfp", t, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    std::printf(
        "    largest error of the fast path: sin %.2f, cos %.2f ulps of the double"
        " (bound 8)\n",
        sb.most_ulps[0], sb.most_ulps[1]);
    std::printf(
        "    reduction for |x| >= 2^12: error of r up to %.3g of its bound (2^-94 +"
        " 2^-103 |r|); where 16 divides k, |r| down to 2^%.3f at %a (bound 2^-29.21)\n",
        sb.most_err, std::log2(sb.least_r), from_bits(sb.least_r_at));
  }
  if (wanted("f64")) {
    for (const Unary& f : kUnary) {
      Tally t;
      auto t0 = std::chrono::steady_clock::now();
      check_f64(f, f64_count, threads, 777, &t);
      std::string n = std::string(f.name) + "64";
      print(n.c_str(), t,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
  }
  std::printf("total wrong: %" PRIu64 "\n", total_wrong);
  return total_wrong == 0 ? 0 : 1;
}
