// The offload-marks pass (spec/offload.md "Where a region runs" and "Memory", DESIGN §5): adds
// OffloadMark statements (check/tir.hpp) where the offload tier acts between regions — a
// Checkpoint after every `spawn on` region (verify compares there, `:time` stops its clock) and
// a Sync before host code that may touch tensors (the GPU's results are copied back there).
// Needs a checked program the kernel rules accepted; it only inserts statements into blocks, and
// the interpreter hands each mark to its RegionRunner (interp/interpreter.hpp, at_mark).
#pragma once

#include "check/tir.hpp"

namespace vx::offload {

// What insert_sync_points placed.
struct OffloadMarks {
  int syncs = 0;  // Sync marks inserted
  // A statement that runs regions reads host data itself (a loop's range, a condition, a tail
  // value): no mark can stand between its launches, so the runner copies results back after
  // every launch.
  bool eager = false;
};

// After every `spawn on` statement, a Checkpoint mark with that statement's span.
void insert_checkpoints(tir::Program& program);

// Device memory stays valid between launches (DESIGN §5: each HBM tensor has a host copy and a
// device copy with validity flags). Host code that could read or write a tensor is preceded by a
// Sync mark, where the runner copies back what the GPU changed and forgets the device copies'
// validity: before the outermost statement that mentions a tensor and runs no region (directly
// or through a call). Functions called inside regions get no marks. Returns the number of marks
// and `eager` (see OffloadMarks).
OffloadMarks insert_sync_points(tir::Program& program);

// The pass as the pipeline runs it: the checkpoints, then the sync points.
OffloadMarks insert_offload_marks(tir::Program& program);

}  // namespace vx::offload
