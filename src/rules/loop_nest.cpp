// The shape of a kernel's loop nest (loop_nest.hpp).
#include "rules/loop_nest.hpp"

namespace vx::kr {

std::string too_deep_message(tir::Across level, const std::string& word) {
  return "at most three " + word + " loops can be in each other: the " +
         (level == tir::Across::Blocks ? "grid" : "block") + " of a GPU has three dimensions";
}

NestVerdict LoopNest::check(const NestLoop& loop) const {
  NestVerdict v;
  auto fault = [&](NestFault f, KernelRule rule) {
    v.fault = f;
    v.rule = rule;
    return v;
  };
  if (!m_.has_blocks_and_lanes())
    return fault(NestFault::MachineWithoutLanes, KernelRule::MachineWithoutLanes);
  if (loop.level == tir::Across::Blocks) {
    if (lanes_ > 0) return fault(NestFault::BlockInLaneLoop, KernelRule::BlockLoopPlacement);
    if (loop.parent != NestParent::Region && loop.parent != NestParent::BlockLoop)
      return fault(NestFault::BlockNotDirect, KernelRule::BlockLoopPlacement);
    if (blocks_ >= 3) return fault(NestFault::BlocksTooDeep, KernelRule::LoopDepth);
    if (loop.passes && *loop.passes > m_.max_blocks[0]) {
      v.limit = m_.max_blocks[0];
      return fault(NestFault::GridTooLarge, KernelRule::GridSize);
    }
    return v;
  }
  if (blocks_ == 0) return fault(NestFault::LaneOutsideBlock, KernelRule::LaneLoopPlacement);
  if (lanes_ > 0 && loop.parent != NestParent::LaneLoop)
    return fault(NestFault::LaneNotDirect, KernelRule::LaneLoopPlacement);
  if (lanes_ >= 3) return fault(NestFault::LanesTooDeep, KernelRule::LoopDepth);
  // The loop stands where it may: its lanes count from here on, refused or not.
  v.lanes = loop.lanes;
  v.limit = m_.lanes_per_block;
  if (loop.lanes_written && loop.lanes < 1) return fault(NestFault::NoLanes, KernelRule::LaneCount);
  if (loop.lanes <= 0) return fault(NestFault::LanesNotConstant, KernelRule::LaneCount);
  if (loop.lanes > m_.lanes_per_block) return fault(NestFault::TooManyLanes, KernelRule::LaneCount);
  if (lane_product_ * loop.lanes > m_.lanes_per_block) {
    v.asked = lane_product_ * loop.lanes;
    return fault(NestFault::TooManyLanesInNest, KernelRule::LaneCount);
  }
  return v;
}

void LoopNest::enter(const NestLoop& loop, const NestVerdict& verdict) {
  entered_.push_back({loop.level, lane_product_});
  if (loop.level == tir::Across::Blocks) {
    ++blocks_;
  } else {
    ++lanes_;
    if (verdict.lanes > 0) lane_product_ *= verdict.lanes;
  }
}

void LoopNest::leave() {
  const Entered e = entered_.back();
  entered_.pop_back();
  if (e.level == tir::Across::Blocks)
    --blocks_;
  else
    --lanes_;
  lane_product_ = e.product_before;
}

}  // namespace vx::kr
