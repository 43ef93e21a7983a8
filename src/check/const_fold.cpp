// Constant folding for const items (spec/types.md §consts): a const's value may be any
// expression of literals, other consts, operators and casts; it is evaluated here with the
// meaning of spec/semantics.md, once, at check time, by numeric/vx_arith.h's functions (the ones
// the interpreter and every kernel compute with) on values of the operands' own C++ types.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "check/checker_impl.hpp"
#include "numeric/arith.hpp"
#include "parse/ast.hpp"
#include "support/half.hpp"

namespace vx::check {

namespace {

// The first part of a const's value that is not a literal, a const's name, `-`, `!`, a binary
// operator, `as` or parentheses (spec/semantics.md §1), and what it is; null when there is none.
struct NonConstant {
  const ast::position_tagged* at = nullptr;
  const char* what = nullptr;
};

NonConstant non_constant(const ast::Expr& e);

NonConstant non_constant(const ast::Primary& p) {
  using F = ast::x3::forward_ast<ast::IfExpr>;
  using M = ast::x3::forward_ast<ast::MatchExpr>;
  using B = ast::x3::forward_ast<ast::Block>;
  const NonConstant none;
  return ast::visit(
      p, [&](const ast::FloatLit&) { return none; }, [&](const ast::IntLit&) { return none; },
      [&](const ast::BoolLit&) { return none; }, [&](const ast::StringLit&) { return none; },
      [&](const ast::CharLit&) { return none; },
      [&](const ast::TensorCtor& n) {
        return NonConstant{&n, "a tensor"};
      },
      [&](const ast::MacroCall& n) {
        return NonConstant{&n, "a macro"};
      },
      [&](const ast::PathExpr& n) {
        return n.call_args ? NonConstant{&n, "a call"} : none;
      },
      [&](const ast::ArrayLit& n) {
        return NonConstant{&n, "an array"};
      },
      [&](const ast::StructLit& n) {
        return NonConstant{&n, "a struct"};
      },
      [&](const ast::UnitLit& n) {
        return NonConstant{&n, "`()`"};
      },
      [&](const ast::Paren& n) {
        return n.is_tuple() ? NonConstant{&n, "a tuple"} : non_constant(n.inner.get());
      },
      [&](const ast::UnsafeBlock& n) {
        return NonConstant{&n, "a block"};
      },
      [&](const ast::LoopExpr& n) {
        return NonConstant{&n, "a loop"};
      },
      [&](const F& n) {
        return NonConstant{&n.get(), "an `if`"};
      },
      [&](const M& n) {
        return NonConstant{&n.get(), "a `match`"};
      },
      [&](const B& n) {
        return NonConstant{&n.get(), "a block"};
      });
}

NonConstant non_constant(const ast::Cast& c) {
  const ast::Unary& u = c.operand;
  for (const std::string& op : u.ops)
    if (op != "-" && op != "!") return {&u, op == "*" ? "a dereference" : "a reference"};
  if (!u.operand.suffixes.empty()) {
    const ast::Suffix& sfx = u.operand.suffixes.front();
    return {&sfx, ast::visit(
                      sfx, [](const ast::IndexSuffix&) { return "an index"; },
                      [](const ast::MethodSuffix&) { return "a method call"; },
                      [](const ast::FieldSuffix&) { return "a field"; })};
  }
  return non_constant(u.operand.base);
}

NonConstant non_constant(const ast::Expr& e) {
  NonConstant found = non_constant(e.first);
  for (size_t i = 0; i < e.rest.size() && !found.at; ++i) found = non_constant(e.rest[i].operand);
  return found;
}

template <class T>
struct Tag {
  using type = T;
};

// Calls f(Tag<T>{}) with the C++ type T of an integer scalar (bool and char as their values' types:
// bool an i32 of 0 or 1 where it is cast, char a u32 code point).
template <class F>
auto with_int(Scalar s, F f) {
  switch (s) {
    case Scalar::I8:
      return f(Tag<int8_t>{});
    case Scalar::I16:
      return f(Tag<int16_t>{});
    case Scalar::I32:
    case Scalar::Bool:
      return f(Tag<int32_t>{});
    case Scalar::I64:
      return f(Tag<int64_t>{});
    case Scalar::U8:
      return f(Tag<uint8_t>{});
    case Scalar::U16:
      return f(Tag<uint16_t>{});
    case Scalar::U32:
    case Scalar::Char:
      return f(Tag<uint32_t>{});
    default:
      return f(Tag<uint64_t>{});
  }
}

// A literal's integer as T, and T back into a literal (sign- or zero-extended, tir.hpp).
template <class T>
T int_of(const tir::Literal& l) {
  return static_cast<T>(static_cast<uint64_t>(l.i));
}
template <class T>
int64_t to_slot(T v) {
  if constexpr (std::is_signed_v<T>)
    return static_cast<int64_t>(v);
  else
    return static_cast<int64_t>(static_cast<uint64_t>(v));
}

// A value already of a 16-bit float's precision, or any double, rounded once to `s` (f32 and the
// halves); the literal holds the rounded value (an f16's as its exact f32).
double round_to(Scalar s, double v) {
  switch (s) {
    case Scalar::F32:
      return vx_f64_to_f32(v);
    case Scalar::F16:
      return f16_bits_to_f32(f64_to_f16_bits(v));
    case Scalar::BF16:
      return bf16_bits_to_f32(f64_to_bf16_bits(v));
    default:
      return v;
  }
}

// An integer of type T to the float type `to`, rounded once.
template <class T>
double int_to_float(Scalar to, T v) {
  switch (to) {
    case Scalar::F32:
      return vx_int_to_float<float>(v);
    case Scalar::F64:
      return vx_int_to_float<double>(v);
    case Scalar::F16:
      return f16_bits_to_f32(vx_int_to_half_bits(v, true));
    default:
      return bf16_bits_to_f32(vx_int_to_half_bits(v, false));
  }
}

// A float's exact value to the integer type `to`: saturating, NaN to 0.
int64_t float_to_int(Scalar to, double v) {
  return with_int(to,
                  [&](auto tag) { return to_slot(vx_saturate<typename decltype(tag)::type>(v)); });
}

// A comparison of two values of one type (IEEE's on floats: NaN is unordered).
template <class T>
bool compare(tir::BinOp op, T x, T y) {
  using tir::BinOp;
  return op == BinOp::Eq   ? x == y
         : op == BinOp::Ne ? x != y
         : op == BinOp::Lt ? x < y
         : op == BinOp::Le ? x <= y
         : op == BinOp::Gt ? x > y
                           : x >= y;
}

// `x op y` on floats of type s (f16 and bf16 in f32, rounded back once).
double float_arith(Scalar s, tir::BinOp op, double x, double y) {
  using tir::BinOp;
  auto apply = [&](auto a, auto b) -> double {
    switch (op) {
      case BinOp::Add:
        return vx_add(a, b);
      case BinOp::Sub:
        return vx_sub(a, b);
      case BinOp::Mul:
        return vx_mul(a, b);
      case BinOp::Div:
        return vx_div(a, b, nullptr);
      default:
        return vx_rem(a, b, nullptr);
    }
  };
  if (s == Scalar::F64) return apply(x, y);
  return round_to(s, apply(static_cast<float>(x), static_cast<float>(y)));
}

}  // namespace

tir::Expr* Checker::check_const_value(const ConstInfo& c) {
  const ast::Expr& value = c.item->value;
  if (const NonConstant found = non_constant(value); found.at) {
    auto& d = error("E0206", span(value),
                    c.type.kind == TypeKind::String
                        ? "the value of a `&str` const must be a string literal"
                        : "the value of a const must be made of literals, consts, operators and "
                          "casts",
                    "not a constant value");
    const std::string why = std::string(found.what) + " is not a constant";
    const Span part = span(*found.at);
    if (part.begin == d.span.begin && part.end == d.span.end)
      d.label = why;
    else
      d.secondary.push_back({part, why});
    return nullptr;
  }
  // Outside any function or region, whatever use asked for the const first (E0405 is the use's).
  // What it names is the const's (dead_code).
  tir::Function* const saved_fn = fn_;
  const int saved_index = fn_index_, saved_spawn = spawn_depth_;
  tir::ItemUses* const saved_uses = uses_;
  fn_ = nullptr;
  fn_index_ = -1;
  spawn_depth_ = 0;
  uses_ = &prog_.dead_code.by_const[c.item->name.name];
  tir::Expr* e = check_expr(value, &c.type);
  fn_ = saved_fn;
  fn_index_ = saved_index;
  spawn_depth_ = saved_spawn;
  uses_ = saved_uses;
  return e;
}

tir::Expr* Checker::fold_constant(tir::Expr* e, bool report) {
  if (report) return fold_node(e, true);
  if (auto it = quiet_folds_.find(e); it != quiet_folds_.end()) return it->second;
  tir::Expr* folded = fold_node(e, false);
  quiet_folds_[e] = folded;
  return folded;
}

tir::Expr* Checker::fold_node(tir::Expr* e, bool report) {
  using tir::BinOp;
  using tir::ExprKind;
  if (e->kind == ExprKind::Literal) return e;
  if (!report && !e->type.is_scalar()) return nullptr;  // an operand refused already
  auto lit = [&](const Type& t) { return make(ExprKind::Literal, t, e->span); };
  if (e->kind == ExprKind::Unary) {
    tir::Expr* a = fold_constant(e->args[0], report);
    if (!a) return nullptr;
    tir::Expr* r = lit(e->type);
    const Scalar s = e->type.scalar;
    if (is_float(s))
      r->lit.f = -a->lit.f;  // `!` is refused on floats; negation is exact
    else if (s == Scalar::Bool)
      r->lit.i = vx_bnot(a->lit.i != 0);
    else
      r->lit.i = with_int(s, [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T v = int_of<T>(a->lit);
        return to_slot(e->uop == tir::UnOp::Neg ? vx_neg(v) : vx_bnot(v));
      });
    return r;
  }
  if (e->kind == ExprKind::Cast) {
    tir::Expr* a = fold_constant(e->args[0], report);
    if (!a) return nullptr;
    tir::Expr* r = lit(e->type);
    const Scalar from = a->type.scalar, to = e->type.scalar;
    if (is_float(from) && is_float(to))
      r->lit.f = round_to(to, a->lit.f);  // one rounding from the exact value
    else if (is_float(from))
      r->lit.i = float_to_int(to, a->lit.f);
    else if (is_float(to))
      r->lit.f = with_int(from, [&](auto tag) {
        using T = typename decltype(tag)::type;
        return int_to_float(to, int_of<T>(a->lit));
      });
    else  // modular: the source's value (sign- or zero-extended) in the target's width
      r->lit.i = with_int(to, [&](auto tag) {
        using T = typename decltype(tag)::type;
        return to_slot(int_of<T>(a->lit));
      });
    return r;
  }
  if (e->kind != ExprKind::Binary) return nullptr;
  tir::Expr* a = fold_constant(e->args[0], report);
  tir::Expr* b = fold_constant(e->args[1], report);
  if (!a || !b) return nullptr;
  tir::Expr* r = lit(e->type);
  const Scalar s = a->type.scalar;
  const BinOp op = e->bop;
  if (op == BinOp::And || op == BinOp::Or) {
    r->lit.i = op == BinOp::And ? (a->lit.i && b->lit.i) : (a->lit.i || b->lit.i);
    return r;
  }
  const bool cmp = tir::binop_class(op) == tir::OpClass::Compare;
  if (is_float(s)) {
    const double x = a->lit.f, y = b->lit.f;
    if (cmp)
      r->lit.i = compare(op, x, y);
    else
      r->lit.f = float_arith(s, op, x, y);
    return r;
  }
  if (s == Scalar::Bool) {  // comparisons and the bit operators of bool
    const bool x = a->lit.i != 0, y = b->lit.i != 0;
    r->lit.i = cmp                   ? compare(op, x, y)
               : op == BinOp::BitAnd ? vx_band(x, y)
               : op == BinOp::BitOr  ? vx_bor(x, y)
                                     : vx_bxor(x, y);
    return r;
  }
  const int bits = scalar_info(s).bits;
  int err = 0;
  const bool folded = with_int(s, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T x = int_of<T>(a->lit), y = int_of<T>(b->lit);
    if (cmp) {
      r->lit.i = compare(op, x, y);
      return true;
    }
    // A shift's amount has a type of its own: its value as u64, a negative one far too large.
    const uint64_t amount = static_cast<uint64_t>(b->lit.i);
    // The operator's function, as parse/operators.def names it.
    T v{};
    switch (op) {
#define VX_FOLD_Arith(E, fn)                         \
  case BinOp::E:                                     \
    v = vx_apply(VX_ARITH_CALLABLE(fn), x, y, &err); \
    break;
#define VX_FOLD_Bits VX_FOLD_Arith
#define VX_FOLD_Shift(E, fn) \
  case BinOp::E:             \
    v = fn(x, amount, &err); \
    break;
#define VX_FOLD_Compare(E, fn)
#define VX_FOLD_Logic(E, fn)
#define VX_BINOP(E, spelling, precedence, cls, compound, fn) VX_FOLD_##cls(E, fn)
#include "parse/operators.def"
#undef VX_BINOP
#undef VX_FOLD_Arith
#undef VX_FOLD_Bits
#undef VX_FOLD_Shift
#undef VX_FOLD_Compare
#undef VX_FOLD_Logic
      default:
        return false;
    }
    r->lit.i = to_slot(v);
    return true;
  });
  if (err != 0 && !report) return nullptr;
  if (err == VX_ARITH_DIV_ZERO) {
    error("E0206", e->span, "the const's value divides by zero", "division by zero");
    return nullptr;
  }
  if (err == VX_ARITH_SHIFT) {
    error("E0206", e->span,
          "the const's value shifts by " + std::to_string(b->lit.i) + ", not less than the width " +
              std::to_string(bits));
    return nullptr;
  }
  return folded ? r : nullptr;
}

}  // namespace vx::check
