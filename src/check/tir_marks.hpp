// The offload marks of a typed program (spec/offload.md §4, DESIGN §5): where the offload tier acts
// between regions. They are no statements of the program (check/tir.hpp): the offload-marks step
// (offload/marks.hpp, pipeline::Step::OffloadMarks) makes this table beside a program the kernel
// rules accepted; the interpreter hands each mark to its RegionRunner as it reaches it
// (interp/interpreter.hpp, at_mark), and `run --dump=typed` prints them where they stand.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "check/tir.hpp"

namespace vx::tir {

// What the offload tier does at a mark.
enum class MarkKind : uint8_t {
  Checkpoint,  // a region has just ended: verify compares the GPU's results with the interpreter's
  Sync,        // host code that may touch tensors follows: the GPU's results are copied back
};

struct Mark {
  MarkKind kind = MarkKind::Checkpoint;
  Span span;  // a Checkpoint's: its region's; a Sync's: the statement or tail it stands before
};

// The marks of a program, each at a position of a block: position k is before the block's
// statement k, and position stmts.size() after its last statement, before its tail.
class Marks {
 public:
  void add(const Block* block, size_t position, Mark mark) {
    at_[{block, position}].push_back(mark);
  }
  // The marks at `position` of `block`, in the order they run; null when there are none.
  const std::vector<Mark>* at(const Block* block, size_t position) const {
    auto it = at_.find({block, position});
    return it == at_.end() ? nullptr : &it->second;
  }

 private:
  std::map<std::pair<const Block*, size_t>, std::vector<Mark>> at_;
};

}  // namespace vx::tir
