// Tile analysis for the CUDA emitter, run on each block of block code before it is emitted:
// which uninit() tiles need no written-flags (their first lane loop writes them whole before any
// read), which SMEM tiles can live in registers (every element touched by one thread only), how
// the threads take the passes of a one-level lane loop, and the interval an index provably stays
// in. Needs a checked typed program; changes nothing. spec/offload.md (tiles), DESIGN §5.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "check/tir.hpp"

namespace vx::offload {

// How the threads of a one-level lane loop with a constant count and a literal start take its
// passes: thread t runs v = lo + t + k * lanes for k = 0, 1, … (k is `counter`, a constant after
// unrolling; "0" for a single pass).
struct LanePass {
  std::string counter;
  int64_t lo = 0, lanes = 0, count = 0;
  bool single = false;
};

// Loop variables whose range is a constant [first, second] (inclusive).
using IndexRanges = std::map<int, std::pair<int64_t, int64_t>>;

// The values an integer expression can take, where that follows from literals and loop
// variables of constant ranges through +, - and * without leaving the expression's type (so
// that no wrapping happens); nullopt otherwise.
std::optional<std::pair<int64_t, int64_t>> index_interval(const tir::Expr& e,
                                                          const IndexRanges& ranges);

// How the threads take the passes of a one-level lane loop (see LanePass), for loops with a
// literal start and a constant count run in one pass or unrolled; nullopt otherwise.
std::optional<LanePass> pass_shape(const tir::Stmt& s);

// c when `index` is the loop variable `var` plus the constant c (through + and - of integer
// literals and integer casts), nullopt otherwise.
std::optional<int64_t> owned_offset(const tir::Expr& index, int var);

// Adds to `dense` the uninit() tiles made in block `b` (of function `fn`) that need no
// written-flags.
void find_dense_tiles(const tir::Block* b, const tir::Function& fn, std::set<int>& dense);

// Adds to `reg_tiles` the SMEM tiles made in block `b` that can be kept in registers, each with
// the lane stride L whose thread e mod L owns element e. `dense`: find_dense_tiles' result;
// `ranges`: the constant ranges of the loop variables around `b`.
void find_register_tiles(const tir::Block* b, const tir::Function& fn, const std::set<int>& dense,
                         const IndexRanges& ranges, std::map<int, int64_t>& reg_tiles);

}  // namespace vx::offload
