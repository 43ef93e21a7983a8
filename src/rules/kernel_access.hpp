// The kernel rules' model of a function's tensor accesses and the disjointness check over it
// (disjointness.cpp, spec/kernel-rules.md §4-5): kernel_rules.cpp collects the accesses while it
// walks a Vx function; the .uir checker (uir/check.cpp) builds the same facts from .uir and calls
// the same check, so one rule serves both languages. Needs the index DAG (index_dag.hpp).
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "check/tir.hpp"
#include "rules/explain.hpp"
#include "rules/index_dag.hpp"
#include "support/diagnostics.hpp"

namespace vx::kr {

struct Access {
  int root = -1;               // the slot of the tensor (references followed to their tensor)
  std::string tensor;          // its name
  const Type* type = nullptr;  // the tensor's type (dims)
  bool write = false;
  bool atomic = false;             // an atomic built-in
  bool changes = false;            // an atomic that changes the element (all but atomic_load)
  const IxNode* offset = nullptr;  // the linear offset; null: a whole tensor or a view of it
  Span span;
  std::string text;                    // the source text of the access
  std::vector<const tir::Stmt*> fors;  // the for loops around it, outer first
  // Bounds that an in-bounds access puts on a loop index (`x[i]` with `i` a loop index of a
  // dimension of 100: 0 <= i <= 99). An access out of bounds stops the program before it writes,
  // so the proof may assume them (spec/kernel-rules.md §4).
  std::map<const IxNode*, std::pair<int64_t, int64_t>> bounds;
  // The index of each dimension and its size (0: not known), when the access names an element:
  // a collision's example passes must be in bounds (a pass out of bounds stops the program).
  std::vector<std::pair<const IxNode*, int64_t>> indices;
  Reach reach;  // whether a pass gets to it, for messages' examples
};

// What the disjointness check needs to know about the function being checked.
struct FunctionFacts {
  const tir::Function* fn = nullptr;
  IndexDag* dag = nullptr;
  // For each slot, the for loops around its declaration (a loop's own slot: the loop included).
  std::vector<std::vector<const tir::Stmt*>> decl_fors;
  std::map<const tir::Stmt*, std::vector<const tir::Stmt*>>
      loop_fors;  // loop -> loops around it, itself last
  std::map<const tir::Stmt*, std::optional<int64_t>> loop_lo, loop_hi;
  // The start and end of each Vx loop as index nodes (its range when they are not constants).
  std::map<const tir::Stmt*, std::pair<const IxNode*, const IxNode*>> loop_bounds;
  std::vector<Access> accesses;
  std::vector<const tir::Stmt*> across_loops;  // in source order
  // How messages name the levels: Vx's block and lane loops and lanes, or .uir's global and
  // local loops and threads (spec/uir.md §5.3).
  struct Words {
    const char* block_loop = "block";
    const char* lane_loop = "lane";
    const char* lane = "lane";
  } words;

  bool declared_inside(int slot, const tir::Stmt* loop) const;
  // The first and last values of `loop`'s index, where known (loop_lo, loop_hi).
  std::pair<std::optional<int64_t>, std::optional<int64_t>> known_bounds(
      const tir::Stmt* loop) const;
  // The values a leaf can take in any pass: a loop's whole range (from its bounds' ranges when
  // they are not constants), a `?` dimension's 0 to 2^31 - 1; nullopt: its type's range.
  std::optional<std::pair<int64_t, int64_t>> leaf_range(const IxNode* leaf, int depth = 0) const;
  bool loop_inside(const tir::Stmt* inner, const tir::Stmt* loop) const;  // inner == loop counts
};

// Header span of a for statement: from `for` to just before its body.
Span loop_header(const tir::Stmt* loop, const SourceFile& file);

// How messages name a pass: "block 0 lane 8", "block 1 lane 0 with `k` = 2" (`stmts`: the loops,
// outer first; `vals`: their values), and an element by its index: "element [1][2]".
std::string describe_pass(const FunctionFacts& facts, const std::vector<const tir::Stmt*>& stmts,
                          const std::vector<int64_t>& vals);
std::string element_text(const Type* tensor, int64_t offset);

// Checks every across loop of the function: atomics mixed with plain accesses, the
// same-expression rule and the mixed-radix proof of every written tensor. Reports E6032; fills
// `explain` with every store's checks (with `maps`, and its map of who writes what).
void check_disjointness(const FunctionFacts& facts, Diagnostics& diags,
                        std::vector<StoreExplain>* explain, bool maps = false);

// The warnings about how a lane loop that the rules accept fills its block (kernel_lints.cpp).
void lane_warnings(Diagnostics& diags, const tir::Stmt* loop, Span header, int64_t lanes,
                   std::optional<int64_t> passes);

}  // namespace vx::kr
