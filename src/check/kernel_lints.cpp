// Warnings of the kernel rules (spec/errors.md, "Warnings"): a lane loop the rules accept, but
// whose lanes its block does not use well.
#include <string>

#include "check/kernel_access.hpp"

namespace vx::kr {

// Lanes that never get a pass, and a written `lanes(N)` that leaves part of a warp idle (32
// lanes: NVIDIA's warp, Apple's SIMD group).
void lane_warnings(Diagnostics& diags, const tir::Stmt* loop, Span header, int64_t lanes,
                   std::optional<int64_t> passes) {
  if (loop->lanes_written && passes && *passes < lanes)
    diags.warning("idle_lanes", header,
                  "this lane loop has " + std::to_string(*passes) + " passes for " +
                      std::to_string(lanes) + " lanes: " + std::to_string(lanes - *passes) +
                      " lanes of each block have none",
                  std::to_string(lanes - *passes) + " idle lanes");
  constexpr int64_t kWarp = 32;
  if (loop->lanes_written && lanes % kWarp != 0)  // the count of `lanes(N)`, not a range's size
    diags.warning("lanes_not_warp_multiple", header,
                  std::to_string(lanes) + " lanes are not a multiple of " + std::to_string(kWarp) +
                      ", the warp: the last warp of each block has " +
                      std::to_string(kWarp - lanes % kWarp) + " idle lanes",
                  std::to_string(lanes) + " lanes");
}

}  // namespace vx::kr
