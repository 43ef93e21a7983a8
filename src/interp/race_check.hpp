// Race detection at run time (`vx run --check-races`, spec/kernel-rules.md §9): the oracle for
// the kernel rules. The interpreter tells the recorder where it is (which pass of which across
// loop, which phase of a block) and reports every tensor element that code in an across loop
// loads or stores; the recorder stops at the first two passes that collide — two writes, or a
// read of an element another pass writes in the same phase — and names both and the element.
// Needs nothing but the interpreter's calls; costs nothing when no recorder is installed.
//
// The interpreter's side (the hook interface), when `RunOptions::race_recorder` is set:
//   - enter_region() when a `spawn on` region starts, leave_region() when it ends;
//   - enter_pass(loop, level, index) when a pass of an across loop starts (level: Block or Lane,
//     index: the loop variable's value), leave_pass(loop) when it ends;
//   - end_phase() at the end of every lane loop (the block's barrier);
//   - access(buffer, element, write, where) for every load and store of a tensor element (and
//     every element an atomic or a lanes:: routine touches, with `atomic` set for atomics) made
//     while at least one across pass is open. `buffer` identifies the tensor's storage (its data
//     pointer): an SMEM tile of another block is another buffer.
// Compile the recording nodes only when a recorder is installed, so that the normal tree has no
// check at all on its hot path.
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "support/source.hpp"

namespace vx::interp {

enum class PassLevel : uint8_t { Block, Lane };

// Which pass runs: the values of the open across loops, outer first.
struct PassId {
  std::vector<std::pair<PassLevel, int64_t>> loops;
  uint64_t phase = 0;  // the block's phase (lane loops ended so far in this pass of the block)
  bool operator==(const PassId& o) const { return loops == o.loops && phase == o.phase; }
  // "block 0 lane 8", "block (1, 2) lane 3"
  std::string describe() const;
};

struct RaceReport {
  PassId first, second;
  std::string tensor;
  int64_t element = 0;
  bool both_write = true;  // else: `first` writes, `second` reads (or the other way round)
  bool second_writes = true;
  Span where;                   // the second access
  std::string message() const;  // "block 0 lane 8 and block 1 lane 0 both write element 8 of `out`"
};

class RaceRecorder {
 public:
  void enter_region();
  void leave_region();
  void enter_pass(const void* loop, PassLevel level, int64_t index);
  void leave_pass(const void* loop);
  void end_phase();
  // Records one access; returns a report at the first collision (and keeps returning it).
  const RaceReport* access(const void* buffer, const std::string& tensor, int64_t element,
                           bool write, bool atomic, Span where);
  const RaceReport* report() const { return report_ ? &*report_ : nullptr; }

 private:
  // The passes that touched one element, kept so that whenever some earlier pass runs at the same
  // time as a new one, a kept pass does too (the detector is exact, spec/kernel-rules.md §9):
  // passes of at most two blocks, and of each block those of its latest phase with at most two
  // different lane values. Until the first collision every earlier pass of one block is in a
  // phase no later than the block's latest, and a block's phases only grow.
  struct Touches {
    std::vector<PassId> kept;
    void add(const PassId& p);
    const PassId* concurrent_with(const PassId& p) const;
  };
  struct Cell {
    Touches writers, readers;                // plain stores and loads
    Touches atomic_writers, atomic_readers;  // atomics: they collide with plain accesses only
  };
  // Two passes may collide when they are different passes that run at the same time: different
  // blocks, or different lanes of one block in the same phase.
  static bool concurrent(const PassId& a, const PassId& b);

  std::mutex mu_;
  std::vector<std::pair<const void*, std::pair<PassLevel, int64_t>>> open_;
  uint64_t phase_ = 0;
  std::map<std::pair<const void*, int64_t>, Cell> cells_;
  std::optional<RaceReport> report_;
};

}  // namespace vx::interp
