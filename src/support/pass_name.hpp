// How a pass of nested across loops is named in messages ("block 0 lane 8", "block (1, 2)"):
// the checker's colliding pair and the race recorder's report must read the same.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace vx {

// `blocks` and `lanes` are the values of the open block and lane loops, outermost first. .uir
// names a lane a thread, as seed 001's lesson does ("block 0 thread 8").
inline std::string pass_name(const std::vector<int64_t>& blocks, const std::vector<int64_t>& lanes,
                             const char* lane_word = "lane") {
  auto group = [](const char* word, const std::vector<int64_t>& v) {
    if (v.empty()) return std::string();
    std::string s = word;
    if (v.size() == 1) return s + " " + std::to_string(v[0]);
    s += " (";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + ")";
  };
  std::string b = group("block", blocks), l = group(lane_word, lanes);
  return b + (!b.empty() && !l.empty() ? " " : "") + l;
}

}  // namespace vx
