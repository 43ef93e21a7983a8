// Index expressions as a hash-consed DAG (spec/kernel-rules.md §4): the kernel rules turn the
// index of every tensor access into one node, and two structurally equal expressions are the same
// node. Constants are folded (`x + 0`, `x * 1`, `3 * 4`), nothing is reordered: `t + 1` and
// `1 + t` stay two nodes, which index_poly.hpp's canonical polynomials find equal.
// Every operation keeps the integer type it computes in, so that the prover can refuse an offset
// whose arithmetic may wrap (find_wrap). The graph's depth is bounded (kMaxIndexDepth): a deeper
// expression becomes one opaque leaf, so every recursive walk of a graph is bounded too.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace vx::kr {

// The integer type an operation computes in. `bits == 0`: mathematical integers (the row-major
// combination of in-bounds indices, which cannot wrap).
struct IntType {
  uint8_t bits = 0;
  bool is_signed = true;
  bool math() const { return bits == 0; }
  std::string name() const;  // "i32", "u8", or "an integer"
};

inline constexpr uint32_t kMaxIndexDepth = 512;
// Nodes of a graph when written out as a tree, counted up to this bound.
inline constexpr uint64_t kMaxTreeSize = uint64_t{1} << 40;

enum class IxOp : uint8_t {
  Const,   // `value`
  Loop,    // the index of a loop: `key` is its For statement, `name` its variable
  Var,     // a variable the rule does not fold (mutable, a parameter, a non-integer value):
           // `key` identifies it; whether it is fixed depends on where it was declared
  Symbol,  // a value fixed for the whole function (a `?` dimension of a parameter)
  Opaque,  // a value the rule cannot read: a load, a call, a float cast (`key` is the expression)
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Neg,
};

struct IxNode {
  IxOp op = IxOp::Const;
  int64_t value = 0;
  const void* key = nullptr;
  std::string name;  // Loop, Var, Symbol, Opaque: how the node prints
  const IxNode* a = nullptr;
  const IxNode* b = nullptr;
  IntType type;           // operations: the type they compute in; Loop, Var: the variable's type
  uint32_t depth = 1;     // the longest path to a leaf, this node counted
  uint64_t size = 1;      // nodes when written out as a tree (at most kMaxTreeSize)
  bool too_deep = false;  // an Opaque leaf standing for an expression past kMaxIndexDepth
  bool is_const() const { return op == IxOp::Const; }
  bool is_leaf() const { return op <= IxOp::Opaque; }
};

class IndexDag {
 public:
  const IxNode* constant(int64_t v);
  // A leaf is identified by its key alone; the type given the first time stays.
  const IxNode* loop(const void* key, const std::string& name, IntType t = {});
  const IxNode* var(const void* key, const std::string& name, IntType t = {});
  const IxNode* symbol(const void* key, const std::string& name);
  const IxNode* opaque(const void* key, const std::string& name);
  // Add, Sub, Mul, Div (truncating), Rem computed in `t`; folds constants whose result fits `t`.
  // An operation deeper than kMaxIndexDepth is an opaque leaf named `(too deep)`.
  const IxNode* binary(IxOp op, const IxNode* a, const IxNode* b, IntType t = {});
  const IxNode* neg(const IxNode* a, IntType t = {});
  size_t size() const { return nodes_.size(); }

 private:
  using Key = std::tuple<int, int64_t, const void*, const IxNode*, const IxNode*, int>;
  const IxNode* intern(IxNode n);
  const IxNode* too_deep();
  std::deque<IxNode> nodes_;
  std::deque<char> too_deep_keys_;  // one distinct key per expression cut off at the depth bound
  std::map<Key, const IxNode*> index_;
};

// The node as Vx source: `(16 * by + ty) * 512 + 16 * bx + tx`. A node that would print longer
// than a few hundred nodes prints each shared sub-expression once, by name:
// `e2 * e2, where e1 = t * t, e2 = e1 * e1`.
std::string to_string(const IxNode* n);

// Whether `v` is a value of type `t` (always, for mathematical integers).
bool fits(__int128 v, IntType t);

// The first operation (innermost first) whose result may wrap where it matters, when
// every leaf lies in `leaf_range(leaf)` (inclusive; nullopt: the whole range of the leaf's type,
// or unbounded for a mathematical leaf). `lo`, `hi`: the range the operation can reach.
struct Wrap {
  const IxNode* node = nullptr;
  __int128 lo = 0, hi = 0;
};
using LeafRange = std::function<std::optional<std::pair<int64_t, int64_t>>(const IxNode*)>;
// A wrap is harmless where it keeps different passes different: in a sub-expression that is
// fixed (`fixed_leaf` of all its leaves: the same in every pass), and in a sum of a fixed value
// and the rest of one dimension's index (a bijection modulo 2^bits).
std::optional<Wrap> find_wrap(const IxNode* n, const LeafRange& leaf_range,
                              const std::function<bool(const IxNode*)>& fixed_leaf = {});
// Whether no operation of `n` can leave its type's range when every leaf lies in `leaf_range`
// (stricter than find_wrap, which lets a fixed value wrap): then `n` computes its value in
// mathematical integers.
bool never_wraps(const IxNode* n, const LeafRange& leaf_range);
// "may be as large as 8589934591" / "as small as -…": what `w` says, for messages.
std::string describe_wrap(const Wrap& w);
// The close variant that does not wrap, for a help: the operation of `w` computed in i32 or i64,
// the narrowest wider than its type that holds every value it may take, its operand cast:
// "compute `l * 3` in i64, which holds every value it takes (up to 6442450938): `(l as i64) *
// 3`, and cast the index's other terms with it". Empty when neither holds them, or when a leaf of
// the operation is not a name of the source (a stepped loop's `step(c)`, a dimension's `dim1`).
std::string widen_help(const Wrap& w);
// The values `n` can take, its operations wrapping as Vx's integers do (an operation that may
// wrap can give any value of its type).
std::pair<__int128, __int128> value_range(const IxNode* n, const LeafRange& leaf_range);
std::string int128_text(__int128 v);

// Evaluates a node with `value_of` for the leaves (Loop, Var, Symbol, Opaque); nullopt when a
// leaf has no value, on division by zero or on overflow. Operations wrap as Vx's integers do in
// their type (a mathematical operation that overflows i64 gives nullopt).
// `v` reduced to the range of `t` as two's complement does; nullopt for a mathematical value
// outside int64.
std::optional<int64_t> wrap_to(__int128 v, IntType t);

template <class F>
std::optional<int64_t> evaluate(const IxNode* n, const F& value_of) {
  switch (n->op) {
    case IxOp::Const:
      return n->value;
    case IxOp::Loop:
    case IxOp::Var:
    case IxOp::Symbol:
    case IxOp::Opaque:
      return value_of(n);
    default:
      break;
  }
  auto x = evaluate(n->a, value_of);
  if (!x) return std::nullopt;
  std::optional<int64_t> y;
  if (n->op != IxOp::Neg) {
    y = evaluate(n->b, value_of);
    if (!y) return std::nullopt;
  }
  __int128 a = *x, b = y ? *y : 0, r = 0;
  switch (n->op) {
    case IxOp::Neg:
      r = -a;
      break;
    case IxOp::Add:
      r = a + b;
      break;
    case IxOp::Sub:
      r = a - b;
      break;
    case IxOp::Mul:
      if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
      break;
    case IxOp::Div:
      if (b == 0) return std::nullopt;
      r = a / b;
      break;
    case IxOp::Rem:
      if (b == 0) return std::nullopt;
      r = a % b;
      break;
    default:
      return std::nullopt;
  }
  return wrap_to(r, n->type);
}

// Calls `f` on each leaf under `root`, once: `seen` holds the nodes already walked and gets
// those walked here, so that a shared sub-expression is walked once, not once per path.
template <class F>
void for_each_leaf(const IxNode* root, std::set<const IxNode*>& seen, const F& f) {
  std::vector<const IxNode*> stack{root};
  while (!stack.empty()) {
    const IxNode* n = stack.back();
    stack.pop_back();
    if (!n || !seen.insert(n).second) continue;
    if (n->is_leaf()) {
      f(n);
      continue;
    }
    stack.push_back(n->b);
    stack.push_back(n->a);
  }
}

// A condition an access runs under, for the examples that messages give (spec/kernel-rules.md
// §4): the access runs in a pass only where `a cmp b` is `holds` (an `if`'s branch, or its
// `else`). A `||` where it holds (or `&&` where it does not) is `any_of`: the guard holds where
// every guard of one of its lists holds, and `cmp`, `a`, `b` and `holds` are not read. The proof
// itself reads no condition.
struct Guard {
  enum Cmp { Eq, Ne, Lt, Le, Gt, Ge } cmp = Eq;
  const IxNode* a = nullptr;
  const IxNode* b = nullptr;
  bool holds = true;
  std::vector<std::vector<Guard>> any_of;
};

// Calls f(node) for each side of each comparison of `guards`, those of `any_of` included.
template <class F>
void for_each_compared(const std::vector<Guard>& guards, const F& f) {
  for (const Guard& g : guards) {
    if (!g.any_of.empty()) {
      for (const std::vector<Guard>& one : g.any_of) for_each_compared(one, f);
      continue;
    }
    f(g.a);
    f(g.b);
  }
}

template <class F>
std::optional<bool> guards_hold(const std::vector<Guard>& guards, const F& value_of);

// Whether `g` holds with `value_of` for the leaves; nullopt when it cannot be evaluated.
template <class F>
std::optional<bool> guard_holds(const Guard& g, const F& value_of) {
  if (!g.any_of.empty()) {
    std::optional<bool> one = false;
    for (const std::vector<Guard>& alternative : g.any_of) {
      auto holds = guards_hold(alternative, value_of);
      if (holds && *holds) return true;
      if (!holds) one = std::nullopt;
    }
    return one;
  }
  auto x = evaluate(g.a, value_of), y = evaluate(g.b, value_of);
  if (!x || !y) return std::nullopt;
  bool v = false;
  switch (g.cmp) {
    case Guard::Eq:
      v = *x == *y;
      break;
    case Guard::Ne:
      v = *x != *y;
      break;
    case Guard::Lt:
      v = *x < *y;
      break;
    case Guard::Le:
      v = *x <= *y;
      break;
    case Guard::Gt:
      v = *x > *y;
      break;
    case Guard::Ge:
      v = *x >= *y;
      break;
  }
  return v == g.holds;
}

// Whether every guard holds with `value_of` for the leaves: false when one does not, else nullopt
// when one cannot be evaluated.
template <class F>
std::optional<bool> guards_hold(const std::vector<Guard>& guards, const F& value_of) {
  std::optional<bool> all = true;
  for (const Guard& g : guards) {
    auto holds = guard_holds(g, value_of);
    if (!holds)
      all = std::nullopt;
    else if (!*holds)
      return false;
  }
  return all;
}

// Whether a pass gets to an access (a kernel's own, or one in a helper it calls), for the
// examples messages give; the proof reads none of it (pass_guards.hpp): the conditions of the
// `if`s around it, whether something else on the way decides it that they do not say (a
// `while`, a range that may be empty, a `break`, a helper's loop…), and whether it is in a branch
// of an `if` (or the right side of `&&`, `||`).
struct Reach {
  std::vector<Guard> guards;
  bool unknown = false;
  bool conditional = false;
};

}  // namespace vx::kr
