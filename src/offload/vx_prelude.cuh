// vx_prelude.cuh: the runtime helpers every emitted kernel uses after vx_math.h, vx_half.h and
// vx_arith.h (spec/offload.md). The arithmetic itself (wrapping integers, checked division and
// shifts, saturating casts, NaN-aware min/max) is numeric/vx_arith.h's, the interpreter's; this
// file adds the 16-bit float types, arrays, checked indices and atomics. No standard headers
// (NVRTC has none); g++ compiles it too under tests/cuda_host/cuda_host.hpp.
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
