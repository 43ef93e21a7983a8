// vx_arith.h — the arithmetic of Vx's operators, casts and integer methods, one source for the
// host and the GPU (spec/semantics.md §4–§6).
//
// Every tier computes with these functions: the interpreter and `.uir` (interp/arith.hpp), the
// constant folder (check/const_fold.cpp) and every emitted kernel, which gets this file after
// vx_math.h and vx_half.h (offload/emit_cuda.cpp). parse/operators.def names the function of each
// operator. Needs vx_math.h (VX_MATH_FN, vx_u64, vx_abs_f32, vx_abs_f64). No standard headers:
// NVRTC has none.
//
// - Integers wrap: they are computed in unsigned types of at least 32 bits, so no operation is
//   C++'s signed overflow.
// - Division and remainder by zero, and shifts by the type's width or more, store an error code
//   in `*e` (VX_ARITH_DIV_ZERO, VX_ARITH_SHIFT: offload/kernel_errors.def's codes) and return 0;
//   each tier reports it its own way (a runtime error, a kernel error flag, E0206). MIN / -1 is
//   MIN and MIN % -1 is 0.
// - Casts: integer to integer is modular; integer or float to float rounds once, to nearest
//   (C's conversion, never through a wider float first: i64 → f32 through f64 would round twice);
//   float to integer saturates, NaN to 0. The 16-bit floats' conversions are vx_half.h's.
// - Float min/max ignore a NaN operand and keep the receiver on equal values (-0.0 and 0.0);
//   float remainder is fmod (exact).
#pragma once

#define VX_ARITH_DIV_ZERO 1
#define VX_ARITH_SHIFT 2

#if VX_MATH_DEVICE
#define VX_ARITH_FMODF(a, b) fmodf(a, b)
#define VX_ARITH_FMOD(a, b) fmod(a, b)
#else
#define VX_ARITH_FMODF(a, b) __builtin_fmodf(a, b)
#define VX_ARITH_FMOD(a, b) __builtin_fmod(a, b)
#endif

// ---- integers: T computed in U (unsigned, at least 32 bits) ------------------------------------
#define VX_ARITH_INT(T, U)                                   \
  VX_MATH_FN T vx_add(T a, T b) { return (T)((U)a + (U)b); } \
  VX_MATH_FN T vx_sub(T a, T b) { return (T)((U)a - (U)b); } \
  VX_MATH_FN T vx_mul(T a, T b) { return (T)((U)a * (U)b); } \
  VX_MATH_FN T vx_neg(T a) { return (T)((U)0 - (U)a); }      \
  VX_MATH_FN T vx_bnot(T a) { return (T)(~(U)a); }           \
  VX_MATH_FN T vx_band(T a, T b) { return (T)(a & b); }      \
  VX_MATH_FN T vx_bor(T a, T b) { return (T)(a | b); }       \
  VX_MATH_FN T vx_bxor(T a, T b) { return (T)(a ^ b); }      \
  VX_MATH_FN T vx_shl(T a, vx_u64 n, int* e) {               \
    if (n >= sizeof(T) * 8) {                                \
      *e = VX_ARITH_SHIFT;                                   \
      return 0;                                              \
    }                                                        \
    return (T)((U)a << n);                                   \
  }                                                          \
  VX_MATH_FN T vx_shr(T a, vx_u64 n, int* e) {               \
    if (n >= sizeof(T) * 8) {                                \
      *e = VX_ARITH_SHIFT;                                   \
      return 0;                                              \
    }                                                        \
    return (T)(a >> n); /* arithmetic on signed types */     \
  }                                                          \
  VX_MATH_FN T vx_maxm(T a, T b) { return a < b ? b : a; }   \
  VX_MATH_FN T vx_minm(T a, T b) { return b < a ? b : a; }   \
  VX_MATH_FN T vx_ipow(T base, unsigned int ex) {            \
    U r = 1, b = (U)base;                                    \
    while (ex) {                                             \
      if (ex & 1) r = (U)(r * b);                            \
      b = (U)(b * b);                                        \
      ex >>= 1;                                              \
    }                                                        \
    return (T)r;                                             \
  }                                                          \
  VX_MATH_FN bool vx_isnan(T) { return false; }
// Division and remainder; on signed types MIN / -1 is MIN and MIN % -1 is 0 (SIGNED is 1).
#define VX_ARITH_DIV(T, SIGNED, MINV)                     \
  VX_MATH_FN T vx_div(T a, T b, int* e) {                 \
    if (b == 0) {                                         \
      *e = VX_ARITH_DIV_ZERO;                             \
      return 0;                                           \
    }                                                     \
    if (SIGNED && a == (T)(MINV) && b == (T)-1) return a; \
    return (T)(a / b);                                    \
  }                                                       \
  VX_MATH_FN T vx_rem(T a, T b, int* e) {                 \
    if (b == 0) {                                         \
      *e = VX_ARITH_DIV_ZERO;                             \
      return 0;                                           \
    }                                                     \
    if (SIGNED && b == (T)-1) return 0;                   \
    return (T)(a % b);                                    \
  }
#define VX_ARITH_SIGNED(T, MINV) \
  VX_ARITH_DIV(T, 1, MINV)       \
  VX_MATH_FN T vx_abs(T a) { return a < 0 ? vx_neg(a) : a; }
#define VX_ARITH_UNSIGNED(T) \
  VX_ARITH_DIV(T, 0, 0)      \
  VX_MATH_FN T vx_abs(T a) { return a; }

// `long` and `long long` are distinct types: the host's int64_t is `long` (LP64), emitted kernels
// spell `long long` (as does WebAssembly's int64_t, whose `long` has 32 bits).
VX_ARITH_INT(signed char, unsigned int)
VX_ARITH_INT(short, unsigned int)
VX_ARITH_INT(int, unsigned int)
VX_ARITH_INT(long, unsigned long)
VX_ARITH_INT(long long, unsigned long long)
VX_ARITH_INT(unsigned char, unsigned int)
VX_ARITH_INT(unsigned short, unsigned int)
VX_ARITH_INT(unsigned int, unsigned int)
VX_ARITH_INT(unsigned long, unsigned long)
VX_ARITH_INT(unsigned long long, unsigned long long)
VX_ARITH_SIGNED(signed char, (signed char)(-128))
VX_ARITH_SIGNED(short, (short)(-32768))
VX_ARITH_SIGNED(int, (int)(-2147483647 - 1))
VX_ARITH_SIGNED(long, (long)((unsigned long)1 << (sizeof(long) * 8 - 1)))  // 32 bits on wasm32
VX_ARITH_SIGNED(long long, (long long)(-9223372036854775807LL - 1))
VX_ARITH_UNSIGNED(unsigned char)
VX_ARITH_UNSIGNED(unsigned short)
VX_ARITH_UNSIGNED(unsigned int)
VX_ARITH_UNSIGNED(unsigned long)
VX_ARITH_UNSIGNED(unsigned long long)
#undef VX_ARITH_INT
#undef VX_ARITH_SIGNED
#undef VX_ARITH_DIV
#undef VX_ARITH_UNSIGNED

// bool's bitwise operators (`&`, `|`, `^`, `!`).
VX_MATH_FN bool vx_band(bool a, bool b) { return a && b; }
VX_MATH_FN bool vx_bor(bool a, bool b) { return a || b; }
VX_MATH_FN bool vx_bxor(bool a, bool b) { return a != b; }
VX_MATH_FN bool vx_bnot(bool a) { return !a; }

// ---- f32 and f64 (f16 and bf16 compute in f32 and round back: vx_half.h) ------------------------
#define VX_ARITH_FLOAT(T, FMOD, ABS)                                   \
  VX_MATH_FN T vx_add(T a, T b) { return a + b; }                      \
  VX_MATH_FN T vx_sub(T a, T b) { return a - b; }                      \
  VX_MATH_FN T vx_mul(T a, T b) { return a * b; }                      \
  VX_MATH_FN T vx_div(T a, T b, int*) { return a / b; }                \
  VX_MATH_FN T vx_rem(T a, T b, int*) { return FMOD(a, b); }           \
  VX_MATH_FN T vx_neg(T a) { return -a; }                              \
  VX_MATH_FN bool vx_isnan(T a) { return a != a; }                     \
  VX_MATH_FN T vx_maxm(T a, T b) { return (a < b || a != a) ? b : a; } \
  VX_MATH_FN T vx_minm(T a, T b) { return (b < a || a != a) ? b : a; } \
  VX_MATH_FN T vx_abs(T a) { return ABS(a); }                          \
  VX_MATH_FN T vx_frem(T a, T b) { return FMOD(a, b); }
VX_ARITH_FLOAT(float, VX_ARITH_FMODF, vx_abs_f32)
VX_ARITH_FLOAT(double, VX_ARITH_FMOD, vx_abs_f64)
#undef VX_ARITH_FLOAT

// ---- casts --------------------------------------------------------------------------------------

// Float to integer (Rust's `as`): NaN -> 0, beyond the range -> the nearest bound, else truncated.
// The argument is the float's exact value as a double.
#define VX_ARITH_SAT(NAME, T, UPPER, LOWER, MAXV, MINV) \
  VX_MATH_FN T NAME(double d) {                         \
    if (d != d) return 0;                               \
    if (d >= (UPPER)) return MAXV;                      \
    if (d <= (LOWER)) return MINV;                      \
    return (T)d;                                        \
  }
VX_ARITH_SAT(vx_sat_i8, signed char, 128.0, -128.0, (signed char)127, (signed char)(-128))
VX_ARITH_SAT(vx_sat_i16, short, 32768.0, -32768.0, (short)32767, (short)(-32768))
VX_ARITH_SAT(vx_sat_i32, int, 2147483648.0, -2147483648.0, 2147483647, (int)(-2147483647 - 1))
VX_ARITH_SAT(vx_sat_i64, long long, 9223372036854775808.0, -9223372036854775808.0,
             9223372036854775807LL, (long long)(-9223372036854775807LL - 1))
VX_ARITH_SAT(vx_sat_u8, unsigned char, 256.0, 0.0, (unsigned char)255, (unsigned char)0)
VX_ARITH_SAT(vx_sat_u16, unsigned short, 65536.0, 0.0, (unsigned short)65535, (unsigned short)0)
VX_ARITH_SAT(vx_sat_u32, unsigned int, 4294967296.0, 0.0, 4294967295u, 0u)
VX_ARITH_SAT(vx_sat_u64, unsigned long long, 18446744073709551616.0, 0.0, 18446744073709551615ull,
             0ull)
#undef VX_ARITH_SAT

// Integer to f32 or f64, and f64 to f32: one rounding to nearest, ties to even (the conversion
// instructions of x86-64 and PTX's .rn). Named so that no tier goes through a wider type first.
VX_MATH_FN float vx_i64_to_f32(long long v) { return (float)v; }
VX_MATH_FN float vx_u64_to_f32(unsigned long long v) { return (float)v; }
VX_MATH_FN double vx_i64_to_f64(long long v) { return (double)v; }
VX_MATH_FN double vx_u64_to_f64(unsigned long long v) { return (double)v; }
VX_MATH_FN float vx_f64_to_f32(double v) { return (float)v; }
