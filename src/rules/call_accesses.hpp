// How the kernel rules read index expressions across calls, and the helpers both of their
// readers share (kernel_rules.cpp reads the caller's expressions, this file the callee's).
// The accesses a call makes through one reference argument (spec/kernel-rules.md §3 rule 3),
// when they can all be read: every use of the parameter in the callee, and in the functions it
// lends the parameter to, is an element read or written at indices computed from the callee's
// integer parameters (never assigned) and constants, or its size. The kernel rules then check
// those accesses at the call as if the caller made them, instead of refusing the call. Needs the
// typed program and the index graph.
#pragma once
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "check/tir.hpp"
#include "rules/index_dag.hpp"

namespace vx::kr {

// What both readers of index expressions share (kernel_rules.cpp reads the caller's, this file
// the callee's): the integer type of a scalar (mathematical for anything else), the indices of
// a place outer view first (`tiles[0][r][c]` -> {0, r, c}), the operator of an index's binary
// operation, and whether an integer cast keeps every value (widening, or the same type).
IntType int_type(const Type& t);
std::vector<const tir::Expr*> place_indices(const tir::Expr* e);
std::optional<IxOp> index_op(tir::BinOp op);
bool keeps_value(const Type& from, const Type& to);
// The row-major offset of the indices `idx` in a tensor of type `t` (`key`: names the symbols of
// dimensions `t` does not have); `[x / W][x % W]` in a dimension of W is x.
const IxNode* row_major(IndexDag& dag, const std::vector<const IxNode*>& idx, const Type& t,
                        const void* key);
// Whether `i + c` in 0 ..= dim - 1 (`e` is that sum, `i` a loop index from `loop_lo` to
// `loop_hi`, unknown: its type's range) puts `i` in -c ..= dim - 1 - c: not when the sum may
// wrap around into the bounds.
bool shift_keeps_bounds(const IxNode* e, int64_t c, int64_t dim, std::optional<int64_t> loop_lo,
                        std::optional<int64_t> loop_hi);
// The values a node can take (index_dag.hpp's value_range with the caller's leaf ranges).
using NodeRange = std::function<std::pair<__int128, __int128>(const IxNode*)>;
// How many low bits are zero in every value `n` can take, whatever its leaves' values (at most
// 63): a constant's trailing zeros; the fewest of a sum's or a difference's terms, the sum of a
// product's factors', a negation's operand's; 0 for anything else. Wrapping keeps it true: an
// operation in n bits keeps its value modulo 2^n, so a multiple of 2^k stays one for k <= n, and
// for k > n the value wraps to 0.
int low_zero_bits(const IxNode* n);
// §4 step 1, value ranges: `a << b` is `a * 2^b` in its type `t` (both wrap alike), and on
// values that are never negative (`range`) `a >> b` is `a / 2^b` and `a & (2^b - 1)` is
// `a % 2^b`, for a constant b; `a | b` and `a ^ b` are `a + b` when one of them is a multiple of
// 2^k (low_zero_bits) and every value of the other is in 0 ..= 2^k - 1: their bits do not meet, so
// no bit carries and the sum cannot wrap. Null for any other operation `op`. Only the caller's
// reader (kernel_rules.cpp) asks it: a callee's index with a shift, a mask or a bitwise or is not
// read (the call keeps its refusal), as before the function moved here.
const IxNode* bits_index(IndexDag& dag, tir::BinOp op, const IxNode* a, const IxNode* b, IntType t,
                         const NodeRange& range);
// Whether bits_index may read `op`: `&`, `|`, `^`, `<<` and `>>`.
bool is_bits_op(tir::BinOp op);
// Sets `values[slot]` to null for every local that `b` or `e` (either may be null) assigns.
void forget_assigned(const tir::Block* b, const tir::Expr* e, std::vector<const IxNode*>& values);

struct CallAccess {
  bool write = false;
  std::vector<const IxNode*> indices;  // in the argument's root tensor, its row's first
  std::string place;                   // the callee's source text of the access
  // Whether a call gets to it, for messages' examples only: the conditions of the callee's `if`s
  // around it, in the caller's nodes, and whether something else decides it that they do not say
  // (a loop, the right side of `&&` or `||`, a `break`, `continue` or early `return`).
  Reach reach;
};

// The accesses of `fn` through its parameter `param`, which stands for the row `prefix` of the
// caller's tensor; `ints[k]`: the caller's node for the callee's k-th argument when it is an
// integer (null otherwise). nullopt when a use of the parameter is anything else.
std::optional<std::vector<CallAccess>> call_accesses(const tir::Program& prog, int fn, int param,
                                                     const std::vector<const IxNode*>& prefix,
                                                     const std::vector<const IxNode*>& ints,
                                                     IndexDag& dag);

// The value of a call of `fn` that returns an integer computed from its arguments, built like an
// index from `ints` (as call_accesses'), its body followed as call_results says; null when it
// is not known.
const IxNode* call_value(const tir::Program& prog, int fn, const std::vector<const IxNode*>& ints,
                         IndexDag& dag);

// Each out slot of a call (a tuple's scalars, the fields of its `&mut` structs coming back) with
// the value the call leaves in it, null where not known; `read` builds the caller's node of an
// argument. The callee is followed at its body's top level, which runs once and in order: an
// integer `let` or assignment there (to a return slot too) gives its local the value built from
// the arguments, as call_value's lets, a call there the values it gives in turn, and whatever a
// statement assigns inside it (in a loop, an `if`, a block) is no longer known. A body with a
// `return` before its last statement gives none, nor a call whose arguments assign a local.
std::vector<std::pair<int, const IxNode*>> call_results(
    const tir::Program& prog, const tir::Expr* call, IndexDag& dag,
    const std::function<const IxNode*(const tir::Expr*)>& read);

// The expression whose value a block expression has: its tail, through nested blocks (`e` when
// it is not a block with a tail). Its value is read after the block's statements have run.
inline const tir::Expr* block_value(const tir::Expr* e) {
  while (e && e->kind == tir::ExprKind::BlockExpr && e->block && e->block->tail) e = e->block->tail;
  return e;
}

}  // namespace vx::kr
