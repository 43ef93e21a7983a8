// vx_prelude.cuh: the runtime helpers every emitted kernel uses after vx_math.h (spec/offload.md).
// Integer arithmetic wraps (computed in unsigned types), division and shifts check their operands
// and record an error code instead of undefined behaviour, float->int casts saturate (NaN -> 0),
// float min/max ignore a NaN operand: the meaning of src/interp/arith.hpp, bit for bit. No
// standard headers (NVRTC has none); g++ compiles it too under tests/cuda_host/cuda_host.hpp.
#ifndef VX_PRELUDE_CUH
// A kernel's shared arrays past 48 KiB live in one dynamic buffer (emit_cuda.cpp,
// shared_arrays()); the host harness gives each kernel a static one.
#ifdef VX_HOST_HARNESS
#define VX_DYNAMIC_SMEM(name, bytes) alignas(16) static unsigned char name[bytes]
#else
#define VX_DYNAMIC_SMEM(name, bytes) extern __shared__ __align__(16) unsigned char name[]
#endif
#define VX_PRELUDE_CUH

#define VX_D static __device__ __forceinline__
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define VX_KERNEL extern "C" __global__
#else
#define VX_KERNEL __global__
#endif

// Records a failure. Which code lands when several threads fail does not matter: on any code the
// runner discards the GPU's results and the interpreter reruns the region (and reports the error
// it meets first, exactly). A plain store keeps the failure path cheap in hot loops.
VX_D void vx_fail(int* e, int code) { *e = code; }
#if defined(__CUDACC__) || defined(__CUDACC_RTC__) || defined(__GNUC__)
#define VX_UNLIKELY(c) __builtin_expect(!!(c), 0)
#else
#define VX_UNLIKELY(c) (c)
#endif

#define VX_INT_OPS(T, U)                               \
  VX_D T vx_add(T a, T b) { return (T)((U)a + (U)b); } \
  VX_D T vx_sub(T a, T b) { return (T)((U)a - (U)b); } \
  VX_D T vx_mul(T a, T b) { return (T)((U)a * (U)b); } \
  VX_D T vx_neg(T a) { return (T)((U)0 - (U)a); }      \
  VX_D T vx_bnot(T a) { return (T)(~(U)a); }           \
  VX_D T vx_shl(T a, unsigned long long n, int* e) {   \
    if (n >= sizeof(T) * 8) {                          \
      vx_fail(e, vx_kErrShift);                        \
      return 0;                                        \
    }                                                  \
    return (T)((U)a << n);                             \
  }                                                    \
  VX_D T vx_shr(T a, unsigned long long n, int* e) {   \
    if (n >= sizeof(T) * 8) {                          \
      vx_fail(e, vx_kErrShift);                        \
      return 0;                                        \
    }                                                  \
    return (T)(a >> n);                                \
  }                                                    \
  VX_D T vx_maxm(T a, T b) { return a < b ? b : a; }   \
  VX_D T vx_minm(T a, T b) { return b < a ? b : a; }   \
  VX_D T vx_ipow(T base, unsigned int ex) {            \
    U r = 1, b = (U)base;                              \
    while (ex) {                                       \
      if (ex & 1) r = (U)(r * b);                      \
      b = (U)(b * b);                                  \
      ex >>= 1;                                        \
    }                                                  \
    return (T)r;                                       \
  }                                                    \
  VX_D bool vx_isnan(T) { return false; }

#define VX_SIGNED_OPS(T, MINV)             \
  VX_D T vx_div(T a, T b, int* e) {        \
    if (b == 0) {                          \
      vx_fail(e, vx_kErrDivZero);          \
      return 0;                            \
    }                                      \
    if (a == MINV && b == (T)-1) return a; \
    return (T)(a / b);                     \
  }                                        \
  VX_D T vx_rem(T a, T b, int* e) {        \
    if (b == 0) {                          \
      vx_fail(e, vx_kErrDivZero);          \
      return 0;                            \
    }                                      \
    if (b == (T)-1) return 0;              \
    return (T)(a % b);                     \
  }                                        \
  VX_D T vx_abs(T a) { return a < 0 ? vx_neg(a) : a; }

#define VX_UNSIGNED_OPS(T)          \
  VX_D T vx_div(T a, T b, int* e) { \
    if (b == 0) {                   \
      vx_fail(e, vx_kErrDivZero);   \
      return 0;                     \
    }                               \
    return (T)(a / b);              \
  }                                 \
  VX_D T vx_rem(T a, T b, int* e) { \
    if (b == 0) {                   \
      vx_fail(e, vx_kErrDivZero);   \
      return 0;                     \
    }                               \
    return (T)(a % b);              \
  }                                 \
  VX_D T vx_abs(T a) { return a; }

VX_INT_OPS(signed char, unsigned int)
VX_INT_OPS(short, unsigned int)
VX_INT_OPS(int, unsigned int)
VX_INT_OPS(long long, unsigned long long)
VX_INT_OPS(unsigned char, unsigned int)
VX_INT_OPS(unsigned short, unsigned int)
VX_INT_OPS(unsigned int, unsigned int)
VX_INT_OPS(unsigned long long, unsigned long long)
VX_SIGNED_OPS(signed char, (signed char)(-128))
VX_SIGNED_OPS(short, (short)(-32768))
VX_SIGNED_OPS(int, (int)(-2147483647 - 1))
VX_SIGNED_OPS(long long, (long long)(-9223372036854775807LL - 1))
VX_UNSIGNED_OPS(unsigned char)
VX_UNSIGNED_OPS(unsigned short)
VX_UNSIGNED_OPS(unsigned int)
VX_UNSIGNED_OPS(unsigned long long)

// Floats: min/max keep the receiver on equal values and ignore a NaN operand (arith.hpp).
VX_D float vx_maxm(float a, float b) { return (a < b || a != a) ? b : a; }
VX_D float vx_minm(float a, float b) { return (b < a || a != a) ? b : a; }
VX_D double vx_maxm(double a, double b) { return (a < b || a != a) ? b : a; }
VX_D double vx_minm(double a, double b) { return (b < a || a != a) ? b : a; }
VX_D float vx_abs(float a) { return vx_abs_f32(a); }
VX_D double vx_abs(double a) { return vx_abs_f64(a); }
VX_D bool vx_isnan(float a) { return a != a; }
VX_D bool vx_isnan(double a) { return a != a; }
VX_D float vx_frem(float a, float b) { return fmodf(a, b); }
VX_D double vx_frem(double a, double b) { return fmod(a, b); }

// f16 and bf16 (spec/semantics.md): storage types whose arithmetic, comparisons and math are
// f32's on the exact widened values, rounded back once (vx_half.h's conversions: the
// interpreter's, bit for bit). Negation and abs flip or clear the sign bit.
struct vx_f16 {
  unsigned short bits;
};
struct vx_bf16 {
  unsigned short bits;
};
VX_D float vx_widen(vx_f16 h) { return vx_f16_to_f32(h.bits); }
VX_D float vx_widen(vx_bf16 h) { return vx_bf16_to_f32(h.bits); }
VX_D vx_f16 vx_to_f16(float f) {
  vx_f16 r;
  r.bits = vx_f32_to_f16(f);
  return r;
}
VX_D vx_f16 vx_to_f16(double d) {
  vx_f16 r;
  r.bits = vx_f64_to_half(d, 1);
  return r;
}
VX_D vx_bf16 vx_to_bf16(float f) {
  vx_bf16 r;
  r.bits = vx_f32_to_bf16(f);
  return r;
}
VX_D vx_bf16 vx_to_bf16(double d) {
  vx_bf16 r;
  r.bits = vx_f64_to_half(d, 0);
  return r;
}
#define VX_HALF_OPS(H, NARROW, F16)                                                               \
  VX_D H H##_of_int(long long v) {                                                                \
    H r;                                                                                          \
    r.bits =                                                                                      \
        vx_int_to_half(v < 0, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v, F16); \
    return r;                                                                                     \
  }                                                                                               \
  VX_D H H##_of_uint(unsigned long long v) {                                                      \
    H r;                                                                                          \
    r.bits = vx_int_to_half(0, v, F16);                                                           \
    return r;                                                                                     \
  }                                                                                               \
  VX_D H operator+(H a, H b) { return NARROW(vx_widen(a) + vx_widen(b)); }                        \
  VX_D H operator-(H a, H b) { return NARROW(vx_widen(a) - vx_widen(b)); }                        \
  VX_D H operator*(H a, H b) { return NARROW(vx_widen(a) * vx_widen(b)); }                        \
  VX_D H operator/(H a, H b) { return NARROW(vx_widen(a) / vx_widen(b)); }                        \
  VX_D H operator-(H a) {                                                                         \
    H r;                                                                                          \
    r.bits = (unsigned short)(a.bits ^ 0x8000u);                                                  \
    return r;                                                                                     \
  }                                                                                               \
  VX_D bool operator==(H a, H b) { return vx_widen(a) == vx_widen(b); }                           \
  VX_D bool operator!=(H a, H b) { return vx_widen(a) != vx_widen(b); }                           \
  VX_D bool operator<(H a, H b) { return vx_widen(a) < vx_widen(b); }                             \
  VX_D bool operator<=(H a, H b) { return vx_widen(a) <= vx_widen(b); }                           \
  VX_D bool operator>(H a, H b) { return vx_widen(a) > vx_widen(b); }                             \
  VX_D bool operator>=(H a, H b) { return vx_widen(a) >= vx_widen(b); }                           \
  VX_D H vx_frem(H a, H b) { return NARROW(fmodf(vx_widen(a), vx_widen(b))); }                    \
  VX_D bool vx_isnan(H a) { return vx_widen(a) != vx_widen(a); }                                  \
  VX_D H vx_maxm(H a, H b) { return (a < b || vx_isnan(a)) ? b : a; }                             \
  VX_D H vx_minm(H a, H b) { return (b < a || vx_isnan(a)) ? b : a; }                             \
  VX_D H vx_abs(H a) {                                                                            \
    H r;                                                                                          \
    r.bits = (unsigned short)(a.bits & 0x7fffu);                                                  \
    return r;                                                                                     \
  }                                                                                               \
  VX_D H vx_shfl_down(H v, unsigned h) {                                                          \
    H r;                                                                                          \
    r.bits = (unsigned short)__shfl_down_sync(0xffffffffu, (unsigned int)v.bits, h);              \
    return r;                                                                                     \
  }
VX_HALF_OPS(vx_f16, vx_to_f16, 1)
VX_HALF_OPS(vx_bf16, vx_to_bf16, 0)
// A zero of any element type (a scalar or a half).
template <class T>
VX_D T vx_zero() {
  T z{};
  return z;
}

// An array `[T; N]` (spec/types.md §7), its elements row-major whatever its rank: a struct, so
// that it is copied by assignment, passed to and returned from __device__ functions by value.
template <class T, int N>
struct vx_arr {
  T v[N];
};

// Saturating float -> integer casts (Rust's `as`): NaN -> 0, out of range -> the nearest bound.
#define VX_SAT(NAME, T, UPPER, LOWER, MAXV, MINV) \
  VX_D T NAME(double d) {                         \
    if (d != d) return 0;                         \
    if (d >= (UPPER)) return MAXV;                \
    if (d <= (LOWER)) return MINV;                \
    return (T)d;                                  \
  }
VX_SAT(vx_sat_i8, signed char, 128.0, -128.0, (signed char)127, (signed char)(-128))
VX_SAT(vx_sat_i16, short, 32768.0, -32768.0, (short)32767, (short)(-32768))
VX_SAT(vx_sat_i32, int, 2147483648.0, -2147483648.0, 2147483647, (int)(-2147483647 - 1))
VX_SAT(vx_sat_i64, long long, 9223372036854775808.0, -9223372036854775808.0, 9223372036854775807LL,
       (long long)(-9223372036854775807LL - 1))
VX_SAT(vx_sat_u8, unsigned char, 256.0, 0.0, (unsigned char)255, (unsigned char)0)
VX_SAT(vx_sat_u16, unsigned short, 65536.0, 0.0, (unsigned short)65535, (unsigned short)0)
VX_SAT(vx_sat_u32, unsigned int, 4294967296.0, 0.0, 4294967295u, 0u)
VX_SAT(vx_sat_u64, unsigned long long, 18446744073709551616.0, 0.0, 18446744073709551615ull, 0ull)

// An index: checked against its dimension (negative or too large records vx_kErrIndex, reads 0).
VX_D long long vx_ix(long long i, long long n, int* e) {
  if (VX_UNLIKELY((unsigned long long)i >= (unsigned long long)n)) {
    vx_fail(e, vx_kErrIndex);
    return 0;
  }
  return i;
}
// An element of a tile made with uninit(): reading one never written records vx_kErrUninit.
template <class T>
VX_D T vx_ld_init(const T* p, const unsigned char* init, long long i, int* e) {
  if (!init[i]) vx_fail(e, vx_kErrUninit);
  return p[i];
}
// copy_async start indices, clamped as the interpreter clamps them (beyond any dimension).
VX_D long long vx_start_s(long long s) {
  const long long far = 1LL << 62;
  return s < -far ? -far : (s > far ? far : s);
}
VX_D long long vx_start_u(unsigned long long s) {
  const unsigned long long far = 1ULL << 62;
  return (long long)(s > far ? far : s);
}
// The order of lanes::argmax (a NaN is smaller than any number) and of lanes::sort (NaN last).
// Whether argmax's tree replaces (best, bi) by (cand, ci): a larger element (NaN the least), or
// an equal one at a smaller index. The interpreter's scan gives the smallest index of a largest
// element; a tree reaches it only if ties go to the smaller index, since the left slot of a
// level can hold an index larger than the right slot's (spec/builtins.md).
template <class T>
VX_D bool vx_argmax_takes(T best, int bi, T cand, int ci) {
  const bool bn = vx_isnan(best), cn = vx_isnan(cand);
  if (bn != cn) return bn;
  if (!bn && best < cand) return true;
  if (!bn && cand < best) return false;
  return ci < bi;
}
template <class T>
VX_D bool vx_sort_lt(T x, T y) {
  if (vx_isnan(x)) return false;
  if (vx_isnan(y)) return true;
  return x < y;
}

// ---- atomics: the element types of the seed's atomic families -------------------------------
VX_D int vx_at_add(int* p, int v) { return atomicAdd(p, v); }
VX_D unsigned int vx_at_add(unsigned int* p, unsigned int v) { return atomicAdd(p, v); }
VX_D unsigned long long vx_at_add(unsigned long long* p, unsigned long long v) {
  return atomicAdd(p, v);
}
VX_D long long vx_at_add(long long* p, long long v) {
  return (long long)atomicAdd((unsigned long long*)p, (unsigned long long)v);
}
VX_D float vx_at_add(float* p, float v) { return atomicAdd(p, v); }
VX_D int vx_at_sub(int* p, int v) { return atomicSub(p, v); }
VX_D unsigned int vx_at_sub(unsigned int* p, unsigned int v) { return atomicSub(p, v); }
VX_D unsigned long long vx_at_sub(unsigned long long* p, unsigned long long v) {
  return atomicAdd(p, 0ull - v);
}
VX_D long long vx_at_sub(long long* p, long long v) {
  return (long long)atomicAdd((unsigned long long*)p, 0ull - (unsigned long long)v);
}
VX_D float vx_at_sub(float* p, float v) { return atomicAdd(p, -v); }  // x + (-v) == x - v in IEEE
VX_D int vx_at_max(int* p, int v) { return atomicMax(p, v); }
VX_D unsigned int vx_at_max(unsigned int* p, unsigned int v) { return atomicMax(p, v); }
VX_D long long vx_at_max(long long* p, long long v) { return atomicMax(p, v); }
VX_D unsigned long long vx_at_max(unsigned long long* p, unsigned long long v) {
  return atomicMax(p, v);
}
VX_D int vx_at_min(int* p, int v) { return atomicMin(p, v); }
VX_D unsigned int vx_at_min(unsigned int* p, unsigned int v) { return atomicMin(p, v); }
VX_D long long vx_at_min(long long* p, long long v) { return atomicMin(p, v); }
VX_D unsigned long long vx_at_min(unsigned long long* p, unsigned long long v) {
  return atomicMin(p, v);
}
// Float max/min: a CAS loop on the bits, with the interpreter's NaN rule.
VX_D float vx_at_fminmax(float* p, float v, bool is_max) {
  unsigned int* q = (unsigned int*)p;
  unsigned int old = *(volatile unsigned int*)q, assumed;
  do {
    assumed = old;
    float x = vx_u2f(assumed);
    float r = is_max ? vx_maxm(x, v) : vx_minm(x, v);
    old = atomicCAS(q, assumed, vx_f2u(r));
  } while (old != assumed);
  return vx_u2f(old);
}
VX_D float vx_at_max(float* p, float v) { return vx_at_fminmax(p, v, true); }
VX_D float vx_at_min(float* p, float v) { return vx_at_fminmax(p, v, false); }
VX_D int vx_at_swap(int* p, int v) { return atomicExch(p, v); }
VX_D unsigned int vx_at_swap(unsigned int* p, unsigned int v) { return atomicExch(p, v); }
VX_D unsigned long long vx_at_swap(unsigned long long* p, unsigned long long v) {
  return atomicExch(p, v);
}
VX_D long long vx_at_swap(long long* p, long long v) {
  return (long long)atomicExch((unsigned long long*)p, (unsigned long long)v);
}
VX_D float vx_at_swap(float* p, float v) { return atomicExch(p, v); }
VX_D int vx_at_cas(int* p, int c, int v) { return atomicCAS(p, c, v); }
VX_D unsigned int vx_at_cas(unsigned int* p, unsigned int c, unsigned int v) {
  return atomicCAS(p, c, v);
}
VX_D unsigned long long vx_at_cas(unsigned long long* p, unsigned long long c,
                                  unsigned long long v) {
  return atomicCAS(p, c, v);
}
VX_D long long vx_at_cas(long long* p, long long c, long long v) {
  return (long long)atomicCAS((unsigned long long*)p, (unsigned long long)c, (unsigned long long)v);
}
VX_D float vx_at_cas(float* p, float c, float v) {  // compares bits (spec/builtins.md §3)
  return vx_u2f(atomicCAS((unsigned int*)p, vx_f2u(c), vx_f2u(v)));
}
template <class T>
VX_D T vx_at_load(T* p) {
  return *(volatile T*)p;
}
template <class T>
VX_D void vx_at_store(T* p, T v) {
  *(volatile T*)p = v;
}

// ---- fast_exp / fast_tanh (spec/math.md §4)
// ------------------------------------------------------ Normally the approximate instruction.
// Compiled with VX_CHECK_FAST (the verify launches of spec/offload.md) each call also computes the
// exact value the interpreter uses, records code 6 when the instruction's result is outside its
// documented bound, and passes the exact value on, so that the rest of the kernel can be compared
// with the interpreter bit for bit.
#ifdef VX_CHECK_FAST
VX_D bool vx_fast_within(float approx, float exact, double rel) {
  if (exact != exact) return approx != approx;
  if (exact - exact != 0.0f) return approx == exact;  // infinities
  const double d = (double)approx - (double)exact;
  return (d < 0 ? -d : d) <= rel * (exact < 0 ? -(double)exact : (double)exact) + 0x1p-148;
}
VX_D float vx_fast_exp_k(float x, int* e) {
  const float r = vx_exp2_f32(x * 0x1.715476p+0f);
  if (!vx_fast_within(vx_fast_exp_f32(x), r, 0x1p-21)) vx_fail(e, vx_kErrFastBound);
  return r;
}
VX_D float vx_fast_tanh_k(float x, int* e) {
  const float r = vx_tanh_f32(x);
  if (!vx_fast_within(vx_fast_tanh_f32(x), r, 0x1.125fbee250663p-11 + 0x1p-23))
    vx_fail(e, vx_kErrFastBound);  // 2^-10.9 + 1 ulp
  return r;
}
#else
VX_D float vx_fast_exp_k(float x, int*) { return vx_fast_exp_f32(x); }
VX_D float vx_fast_tanh_k(float x, int*) { return vx_fast_tanh_f32(x); }
#endif

#endif  // VX_PRELUDE_CUH
