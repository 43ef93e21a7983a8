// Operators as typed nodes (spec/semantics.md §4–§6): each node is a template over the C++ type
// of its operands, with local and constant operands read in place (OpAny). Casts are in
// compile_cast.cpp, indexing in compile_index.cpp.
#include "interp/compiler.hpp"

namespace vx::interp {
namespace {

using tir::BinOp;
using tir::ExprKind;

// ---- Arithmetic, comparisons, logic ------------------------------------------------------------

template <class T, BinOp Op>
struct Binary final : ExprImpl<Binary<T, Op>, T> {
  OpAny<T> l;
  OpAny<T> r;
  Span span;
  T eval(Frame& f) const override {
    const T a = l.get(f);
    const T b = r.get(f);
    return apply_arith<Op>(a, b, span);
  }
};

template <class T, BinOp Op>
struct Compare final : ExprImpl<Compare<T, Op>, bool> {
  OpAny<T> l;
  OpAny<T> r;
  bool eval(Frame& f) const override {
    const T a = l.get(f);
    const T b = r.get(f);
    return apply_cmp<Op>(a, b);
  }
};

template <bool IsAnd>
struct Logic final : ExprImpl<Logic<IsAnd>, bool> {
  const ExprT<bool>* l;
  const ExprT<bool>* r;
  bool eval(Frame& f) const override {
    if constexpr (IsAnd)
      return l->eval(f) && r->eval(f);
    else
      return l->eval(f) || r->eval(f);
  }
};

template <class T, bool Left>
struct Shift final : ExprImpl<Shift<T, Left>, T> {
  const ExprT<T>* l;
  IntOperand r;
  Span span;
  Scalar lhs;
  T eval(Frame& f) const override {
    const T a = l->eval(f);
    return op_shift(a, r.get(f), r.is_unsigned, Left, span, lhs);
  }
};

template <class T, bool IsNeg>
struct Unary final : ExprImpl<Unary<T, IsNeg>, T> {
  const ExprT<T>* a;
  T eval(Frame& f) const override {
    if constexpr (IsNeg)
      return op_neg(a->eval(f));
    else
      return op_not(a->eval(f));
  }
};

template <template <class, BinOp> class N, class T, BinOp Op>
const Node* make_binary(Compiler& c, const tir::Expr& e) {
  auto* n = c.make<N<T, Op>>();
  n->l = c.op_any<T>(*e.args[0]);
  n->r = c.op_any<T>(*e.args[1]);
  if constexpr (requires { n->span; }) n->span = e.span;
  return n;
}

template <BinOp Op>
const Node* arith(Compiler& c, const tir::Expr& e) {
  return with_scalar(e.args[0]->type.scalar, [&](auto tag) -> const Node* {
    using T = decltype(tag);
    if constexpr (kArithValid<T, Op>)
      return make_binary<Binary, T, Op>(c, e);
    else
      internal_error(std::string("operator ") + tir::binop_spelling(Op) + " on " +
                     scalar_info(e.args[0]->type.scalar).name);
  });
}

template <BinOp Op>
const Node* compare(Compiler& c, const tir::Expr& e) {
  return with_scalar(e.args[0]->type.scalar, [&](auto tag) -> const Node* {
    using T = decltype(tag);
    return make_binary<Compare, T, Op>(c, e);
  });
}

template <bool Left>
const Node* shift(Compiler& c, const tir::Expr& e) {
  return with_scalar(e.args[0]->type.scalar, [&](auto tag) -> const Node* {
    using T = decltype(tag);
    if constexpr (kIsInt<T>) {
      auto* n = c.make<Shift<T, Left>>();
      n->l = c.scalar<T>(*e.args[0]);
      n->r = c.int_operand(*e.args[1]);
      n->span = e.span;
      n->lhs = e.args[0]->type.scalar;
      return n;
    } else {
      internal_error("a shift of a non-integer");
    }
  });
}

template <bool IsAnd>
const Node* logic(Compiler& c, const tir::Expr& e) {
  auto* n = c.make<Logic<IsAnd>>();
  n->l = c.scalar<bool>(*e.args[0]);
  n->r = c.scalar<bool>(*e.args[1]);
  return n;
}

// The node of operator Op, by its class in parse/operators.def.
template <BinOp Op>
const Node* binary_node(Compiler& c, const tir::Expr& e) {
  constexpr tir::OpClass cls = tir::binop_class(Op);
  if constexpr (cls == tir::OpClass::Arith || cls == tir::OpClass::Bits)
    return arith<Op>(c, e);
  else if constexpr (cls == tir::OpClass::Shift)
    return shift<Op == BinOp::Shl>(c, e);
  else if constexpr (cls == tir::OpClass::Compare)
    return compare<Op>(c, e);
  else
    return logic<Op == BinOp::And>(c, e);
}

}  // namespace

const Node* Compiler::binary(const tir::Expr& e) {
  switch (e.bop) {
#define VX_BINOP(E, spelling, precedence, cls, compound, fn) \
  case BinOp::E:                                             \
    return binary_node<BinOp::E>(*this, e);
#include "parse/operators.def"
#undef VX_BINOP
  }
  internal_error("unknown binary operator");
}

const Node* Compiler::unary(const tir::Expr& e) {
  return with_scalar(e.type.scalar, [&](auto tag) -> const Node* {
    using T = decltype(tag);
    if (e.uop == tir::UnOp::Neg) {
      if constexpr (kIsInt<T> || kIsFloat<T>) {
        auto* n = make<Unary<T, true>>();
        n->a = scalar<T>(*e.args[0]);
        return n;
      }
    } else {
      if constexpr (kIsInt<T> || std::is_same_v<T, bool>) {
        auto* n = make<Unary<T, false>>();
        n->a = scalar<T>(*e.args[0]);
        return n;
      }
    }
    internal_error("a unary operator on a type that lacks it");
  });
}

}  // namespace vx::interp
