// The usefulness of `match` patterns (spec/semantics.md §3), as rustc's exhaustiveness checker
// decides it: a pattern is useful after some rows when a value matches it and none of the rows.
// Tuples are taken apart by specialisation (a tuple has one constructor); the values of a scalar
// column are split at the boundaries its patterns use. Needs checked patterns (check_match.cpp).
#pragma once

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "check/types.hpp"
#include "support/source.hpp"

namespace vx::check::patterns {

using Int = __int128;

// An inclusive range of values of a scalar type (a bool is 0 or 1, a char its code point).
struct Interval {
  Int lo = 0, hi = 0;
};

// A checked pattern of a value of some type.
struct Pat {
  enum class Kind { Wild, Range, Tuple, Or } kind = Kind::Wild;
  Interval values;        // Range
  std::vector<Pat> subs;  // Tuple: one per element; Or: the alternatives
  Span span;
};

// The values of a scalar type, in order: a char's leave out the surrogates, as Rust's do. A float
// has no values that a pattern names (only `_` and names match it).
std::vector<Interval> type_values(Scalar t);

// A value as rustc writes it in a pattern it reports, or an integer in a message about a constant
// (E0220's dividend and shift amount): `5_i32`, `i32::MIN`, `u8::MAX`, `true`, `'a'`,
// `'\u{10ffff}'`.
std::string value_text(Int v, Scalar t);

// Whether `p` matches every value of `t`.
bool everything(const Pat& p, const Type& t);
// Whether every value that `b` matches, `a` matches too; whether some value matches both.
bool contains(const Pat& a, const Pat& b, const Type& t);
bool overlaps(const Pat& a, const Pat& b);

// The values of a scalar type that some patterns match, as disjoint ranges: the reachability of
// the alternatives of a `match` on a scalar in one pass, each alternative looked up and added in
// O(log n). (Usefulness takes the rows above each alternative afresh: 10,000 alternatives of
// one arm were 50 million rows looked at, and seconds of copying them.)
class Cover {
 public:
  explicit Cover(Scalar t) : type_(t) {}
  // Adds the values `p` matches (`_`, a range, or an or-pattern of them).
  void add(const Pat& p);
  // Whether every value `p` matches is in this cover or in `other`'s.
  bool holds(const Pat& p, const Cover& other) const;

 private:
  // Whether every value of `iv` is in this cover or in `other`'s.
  bool holds(Interval iv, const Cover& other) const;
  // The end of the run of covered values that starts at `v`: the last value of the range that
  // holds `v`, or v - 1 when none does.
  Int covered_to(Int v) const;
  Scalar type_;
  std::map<Int, Int> ranges_;  // lo -> hi, disjoint and apart by at least one value
};

class Usefulness {
 public:
  explicit Usefulness(size_t budget) : budget_(budget) {}
  // Whether some value of type `t` matches `v` and none of `rows`.
  bool useful(const std::vector<const Pat*>& rows, const Pat& v, const Type& t);
  // The patterns, as rustc writes them, of the values of type `t` that no row matches (none when
  // the rows are exhaustive). `scrutinee_scalar`: `t` is the scrutinee's own scalar type, whose
  // missing ranges rustc names one by one even when no row names a value.
  std::vector<std::string> missing(const std::vector<const Pat*>& rows, const Type& t,
                                   bool scrutinee_scalar);
  // The work allowed ran out: the answers are not to be trusted (rustc's pattern complexity limit).
  bool exhausted() const { return exhausted_; }

 private:
  // A row is a list of its columns' patterns that shares its tail: a row without its head is
  // its `tail`, and a row with a new head is one cell in front of the old tail, so taking a
  // column apart copies no row (copying them was two thirds of the time of a long `|` list).
  // Null is the row of no columns.
  struct Cell {
    const Pat* head;
    const Cell* tail;
  };
  using Row = const Cell*;
  using Witness = std::vector<std::string>;
  // The cells a call makes, in cells_, which keeps their addresses while it grows; they are let
  // go when the call that made them returns (no row a call makes outlives it).
  class Scope {
   public:
    explicit Scope(std::deque<Cell>& cells) : cells_(cells), size_(cells.size()) {}
    ~Scope() { cells_.resize(size_); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    std::deque<Cell>& cells_;
    size_t size_;
  };
  Row cell(const Pat* head, Row tail) { return &cells_.emplace_back(Cell{head, tail}); }
  // The row with its head replaced by `front`'s patterns, in order.
  Row with_head(Row row, const std::vector<const Pat*>& front);
  // The rows, each or-pattern at a head made one row per alternative.
  void expand_or(Row row, std::vector<Row>& out);
  // A tuple column's head as the heads of its element columns.
  Row spread(Row row, size_t arity);
  bool useful_rows(const std::vector<Row>& rows, Row v, const std::vector<Type>& types);
  std::vector<Witness> witnesses(const std::vector<Row>& rows, const std::vector<Type>& types,
                                 bool scrutinee);
  // Counts `work` against the budget: a call is kCallWork, and a call also counts the rows times
  // the pieces of its column it goes through (one row a piece: the time of a call grows with both),
  // and the rows once more, which splitting the column reads. Once the budget is spent, useful and
  // missing return at once, and the checker looks at no more alternatives.
  static constexpr size_t kCallWork = 50;
  bool step(size_t work = kCallWork);
  size_t budget_;
  size_t steps_ = 0;
  bool exhausted_ = false;
  std::deque<Cell> cells_;
};

}  // namespace vx::check::patterns
