#include "support/env_numbers.hpp"

#include <charconv>

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

std::string_view byte_size_form() {
  return "a number of bytes, with an optional K, M, G or T suffix";
}

}  // namespace vx
