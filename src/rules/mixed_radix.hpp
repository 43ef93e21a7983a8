// The mixed-radix prover of seed 001 (spec/kernel-rules.md §4): proves that an index expression
// gives a different element for every pass of a parallel loop, or says which comparison failed.
// It expands the offset into digits (a loop index, or its `/ k` or `% k`, times a constant),
// sorts them by coefficient and checks that each coefficient is greater than the most that all
// smaller digits can add, and that the digits of the parallel index determine it. Needs only the
// hash-consed offset (index_dag.hpp) and what the caller knows about each leaf.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rules/index_dag.hpp"

namespace vx::kr {

// What one check knows about a leaf of the offset.
struct LeafInfo {
  enum Kind { Fixed, Digit, Varying } kind = Fixed;
  std::optional<int64_t> lo, hi;  // Digit: the smallest and largest value of the loop index
  bool parallel = false;          // Digit: the index of the loop being checked
};
using Classify = std::function<LeafInfo(const IxNode*)>;

enum class DigitForm { Index, Div, Mod };

struct Digit {
  // The Loop leaf: valid only while the index graph lives (the explain tables outlive it, so
  // everything they print is copied into the digit: `var`).
  const IxNode* loop = nullptr;
  std::string var;  // the loop's variable
  DigitForm form = DigitForm::Index;
  int64_t k = 1;  // the divisor of Div and Mod
  int64_t coefficient = 0;
  std::optional<int64_t> largest;  // largest minus smallest value of the digit; none: unbounded
  std::optional<int64_t> adds;     // |coefficient| * largest: the most the digit adds
  bool parallel = false;
  std::string text() const;  // `t`, `t / 16`, `t % 16`
};

struct Comparison {
  int digit = 0;  // index into RadixProof::digits
  int64_t coefficient = 0;
  std::optional<int64_t> smaller;  // the most that the digits with smaller coefficients add
  bool holds = false;
  std::string text;  // "8192 > 7680 + 496 + 15 = 8191"
};

struct RadixProof {
  // Wraps: the digits prove it in mathematical integers, but an operation of the offset may
  // leave its type's range, so the program computes another offset (spec/kernel-rules.md §4).
  enum Failure { None, NotDigits, Comparison, NotDetermined, Wraps } failure = None;
  std::string why;         // for NotDigits and Wraps: what in the offset is not a digit, or wraps
  bool too_large = false;  // NotDigits for the size limits (spec/kernel-rules.md §4.8)
  std::vector<Digit> digits;                // by |coefficient|, largest first (the lesson's table)
  std::vector<kr::Comparison> comparisons;  // one per digit but the smallest, largest first
  int failed = -1;            // the first comparison (in table order) that does not hold
  bool determined = false;    // the digits of the parallel index determine it
  std::string constant_part;  // the part of the offset that is the same in every pass
  // Proved index by index (spec/kernel-rules.md §4.9): the tuple of the indices, combined with
  // strides of the proof's own choosing; the combination proved, as Vx source.
  std::string per_dimension;
  std::string widen;  // Wraps: the help that computes the operation in a wider type (widen_help)
  bool proved() const { return failure == None; }
};

// Proves or refutes that no two passes of the parallel loop reach the same offset. A loop with
// `single_pass` has one pass at most: nothing to determine.
RadixProof prove_unique(const IxNode* offset, const Classify& classify, bool single_pass = false);

// A loop to enumerate when looking for two colliding passes, outer loops first.
struct LoopRange {
  const IxNode* leaf = nullptr;
  int64_t lo = 0, hi = 0;
  bool parallel = false;
  int64_t step = 1;  // `.step_by(step)`: lo, lo + step, … up to hi
};
struct Collision {
  std::vector<int64_t> first, second;  // values of the loops (same order as the input)
  int64_t element = 0;
  bool second_reads = false;  // the second access is the `other` one (a read)
};
// Enumerates every assignment of `loops` (at most `budget`) and returns the first two that differ
// in the parallel loop and reach the same element: both through `write`, or `other` (a second
// access to the same tensor; may be null) reaching an element that `write` writes in another
// pass. `fixed` gives the value of every other leaf (nullopt: give up).
// A pass whose `write_indices` (or `other_indices`) are not all in bounds is not one of them: it
// stops the program before it writes; nor is one where the access's `guards` do not all hold
// (it does not get there). A guard that cannot be evaluated gives up, as an index does.
using DimIndices = std::vector<std::pair<const IxNode*, int64_t>>;  // index, size (0: unknown)
std::optional<Collision> find_collision(
    const IxNode* write, const IxNode* other, const std::vector<LoopRange>& loops,
    const std::function<std::optional<int64_t>(const IxNode*)>& fixed,
    const DimIndices& write_indices = {}, const DimIndices& other_indices = {},
    const std::vector<Guard>& write_guards = {}, const std::vector<Guard>& other_guards = {},
    int64_t budget = 1 << 18);

}  // namespace vx::kr
