// Questions the CUDA emitter asks of typed statements and expressions (emit_cuda_impl.hpp,
// tile_analysis.hpp): does a statement hold a lane loop, a collective, a break that leaves it, an
// effect; a loop's constant trip count and lanes. Needs a checked typed program; changes nothing.
// spec/offload.md (what runs where in a region), DESIGN §5.
#pragma once
#include <cstdint>

#include "check/tir.hpp"

namespace vx::offload {

// The lanes of a lane loop: `lanes(n)`, else its constant count up to 1024, else 256.
int lane_count(const tir::Stmt& s, int64_t const_count);
// The trip count of a loop with literal bounds, or -1.
int64_t constant_count(const tir::Stmt& s);
// The local a tensor operand names (through views and references), or -1.
int base_slot(const tir::Expr* e);

bool has_lane_loop(const tir::Stmt* s);
// `unsafe { e }` and `{ e }` with no statements: e.
const tir::Expr* strip(const tir::Expr* e);
// A statement every thread of the block runs together: a tile's creation, or a call that
// builtins.def's form marks collective (a lanes:: routine, copy_async, wait) standing as its form
// says.
bool is_collective_stmt(const tir::Stmt* s);
bool has_collective(const tir::Stmt* s);
// A break/continue in `s` that leaves `s` (not caught by a loop inside it).
bool escapes(const tir::Stmt* s);
// Whether evaluating `e` stores, fences, prints, asserts or runs an atomic or a collective.
bool expr_impure(const tir::Expr* e);

}  // namespace vx::offload
