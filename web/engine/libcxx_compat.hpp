// Included first in every file of the WebAssembly build (web/wasm.cmake): the C++17/20 library
// pieces vx uses that the libc++ of Debian's emscripten 3.1.6 lacks, each defined only where the
// library does not have it. The engine is single-threaded (no -pthread), so atomic_ref's
// operations are the compiler's __atomic builtins, which WebAssembly without threads lowers to
// plain loads and stores. The floating-point conversions are printf's and strtod's (musl's are
// correctly rounded); the shortest form is the first precision that reads back to the same
// value, which is the correctly rounded shortest decimal, as Ryu's.
#pragma once
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <version>

namespace std {

#if !defined(__cpp_lib_bit_cast)
template <class To, class From>
requires(sizeof(To) == sizeof(From) && is_trivially_copyable_v<To> &&
         is_trivially_copyable_v<From>) constexpr To bit_cast(const From& from) noexcept {
  return __builtin_bit_cast(To, from);
}
#endif

#if !defined(__cpp_lib_atomic_ref)
template <class T>
class atomic_ref {
 public:
  explicit atomic_ref(T& obj) noexcept : p_(&obj) {}
  T load(memory_order o = memory_order_seq_cst) const noexcept {
    T v;
    __atomic_load(p_, &v, int(o));
    return v;
  }
  void store(T v, memory_order o = memory_order_seq_cst) const noexcept {
    __atomic_store(p_, &v, int(o));
  }
  T exchange(T v, memory_order o = memory_order_seq_cst) const noexcept {
    T old;
    __atomic_exchange(p_, &v, &old, int(o));
    return old;
  }
  bool compare_exchange_weak(T& expected, T desired, memory_order s,
                             memory_order f) const noexcept {
    return __atomic_compare_exchange(p_, &expected, &desired, true, int(s), int(f));
  }
  bool compare_exchange_strong(T& expected, T desired, memory_order s,
                               memory_order f) const noexcept {
    return __atomic_compare_exchange(p_, &expected, &desired, false, int(s), int(f));
  }
  bool compare_exchange_strong(T& expected, T desired,
                               memory_order o = memory_order_seq_cst) const noexcept {
    return compare_exchange_strong(expected, desired, o,
                                   o == memory_order_acq_rel   ? memory_order_acquire
                                   : o == memory_order_release ? memory_order_relaxed
                                                               : o);
  }
  T fetch_add(T v, memory_order o = memory_order_seq_cst) const noexcept {
    return __atomic_fetch_add(p_, v, int(o));
  }
  T fetch_sub(T v, memory_order o = memory_order_seq_cst) const noexcept {
    return __atomic_fetch_sub(p_, v, int(o));
  }

 private:
  T* p_;
};
#endif

}  // namespace std

// libc++ before 14 has no floating-point to_chars/from_chars: vx_compat's own, found by the
// calls' argument-dependent lookup failing over to these overloads in namespace std.
#if !defined(_LIBCPP_VERSION) || _LIBCPP_VERSION < 14000
namespace vx_compat {

// The shortest decimal of v in scientific notation ("1.5e+00"), as digits and an exponent.
template <class T>
int shortest_scientific(char* buf, size_t size, T v) {
  for (int p = 0; p < 17; ++p) {
    const int n = std::snprintf(buf, size, "%.*e", p, static_cast<double>(v));
    const T back = sizeof(T) == 4 ? static_cast<T>(std::strtof(buf, nullptr))
                                  : static_cast<T>(std::strtod(buf, nullptr));
    if (back == v) return n;
  }
  return std::snprintf(buf, size, "%.16e", static_cast<double>(v));
}

template <class T>
std::to_chars_result write(char* first, char* last, T v, int format, int precision) {
  char buf[512];
  int n = 0;
  if (!std::isfinite(v)) {
    n = std::snprintf(buf, sizeof buf, "%f", static_cast<double>(v));
  } else if (precision >= 0) {
    n = std::snprintf(buf, sizeof buf,
                      format == 1   ? "%.*e"
                      : format == 2 ? "%.*f"
                                    : "%.*g",
                      precision, static_cast<double>(v));
    if (n >= static_cast<int>(sizeof buf)) return {last, std::errc::value_too_large};
  } else {
    char sci[64];
    const int s = shortest_scientific(sci, sizeof sci, v);
    if (format == 1) {
      std::memcpy(buf, sci, static_cast<size_t>(s) + 1);
      n = s;
    } else {
      // The shortest digits as fixed notation; format 0 (general) takes it unless longer than
      // the scientific form (C++'s rule, ties to fixed).
      const char* e = std::strchr(sci, 'e');
      const int exp = std::atoi(e + 1);
      const bool negative = sci[0] == '-';
      char digits[32];
      int nd = 0;
      for (const char* c = sci + negative; c < e; ++c)
        if (*c != '.') digits[nd++] = *c;
      while (nd > 1 && digits[nd - 1] == '0') --nd;
      std::string_view d(digits, static_cast<size_t>(nd));
      char fixed[512];
      int f = 0;
      if (negative) fixed[f++] = '-';
      if (exp < 0) {
        fixed[f++] = '0';
        fixed[f++] = '.';
        for (int i = 0; i < -exp - 1; ++i) fixed[f++] = '0';
        for (char c : d) fixed[f++] = c;
      } else if (exp + 1 >= nd) {
        // An integer: its exact digits, as C++'s to_chars gives them (123456792, not 123456790:
        // the same length, and closer).
        f = std::snprintf(fixed, sizeof fixed, "%.0f", static_cast<double>(v));
      } else {
        for (int i = 0; i <= exp || i < nd; ++i) {
          if (i == exp + 1) fixed[f++] = '.';
          fixed[f++] = i < nd ? d[static_cast<size_t>(i)] : '0';
        }
      }
      // Scientific's own digits trimmed too: "1e+10", "1.5e-07".
      char trimmed[64];
      int t = 0;
      if (negative) trimmed[t++] = '-';
      trimmed[t++] = d[0];
      if (nd > 1) {
        trimmed[t++] = '.';
        for (int i = 1; i < nd; ++i) trimmed[t++] = d[static_cast<size_t>(i)];
      }
      t += std::snprintf(trimmed + t, sizeof trimmed - static_cast<size_t>(t), "e%c%02d",
                         exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
      if (format == 1 || (format == 0 && t < f)) {
        std::memcpy(buf, trimmed, static_cast<size_t>(t));
        n = t;
      } else {
        std::memcpy(buf, fixed, static_cast<size_t>(f));
        n = f;
      }
    }
  }
  if (n > last - first) return {last, std::errc::value_too_large};
  std::memcpy(first, buf, static_cast<size_t>(n));
  return {first + n, std::errc()};
}

}  // namespace vx_compat

namespace std {
// chars_format as vx_compat::write's format: 0 the shortest of both, 1 scientific, 2 fixed,
// 3 general (with a precision).
constexpr int compat_format(chars_format f) {
  return f == chars_format::scientific ? 1 : f == chars_format::fixed ? 2 : 3;
}
inline to_chars_result to_chars(char* first, char* last, double v) {
  return vx_compat::write(first, last, v, 0, -1);
}
inline to_chars_result to_chars(char* first, char* last, float v) {
  return vx_compat::write(first, last, v, 0, -1);
}
inline to_chars_result to_chars(char* first, char* last, double v, chars_format f) {
  return vx_compat::write(first, last, v,
                          f == chars_format::scientific ? 1
                          : f == chars_format::fixed    ? 2
                                                        : 0,
                          -1);
}
inline to_chars_result to_chars(char* first, char* last, float v, chars_format f) {
  return vx_compat::write(first, last, v,
                          f == chars_format::scientific ? 1
                          : f == chars_format::fixed    ? 2
                                                        : 0,
                          -1);
}
inline to_chars_result to_chars(char* first, char* last, double v, chars_format f, int precision) {
  return vx_compat::write(first, last, v, compat_format(f), precision);
}
inline to_chars_result to_chars(char* first, char* last, float v, chars_format f, int precision) {
  return vx_compat::write(first, last, v, compat_format(f), precision);
}
inline from_chars_result from_chars(const char* first, const char* last, double& value) {
  char buf[512];
  const size_t n = std::min<size_t>(static_cast<size_t>(last - first), sizeof buf - 1);
  std::memcpy(buf, first, n);
  buf[n] = '\0';
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(buf, &end);
  if (end == buf) return {first, errc::invalid_argument};
  if (errno == ERANGE && std::isinf(v)) return {first + (end - buf), errc::result_out_of_range};
  value = v;
  return {first + (end - buf), errc()};
}
}  // namespace std
#endif
