// The offload-marks step (spec/offload.md "Where a region runs" and "Memory", DESIGN §5): the
// marked program, a table of marks (check/tir_marks.hpp) beside the typed program where the
// offload tier acts between regions — a Checkpoint after every `spawn on` region (verify compares
// there, `:time` stops its clock) and a Sync before host code that may touch tensors (the GPU's
// results are copied back there). Needs a checked program the kernel rules accepted, and leaves
// it as it is; the interpreter hands each mark to its RegionRunner (interp/interpreter.hpp,
// at_mark). The pipeline runs it as Step::OffloadMarks.
#pragma once

#include "check/tir.hpp"
#include "check/tir_marks.hpp"

namespace vx::offload {

// The marks of a program, and what the runner needs to know of them.
struct OffloadMarks {
  tir::Marks marks;
  int syncs = 0;  // Sync marks placed
  // A statement that runs regions reads host data itself (a loop's range, a condition, a tail
  // value): no mark can stand between its launches, so the runner copies results back after
  // every launch.
  bool eager = false;
};

// After every `spawn on` statement, a Checkpoint mark with that statement's span.
void mark_checkpoints(const tir::Program& program, tir::Marks& marks);

// Device memory stays valid between launches (DESIGN §5: each HBM tensor has a host copy and a
// device copy with validity flags). Host code that could read or write a tensor is preceded by a
// Sync mark, where the runner copies back what the GPU changed and forgets the device copies'
// validity: before the outermost statement that mentions a tensor and runs no region (directly
// or through a call). Functions called inside regions get no marks. Adds them after the marks
// already in `out` (a checkpoint runs before a sync at the same place), counts them and sets
// `eager` (see OffloadMarks).
void mark_sync_points(const tir::Program& program, OffloadMarks& out);

// The step as the pipeline runs it: the checkpoints, then the sync points.
OffloadMarks offload_marks(const tir::Program& program);

}  // namespace vx::offload
