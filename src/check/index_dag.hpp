// Index expressions as a hash-consed DAG (spec/kernel-rules.md §4): the kernel rules turn the
// index of every tensor access into one node, and two structurally equal expressions are the same
// node, so the same-expression rule of seed 001 is a pointer comparison. Constants are folded
// (`x + 0`, `x * 1`, `3 * 4`), nothing is reordered: `t + 1` and `1 + t` stay two nodes.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <tuple>

namespace vx::kr {

enum class IxOp : uint8_t {
  Const,   // `value`
  Loop,    // the index of a loop: `key` is its For statement, `name` its variable
  Var,     // a variable the rule does not fold (mutable, a parameter, a non-integer value):
           // `key` identifies it; whether it is fixed depends on where it was declared
  Symbol,  // a value fixed for the whole function (a `?` dimension of a parameter)
  Opaque,  // a value the rule cannot read: a load, a call, a float cast (`key` is the expression)
  Add, Sub, Mul, Div, Rem, Neg,
};

struct IxNode {
  IxOp op = IxOp::Const;
  int64_t value = 0;
  const void* key = nullptr;
  std::string name;  // Loop, Var, Symbol, Opaque: how the node prints
  const IxNode* a = nullptr;
  const IxNode* b = nullptr;
  bool is_const() const { return op == IxOp::Const; }
  bool is_leaf() const { return op <= IxOp::Opaque; }
};

class IndexDag {
 public:
  const IxNode* constant(int64_t v);
  const IxNode* loop(const void* key, const std::string& name);
  const IxNode* var(const void* key, const std::string& name);
  const IxNode* symbol(const void* key, const std::string& name);
  const IxNode* opaque(const void* key, const std::string& name);
  // Add, Sub, Mul, Div (truncating), Rem; folds constants that do not overflow.
  const IxNode* binary(IxOp op, const IxNode* a, const IxNode* b);
  const IxNode* neg(const IxNode* a);
  size_t size() const { return nodes_.size(); }

 private:
  using Key = std::tuple<int, int64_t, const void*, const IxNode*, const IxNode*>;
  const IxNode* intern(IxNode n);
  std::deque<IxNode> nodes_;
  std::map<Key, const IxNode*> index_;
};

// The node as Vx source: `(16 * by + ty) * 512 + 16 * bx + tx`.
std::string to_string(const IxNode* n);

// Evaluates a node with `value_of` for the leaves (Loop, Var, Symbol, Opaque); nullopt when a
// leaf has no value, on division by zero or on overflow.
template <class F>
std::optional<int64_t> evaluate(const IxNode* n, const F& value_of) {
  switch (n->op) {
    case IxOp::Const: return n->value;
    case IxOp::Loop: case IxOp::Var: case IxOp::Symbol: case IxOp::Opaque: return value_of(n);
    default: break;
  }
  auto x = evaluate(n->a, value_of);
  if (!x) return std::nullopt;
  if (n->op == IxOp::Neg) return -*x;
  auto y = evaluate(n->b, value_of);
  if (!y) return std::nullopt;
  int64_t r = 0;
  switch (n->op) {
    case IxOp::Add: if (__builtin_add_overflow(*x, *y, &r)) return std::nullopt; return r;
    case IxOp::Sub: if (__builtin_sub_overflow(*x, *y, &r)) return std::nullopt; return r;
    case IxOp::Mul: if (__builtin_mul_overflow(*x, *y, &r)) return std::nullopt; return r;
    case IxOp::Div: if (*y == 0 || (*y == -1 && *x == INT64_MIN)) return std::nullopt; return *x / *y;
    case IxOp::Rem: if (*y == 0 || (*y == -1 && *x == INT64_MIN)) return std::nullopt; return *x % *y;
    default: return std::nullopt;
  }
}

}  // namespace vx::kr
