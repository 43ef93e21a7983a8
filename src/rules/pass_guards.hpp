// What decides whether a pass gets to an access (index_dag.hpp's Reach, of kernel_access.hpp's
// Access and call_accesses.hpp's CallAccess), given by kernel_rules.cpp and call_accesses.cpp to
// the accesses of a piece of code once they have walked it: the conditions of the `if`s around
// the access, as comparisons of index nodes, and whether something else on the way decides it
// (a `while` or `loop`, a range that may be empty, a condition the nodes cannot say, a `break`,
// `continue` or `return` in the region). Only the examples of messages read them
// (disjointness.cpp's collision note, the write map): the proof reads no condition
// (spec/kernel-rules.md §4 step 11). The condition's nodes are built after the code is walked,
// and only when it holds an access, so that the offsets' nodes are made in the order they were
// before conditions were read (the order of a polynomial's terms, and so which one a message
// names, follows it).
#pragma once
#include <functional>
#include <vector>

#include "check/tir.hpp"
#include "rules/kernel_access.hpp"

namespace vx::kr {

using BuildIndex = std::function<const IxNode*(const tir::Expr*)>;

// Appends to `out` the guards that say where `c` is `holds`: a comparison of integers, `!` of a
// condition, `&&` where it holds and `||` where it does not (both sides, as each must), and `||`
// where it holds and `&&` where it does not (one side or the other: any_of). False when `c` is
// anything else, or an operand cannot be built.
bool guards_of(const tir::Expr* c, bool holds, const BuildIndex& build, std::vector<Guard>& out);

// The accesses (kernel_access.hpp's Access, call_accesses.hpp's CallAccess) from `first` on were
// walked in a branch of `if cond`: its `then` block where `holds`, its `else` block otherwise (or
// the right side of `cond && x` where `cond` holds, of `cond || x` where it does not). `build`
// reads the condition's operands as they were at it.
template <class A>
void guard_accesses(std::vector<A>& accesses, size_t first, const tir::Expr* cond, bool holds,
                    const BuildIndex& build) {
  if (first >= accesses.size()) return;  // no access: no node built
  std::vector<Guard> guards;
  const bool known = guards_of(cond, holds, build, guards);
  for (size_t k = first; k < accesses.size(); ++k) {
    Reach& r = accesses[k].reach;
    r.conditional = true;
    if (known)
      r.guards.insert(r.guards.end(), guards.begin(), guards.end());
    else
      r.unknown = true;
  }
}

// The accesses from `first` on were walked in code that a pass may not get to, for reasons no
// guard says.
template <class A>
void reach_unknown(std::vector<A>& accesses, size_t first) {
  for (size_t k = first; k < accesses.size(); ++k) accesses[k].reach.unknown = true;
}

// Whether a `break`, `continue` or `return` other than `except` is somewhere in `b`.
bool exits_in(const tir::Block* b, const tir::Stmt* except = nullptr);

}  // namespace vx::kr
