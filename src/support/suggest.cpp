#include "support/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace vx {

size_t edit_distance(const std::string& a, const std::string& b) {
  // Optimal string alignment over three rows of the table.
  const size_t n = a.size(), m = b.size();
  std::vector<size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = j;
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    prev2.swap(prev);
    prev.swap(cur);
  }
  return prev[m];
}

namespace {

// A typo longer than this gets no suggestion by edits, only one that differs in case: the edit
// distance of two names costs the product of their lengths (a typo of 60,000 characters against
// a name as long took seconds), and a name that long is no typo.
constexpr size_t kMaxEditedName = 256;

bool equal_but_case(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

}  // namespace

std::optional<std::string> closest_name(const std::string& typo,
                                        const std::vector<std::string>& candidates) {
  for (const std::string& c : candidates)
    if (c != typo && equal_but_case(c, typo)) return c;
  if (typo.size() > kMaxEditedName) return std::nullopt;
  const size_t limit = std::max<size_t>(1, typo.size() / 3);
  std::optional<std::string> best;
  size_t best_d = limit + 1;
  for (const std::string& c : candidates) {
    // Each edit changes the length by at most one: a name further in length is further in edits.
    const size_t apart = c.size() > typo.size() ? c.size() - typo.size() : typo.size() - c.size();
    if (c == typo || apart >= best_d) continue;
    const size_t d = edit_distance(typo, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

}  // namespace vx
