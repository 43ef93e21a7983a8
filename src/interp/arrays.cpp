// Arrays `[T; N]` in the interpreter (spec/types.md §7). An array local lives in the frame's
// TensorSlot like a tensor (row-major elements in a TensorStorage of its own), so indexing,
// bounds checks and their runtime errors are the tensors' nodes (compile_index.cpp). What differs
// is that an array is a value: reading the local as a value copies it (ArrayVarNode), where a
// tensor local would be moved.
#include <cstring>

#include "interp/compiler.hpp"

namespace vx::interp {

namespace {

std::unique_ptr<TensorStorage> new_array(const vx::Type& t) {
  return std::make_unique<TensorStorage>(t.scalar, Memory::CpuDram, t.dims, false);
}

// An array local. As a value it is a copy; as a place (indexing, `==`, printing) it lends its
// elements.
struct ArrayVarNode final : Node {
  int slot;
  vx::Type type;
  void eval_tensor(Frame& f, TensorSlot& out) const override {
    const TensorView& v = f.t[slot].view;
    auto s = new_array(type);
    std::memcpy(s->data, v.data, static_cast<size_t>(v.size * scalar_size(type.scalar)));
    out.own(std::move(s));
  }
  const TensorView& place(Frame& f, TensorSlot&) const override { return f.t[slot].view; }
};

// `[a, b, c]` (each element a scalar of C++ type T, or an array) or `[v; N]`.
template <class T>
struct ArrayLitNode final : Node {
  vx::Type type;
  std::vector<const ExprT<T>*> scalars;  // scalar elements
  std::vector<const Node*> arrays;       // array elements (a literal of arrays)
  int64_t inner = 1;                     // elements of T in one element of the literal
  bool repeat = false;                   // one element, written at every position
  void eval_tensor(Frame& f, TensorSlot& out) const override {
    auto s = new_array(type);
    T* p = reinterpret_cast<T*>(s->data);
    const int64_t n = type.dims[0];
    if (!scalars.empty()) {
      if (repeat) {
        const T v = scalars[0]->eval(f);
        for (int64_t i = 0; i < n; ++i) p[i] = v;
      } else {
        for (int64_t i = 0; i < n; ++i) p[i] = scalars[static_cast<size_t>(i)]->eval(f);
      }
    } else {
      const size_t bytes = static_cast<size_t>(inner) * sizeof(T);
      for (int64_t i = 0; i < n; ++i) {
        if (repeat && i > 0) {
          std::memcpy(p + i * inner, p, bytes);
          continue;
        }
        TensorSlot tmp;
        arrays[static_cast<size_t>(i)]->eval_tensor(f, tmp);
        std::memcpy(p + i * inner, tmp.view.data, bytes);
      }
    }
    out.own(std::move(s));
  }
};

// `a == b` / `a != b` of two arrays: element by element, as the scalars' `==` (NaN is unequal
// to itself, -0.0 equals 0.0), as Rust's PartialEq for arrays.
struct ArrayEqNode final : ExprT<bool> {
  const Node* left;
  const Node* right;
  Scalar scalar;
  bool negate;
  bool eval(Frame& f) const override {
    TensorSlot ta, tb;
    const TensorView& a = left->place(f, ta);
    const TensorView& b = right->place(f, tb);
    return array_equal(scalar, a, b) != negate;
  }
  uint64_t eval_bits(Frame& f) const override { return eval(f) ? 1 : 0; }
};

}  // namespace

bool array_equal(Scalar s, const TensorView& a, const TensorView& b) {
  const int size = scalar_size(s);
  for (int64_t i = 0; i < a.size; ++i)
    if (!scalar_equal(s, element_bits(s, a.data + i * size), element_bits(s, b.data + i * size)))
      return false;
  return true;
}

std::string format_array(Scalar s, const TensorView& v, const fmt::Spec& spec) {
  const int size = scalar_size(s);
  std::string out;
  int64_t at = 0;
  // One level of brackets per dimension: `[[1, 2], [3, 4]]`.
  auto level = [&](auto& self, int d) -> void {
    out += '[';
    for (int64_t i = 0; i < v.dims[d]; ++i) {
      if (i) out += ", ";
      if (d + 1 < v.rank)
        self(self, d + 1);
      else
        out += format_scalar(s, element_bits(s, v.data + (at++) * size), spec);
    }
    out += ']';
  };
  level(level, 0);
  return out;
}

const Node* Compiler::array_var(const tir::Expr& e) {
  auto* n = make<ArrayVarNode>();
  n->slot = e.slot;
  n->type = e.type;
  return n;
}

const Node* Compiler::array_lit(const tir::Expr& e) {
  return with_scalar(e.type.scalar, [&](auto tag) -> const Node* {
    using T = decltype(tag);
    auto* n = make<ArrayLitNode<T>>();
    n->type = e.type;
    n->repeat = e.args.size() == 1 && e.type.dims[0] > 1;
    for (const tir::Expr* a : e.args) {
      if (a->type.is_array()) {
        n->arrays.push_back(value(*a));
        n->inner = a->type.static_size();
      } else {
        n->scalars.push_back(scalar<T>(*a));
      }
    }
    return n;
  });
}

const Node* Compiler::array_eq(const tir::Expr& e) {
  auto* n = make<ArrayEqNode>();
  n->left = value(*e.args[0]);
  n->right = value(*e.args[1]);
  n->scalar = e.args[0]->type.scalar;
  n->negate = e.bop == tir::BinOp::Ne;
  return n;
}

}  // namespace vx::interp
