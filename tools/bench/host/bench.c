// The workloads of tools/bench/host in C (gcc -O2, one thread; the row sums also on two): the same loops as the Vx
// programs in vx/, on the same sizes (the reductions in the tree order of DESIGN §3.7). Prints the kernel's CPU seconds (the process's CPU
// time, as Lua's os.clock gives, so that other load on the machine counts less) and a check value.
// usage: bench scale ROWS COLS | gelu N | rowsums ROWS [2] | histogram N | layernorm ROWS |
//        softmax ROWS
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// The tree of DESIGN §3.7 over n = 2^k values (overwritten).
static float tree_sum(float* x, long n) {
  for (long h = n / 2; h >= 1; h /= 2)
    for (long i = 0; i < h; ++i) x[i] = x[i] + x[i + h];
  return x[0];
}
static float tree_max(float* x, long n) {
  for (long h = n / 2; h >= 1; h /= 2)
    for (long i = 0; i < h; ++i) x[i] = x[i + h] > x[i] ? x[i + h] : x[i];
  return x[0];
}

// Seed 000's row sums (book_gpu_row_sums_in_shared_memory) of rows begin..end of 1024 floats.
struct rows {
  float* m;
  float* sums;
  long begin, end;
};
static void* row_sums(void* arg) {
  const struct rows* r = arg;
  float part[1024];
  for (long i = r->begin; i < r->end; ++i) {
    for (long t = 0; t < 1024; ++t) part[t] = r->m[i * 1024 + t];
    r->sums[i] = tree_sum(part, 1024);
  }
  return NULL;
}

static double wall(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const char* w = argv[1];
  const long a = atol(argv[2]);
  const long b = argc > 3 ? atol(argv[3]) : 0;
  double t0, t1;
  if (!strcmp(w, "scale")) {
    float* g = malloc(sizeof(float) * a * b);
    for (long i = 0; i < a * b; ++i) g[i] = 1.0f;
    t0 = now();
    for (long y = 0; y < a; ++y)
      for (long x = 0; x < b; ++x) g[y * b + x] = g[y * b + x] * 2.0f + (float)y;
    t1 = now();
    printf("%.9f %g %g\n", t1 - t0, g[0], g[a * b - 1]);
  } else if (!strcmp(w, "gelu")) {
    float* in = malloc(sizeof(float) * a);
    float* out = malloc(sizeof(float) * a);
    for (long i = 0; i < a; ++i) in[i] = ((float)(i % 2001) - 1000.0f) * 0.004f;
    t0 = now();
    for (long i = 0; i < a; ++i) {
      const float x = in[i];
      const float cube = 0.044715f * x * x * x;
      out[i] = 0.5f * x * (1.0f + tanhf(0.7978846f * (x + cube)));
    }
    t1 = now();
    printf("%.9f %g %g\n", t1 - t0, out[0], out[a - 1]);
  } else if (!strcmp(w, "rowsums")) {
    // b = 2: the rows in two halves on two threads, timed by the wall clock (the machine's own
    // two-thread speed-up on this memory-bound loop, beside vx-2's).
    struct rows r = {malloc(sizeof(float) * a * 1024), malloc(sizeof(float) * a), 0, a};
    for (long i = 0; i < a * 1024; ++i) r.m[i] = 0.5f;
    for (long c = 0; c < 1024; ++c) r.m[c] = (float)c;
    if (b == 2) {
      struct rows half = r;
      half.end = r.begin = a / 2;
      pthread_t other;
      t0 = wall();
      pthread_create(&other, NULL, row_sums, &half);
      row_sums(&r);
      pthread_join(other, NULL);
      t1 = wall();
    } else {
      t0 = now();
      row_sums(&r);
      t1 = now();
    }
    printf("%.9f %g %g\n", t1 - t0, r.sums[0], r.sums[a - 1]);
  } else if (!strcmp(w, "histogram")) {
    int32_t* v = malloc(sizeof(int32_t) * a);
    uint32_t bins[8] = {0};
    for (long i = 0; i < a; ++i) v[i] = (int32_t)((i * 7) % 8);
    t0 = now();
    for (long i = 0; i < a; ++i) bins[v[i]] += 1;
    t1 = now();
    printf("%.9f %u %u\n", t1 - t0, bins[0], bins[7]);
  } else if (!strcmp(w, "layernorm")) {
    const long n = 768;
    float* in = malloc(sizeof(float) * a * n);
    float* out = malloc(sizeof(float) * a * n);
    float weight[768], bias[768], part[256];
    // Touched before the clock, as vx's fill(0.0) is (not memset: GCC makes malloc and a memset
    // to zero a calloc, whose pages are first touched inside the timed loop).
    for (long i = 0; i < a * n; ++i) out[i] = 1.0f;
    for (long r = 0; r < a; ++r)
      for (long c = 0; c < n; ++c) in[r * n + c] = (float)((r * 7 + c * 13) % 2001) * 0.001f - 1.0f;
    for (long c = 0; c < n; ++c) {
      weight[c] = (float)(c % 17) * 0.0625f + 0.5f;
      bias[c] = (float)(c % 5) * 0.25f - 0.5f;
    }
    t0 = now();
    for (long r = 0; r < a; ++r) {
      const float* row = in + r * n;
      for (long l = 0; l < 256; ++l) part[l] = row[l] + row[l + 256] + row[l + 512];
      const float m = tree_sum(part, 256) / 768.0f;
      for (long l = 0; l < 256; ++l) {
        const float d0 = row[l] - m, d1 = row[l + 256] - m, d2 = row[l + 512] - m;
        part[l] = d0 * d0 + d1 * d1 + d2 * d2;
      }
      const float rs = 1.0f / sqrtf(tree_sum(part, 256) / 768.0f + 0.00001f);
      for (long c = 0; c < n; ++c) out[r * n + c] = (row[c] - m) * rs * weight[c] + bias[c];
    }
    t1 = now();
    printf("%.9f %g %g\n", t1 - t0, out[0], out[a * n - 1]);
  } else if (!strcmp(w, "softmax")) {
    const long n = 1024;
    float* in = malloc(sizeof(float) * a * n);
    float* out = malloc(sizeof(float) * a * n);
    float row[1024], part[256];
    // Touched before the clock, as vx's fill(0.0) is (not memset: GCC makes malloc and a memset
    // to zero a calloc, whose pages are first touched inside the timed loop).
    for (long i = 0; i < a * n; ++i) out[i] = 1.0f;
    for (long r = 0; r < a; ++r)
      for (long c = 0; c < n; ++c) in[r * n + c] = (float)((r * 7 + c * 13) % 2001) * 0.004f - 4.0f;
    t0 = now();
    for (long r = 0; r < a; ++r) {
      for (long c = 0; c < n; ++c) row[c] = in[r * n + c];
      for (long l = 0; l < 256; ++l)
        part[l] = fmaxf(fmaxf(fmaxf(row[l], row[l + 256]), row[l + 512]), row[l + 768]);
      const float mx = tree_max(part, 256);
      for (long c = 0; c < n; ++c) row[c] = exp2f((row[c] - mx) * 0x1.715476p+0f);  // fast_exp
      for (long l = 0; l < 256; ++l) part[l] = row[l] + row[l + 256] + row[l + 512] + row[l + 768];
      const float total = tree_sum(part, 256);
      for (long c = 0; c < n; ++c) out[r * n + c] = row[c] / total;
    }
    t1 = now();
    printf("%.9f %g %g\n", t1 - t0, out[0], out[a * n - 1]);
  } else {
    return 2;
  }
  return 0;
}
