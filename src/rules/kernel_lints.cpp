// Warnings of the kernel rules (spec/errors.md, "Warnings"): a lane loop the rules accept, but
// whose lanes its block does not use well.
#include <string>

#include "rules/kernel_access.hpp"

namespace vx::kr {

namespace {

// `1 lane`, `16 lanes`.
std::string count(int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

// Lanes that never get a pass, and a written `lanes(N)` that leaves part of a warp idle (32
// lanes: NVIDIA's warp, Apple's SIMD group).
void lane_warnings(Diagnostics& diags, const tir::Stmt* loop, Span header, int64_t lanes,
                   std::optional<int64_t> passes) {
  if (loop->lanes_written && passes && *passes < lanes) {
    const int64_t idle = lanes - *passes;
    diags.warning("idle_lanes", header,
                  "this lane loop has " + count(*passes, "pass", "passes") + " for " +
                      count(lanes, "lane", "lanes") + ": " + count(idle, "lane", "lanes") +
                      " of each block " + (idle == 1 ? "has" : "have") + " none",
                  count(idle, "idle lane", "idle lanes"));
  }
  constexpr int64_t kWarp = 32;
  if (loop->lanes_written && lanes % kWarp != 0)  // the count of `lanes(N)`, not a range's size
    diags.warning("lanes_not_warp_multiple", header,
                  count(lanes, "lane is", "lanes are") + " not a multiple of " +
                      std::to_string(kWarp) + ", the warp: the last warp of each block has " +
                      count(kWarp - lanes % kWarp, "idle lane", "idle lanes"),
                  count(lanes, "lane", "lanes"));
}

}  // namespace vx::kr
