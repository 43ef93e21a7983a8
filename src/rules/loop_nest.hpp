// The shape of a kernel's loop nest, for Vx's across loops (spec/kernel-rules.md §2.1–2.5) and
// .uir's global and local loops (spec/uir.md §5.1) alike: where a block (global) loop and a lane
// (local) loop may stand, how deep they nest, how many blocks a grid and how many lanes a block
// holds, with the limits of a machine (machine.hpp). Each front end walks its own loops, asks
// here at each across loop, and words the fault in its own terms; the decision is made once.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check/tir.hpp"
#include "rules/kernel_rules.hpp"
#include "rules/machine.hpp"

namespace vx::kr {

// What stands directly around a loop: the region (a Vx `spawn on`, .uir's top level), a block
// loop, a lane loop, or anything else (a plain loop, an `if`).
enum class NestParent : uint8_t { Region, BlockLoop, LaneLoop, Other };

// An across loop as a front end sees it.
struct NestLoop {
  tir::Across level = tir::Across::Blocks;
  NestParent parent = NestParent::Region;
  std::optional<int64_t> passes;  // a constant count of passes, if known
  bool lanes_written = false;     // `across lanes(n)` (a .uir local loop's bound is always)
  int64_t lanes = 0;  // a lane loop's lanes: the written n, else the passes (0: not known)
};

// What is wrong with a loop where it stands, in the order it is checked.
enum class NestFault : uint8_t {
  None,
  MachineWithoutLanes,  // the machine has no blocks and lanes
  BlockInLaneLoop,      // a block loop inside a lane loop
  BlockNotDirect,       // a block loop neither directly in the region nor in a block loop
  BlocksTooDeep,        // a fourth block loop
  GridTooLarge,         // more passes than a grid has blocks in a dimension
  LaneOutsideBlock,     // a lane loop in no block loop
  LaneNotDirect,        // a lane loop in a lane loop, but not directly in its body
  LanesTooDeep,         // a fourth lane loop
  NoLanes,              // a written lane count below 1
  LanesNotConstant,     // a lane count not known
  TooManyLanes,         // more lanes than a block has
  TooManyLanesInNest,   // lane loops in each other that ask for more lanes than a block has
};

struct NestVerdict {
  NestFault fault = NestFault::None;
  KernelRule rule = KernelRule::LoopDepth;  // the rule of E6032 the fault breaks
  int64_t lanes = 0;  // a lane loop that stands where it may: its lanes (0: not known)
  int64_t asked = 0;  // TooManyLanesInNest: the lanes of the loops in each other
  int64_t limit = 0;  // GridTooLarge, TooManyLanes, TooManyLanesInNest: the machine's limit
  explicit operator bool() const { return fault != NestFault::None; }
};

// The message of BlocksTooDeep and LanesTooDeep, which both front ends word alike: `word` names a
// loop of `level` in the front end's terms ("block", "global").
std::string too_deep_message(tir::Across level, const std::string& word);

// The across loops a walk is in.
class LoopNest {
 public:
  explicit LoopNest(const Machine& machine) : m_(machine) {}
  // What is wrong with `loop` standing here.
  NestVerdict check(const NestLoop& loop) const;
  // Enters `loop` (whatever check said of it; `verdict` default when it was not asked), and
  // leaves it; its lanes count towards the loops inside when it stands where it may.
  void enter(const NestLoop& loop, const NestVerdict& verdict);
  void leave();
  int block_loops() const { return blocks_; }
  int lane_loops() const { return lanes_; }
  // The block loops' code, outside their lane loops.
  bool in_block_code() const { return blocks_ > 0 && lanes_ == 0; }

 private:
  const Machine& m_;
  int blocks_ = 0, lanes_ = 0;
  int64_t lane_product_ = 1;
  struct Entered {
    tir::Across level;
    int64_t product_before;
  };
  std::vector<Entered> entered_;
};

}  // namespace vx::kr
