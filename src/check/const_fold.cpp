// Constant folding for const items (spec/types.md §consts): a const's value may be any
// expression of literals, other consts, operators and casts; it is evaluated here with the
// meaning of spec/semantics.md (wrapping integers, IEEE floats), once, at check time.
#include <cmath>

#include "check/checker_impl.hpp"
#include "support/half.hpp"

namespace vx::check {

namespace {

// Wraps a 64-bit value to the width and signedness of `s`.
int64_t wrap_to(Scalar s, uint64_t v) {
  const ScalarInfo& info = scalar_info(s);
  if (info.bits >= 64) return static_cast<int64_t>(v);
  uint64_t mask = (uint64_t(1) << info.bits) - 1;
  v &= mask;
  if (info.is_signed && (v >> (info.bits - 1)) & 1) v |= ~mask;
  return static_cast<int64_t>(v);
}

double round_to(Scalar s, double v) {
  switch (s) {
    case Scalar::F32:
      return static_cast<float>(v);
    case Scalar::F16:
      return f16_bits_to_f32(f64_to_f16_bits(v));
    case Scalar::BF16:
      return bf16_bits_to_f32(f64_to_bf16_bits(v));
    default:
      return v;
  }
}

}  // namespace

tir::Expr* Checker::fold_constant(tir::Expr* e) {
  using tir::BinOp;
  using tir::ExprKind;
  if (e->kind == ExprKind::Literal) return e;
  auto lit = [&](const Type& t) {
    tir::Expr* r = make(ExprKind::Literal, t, e->span);
    return r;
  };
  if (e->kind == ExprKind::Unary) {
    tir::Expr* a = fold_constant(e->args[0]);
    if (!a) return nullptr;
    tir::Expr* r = lit(e->type);
    Scalar s = e->type.scalar;
    if (is_float(s))
      r->lit.f = -a->lit.f;  // `!` is refused on floats
    else if (s == Scalar::Bool)
      r->lit.i = !a->lit.i;
    else if (e->uop == tir::UnOp::Neg)
      r->lit.i = wrap_to(s, 0 - static_cast<uint64_t>(a->lit.i));
    else
      r->lit.i = wrap_to(s, ~static_cast<uint64_t>(a->lit.i));
    return r;
  }
  if (e->kind == ExprKind::Cast) {
    tir::Expr* a = fold_constant(e->args[0]);
    if (!a) return nullptr;
    tir::Expr* r = lit(e->type);
    Scalar from = a->type.scalar, to = e->type.scalar;
    if (is_float(to)) {
      double v = is_float(from) ? a->lit.f
                 : (is_int(from) && !is_signed_int(from))
                     ? static_cast<double>(static_cast<uint64_t>(a->lit.i))
                     : static_cast<double>(a->lit.i);
      r->lit.f = round_to(to, v);
    } else if (is_float(from)) {
      // Saturating, NaN to 0 (spec/semantics.md §casts).
      double v = std::trunc(a->lit.f);
      const ScalarInfo& info = scalar_info(to);
      long double lo = info.is_signed ? -std::ldexp(1.0L, info.bits - 1) : 0.0L;
      long double hi =
          info.is_signed ? std::ldexp(1.0L, info.bits - 1) - 1 : std::ldexp(1.0L, info.bits) - 1;
      if (std::isnan(v))
        r->lit.i = 0;
      else if (v <= lo)
        r->lit.i = static_cast<int64_t>(lo);
      else if (v >= hi)
        r->lit.i =
            info.is_signed ? static_cast<int64_t>(hi) : wrap_to(to, static_cast<uint64_t>(hi));
      else
        r->lit.i = info.is_signed ? static_cast<int64_t>(v) : wrap_to(to, static_cast<uint64_t>(v));
    } else {
      r->lit.i = wrap_to(to, static_cast<uint64_t>(a->lit.i));
    }
    return r;
  }
  if (e->kind != ExprKind::Binary) return nullptr;
  tir::Expr* a = fold_constant(e->args[0]);
  tir::Expr* b = fold_constant(e->args[1]);
  if (!a || !b) return nullptr;
  tir::Expr* r = lit(e->type);
  Scalar s = a->type.scalar;
  BinOp op = e->bop;
  if (op == BinOp::And || op == BinOp::Or) {
    r->lit.i = op == BinOp::And ? (a->lit.i && b->lit.i) : (a->lit.i || b->lit.i);
    return r;
  }
  bool cmp = op == BinOp::Eq || op == BinOp::Ne || op == BinOp::Lt || op == BinOp::Le ||
             op == BinOp::Gt || op == BinOp::Ge;
  if (is_float(s)) {
    double x = a->lit.f, y = b->lit.f, v = 0;
    bool single = s == Scalar::F32 || s == Scalar::F16 || s == Scalar::BF16;
    if (cmp) {
      bool c = op == BinOp::Eq   ? x == y
               : op == BinOp::Ne ? x != y
               : op == BinOp::Lt ? x < y
               : op == BinOp::Le ? x <= y
               : op == BinOp::Gt ? x > y
                                 : x >= y;
      r->lit.i = c;
      return r;
    }
    if (single) {
      float fx = static_cast<float>(x), fy = static_cast<float>(y);
      v = op == BinOp::Add   ? fx + fy
          : op == BinOp::Sub ? fx - fy
          : op == BinOp::Mul ? fx * fy
          : op == BinOp::Div ? fx / fy
                             : std::fmod(fx, fy);
    } else {
      v = op == BinOp::Add   ? x + y
          : op == BinOp::Sub ? x - y
          : op == BinOp::Mul ? x * y
          : op == BinOp::Div ? x / y
                             : std::fmod(x, y);
    }
    r->lit.f = round_to(s, v);
    return r;
  }
  bool is_signed = is_signed_int(s) || s == Scalar::Bool;
  uint64_t x = static_cast<uint64_t>(a->lit.i), y = static_cast<uint64_t>(b->lit.i);
  if (cmp) {
    bool lt = is_signed ? a->lit.i < b->lit.i : x < y;
    bool eq = x == y;
    r->lit.i = op == BinOp::Eq   ? eq
               : op == BinOp::Ne ? !eq
               : op == BinOp::Lt ? lt
               : op == BinOp::Le ? (lt || eq)
               : op == BinOp::Gt ? !(lt || eq)
                                 : !lt;
    return r;
  }
  int bits = scalar_info(s).bits;
  switch (op) {
    case BinOp::Add:
      r->lit.i = wrap_to(s, x + y);
      break;
    case BinOp::Sub:
      r->lit.i = wrap_to(s, x - y);
      break;
    case BinOp::Mul:
      r->lit.i = wrap_to(s, x * y);
      break;
    case BinOp::Div:
    case BinOp::Rem:
      if (y == 0) {
        error("E0206", e->span, "the const's value divides by zero", "division by zero");
        return nullptr;
      }
      if (is_signed) {
        int64_t sx = a->lit.i, sy = b->lit.i;
        bool overflow = sy == -1 && sx == wrap_to(s, uint64_t(1) << (bits - 1));
        if (op == BinOp::Div)
          r->lit.i = overflow ? sx : wrap_to(s, static_cast<uint64_t>(sx / sy));
        else
          r->lit.i = overflow ? 0 : sx % sy;
      } else {
        r->lit.i = wrap_to(s, op == BinOp::Div ? x / y : x % y);
      }
      break;
    case BinOp::BitAnd:
      r->lit.i = wrap_to(s, x & y);
      break;
    case BinOp::BitOr:
      r->lit.i = wrap_to(s, x | y);
      break;
    case BinOp::BitXor:
      r->lit.i = wrap_to(s, x ^ y);
      break;
    case BinOp::Shl:
    case BinOp::Shr: {
      bool neg = is_signed_int(b->type.scalar) && b->lit.i < 0;
      if (neg || y >= static_cast<uint64_t>(bits)) {
        error("E0206", e->span,
              "the const's value shifts by " + std::to_string(b->lit.i) +
                  ", not less than the width " + std::to_string(bits));
        return nullptr;
      }
      if (op == BinOp::Shl)
        r->lit.i = wrap_to(s, x << y);
      else
        r->lit.i =
            is_signed
                ? (a->lit.i >> y)
                : static_cast<int64_t>((x & (bits == 64 ? ~0ull : ((1ull << bits) - 1))) >> y);
      break;
    }
    default:
      return nullptr;
  }
  return r;
}

}  // namespace vx::check
