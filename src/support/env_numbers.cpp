#include "support/env_numbers.hpp"

#include <charconv>
#include <cstdlib>

namespace vx {

std::optional<int64_t> parse_byte_size(std::string_view s) {
  size_t i = 0;
  unsigned __int128 v = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9' && v <= INT64_MAX) v = v * 10 + (s[i++] - '0');
  int shift = 0;
  if (i > 0 && i + 1 == s.size()) {
    const char c = static_cast<char>(s[i] & ~0x20);  // upper case
    shift = c == 'K' ? 10 : c == 'M' ? 20 : c == 'G' ? 30 : c == 'T' ? 40 : -1;
    if (shift > 0) ++i;
  }
  if (i == 0 || i != s.size() || shift < 0 || v > INT64_MAX || (v << shift) > INT64_MAX)
    return std::nullopt;
  return static_cast<int64_t>(v << shift);
}

std::optional<int64_t> parse_count(std::string_view s, int64_t lo, int64_t hi) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || s.find_first_not_of("0123456789") != std::string_view::npos ||
      ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi)
    return std::nullopt;
  return v;
}

std::optional<int64_t> env_byte_size(const char* name, int64_t unset, std::string* error) {
  const char* env = std::getenv(name);
  if (!env || !*env) return unset;
  const std::optional<int64_t> v = parse_byte_size(env);
  if (!v)
    *error = std::string(name) + "=" + env +
             " is not a size (a number of bytes, with an optional K, M, G or T suffix)";
  return v;
}

std::optional<int64_t> env_count(const char* name, int64_t lo, int64_t hi, const char* what,
                                 std::string* error) {
  const char* env = std::getenv(name);
  if (!env) return std::nullopt;
  const std::optional<int64_t> v = parse_count(env, lo, hi);
  if (!v)
    *error = std::string(name) + "=" + env + " is not a number of " + what + " (" +
             std::to_string(lo) + " to " + std::to_string(hi) + ")";
  return v;
}

}  // namespace vx
