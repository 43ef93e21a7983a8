// Literals: integers and floats (their digits, radix and suffix, the type an unsuffixed one takes
// from what is expected, the range of that type, and how to give a `let` of one another type),
// characters and strings (spec/types.md §literals, spec/grammar.md §1.3).
#include <cmath>

#include "check/checker_impl.hpp"
#include "support/half.hpp"
#include "support/utf8.hpp"

namespace vx::check {

namespace {

// Splits a literal into its digits and its suffix (`1_000u32` -> "1000", "u32").
void split_literal(const std::string& text, bool is_float, std::string& digits, std::string& suffix,
                   int& radix) {
  radix = 10;
  size_t i = 0;
  if (!is_float && text.size() > 1 && text[0] == '0' &&
      (text[1] == 'x' || text[1] == 'b' || text[1] == 'o')) {
    radix = text[1] == 'x' ? 16 : text[1] == 'b' ? 2 : 8;
    i = 2;
  }
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '_') continue;
    bool ok;
    if (radix == 16)
      ok = std::isxdigit(static_cast<unsigned char>(c));
    else if (is_float)
      ok = std::isdigit(static_cast<unsigned char>(c)) || c == '.' ||
           ((c == 'e' || c == 'E') && i + 1 < text.size() &&
            (std::isdigit(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '+' ||
             text[i + 1] == '-')) ||
           ((c == '+' || c == '-') && i > 0 && (text[i - 1] == 'e' || text[i - 1] == 'E'));
    else
      ok = std::isdigit(static_cast<unsigned char>(c));
    if (!ok) break;
    digits += c;
  }
  suffix = text.substr(i);
  // A hex literal with an `i`/`u` suffix: the suffix starts at the `i` or `u`.
  if (radix == 16) {
    size_t k = text.find_first_of("iu", 2);
    if (k != std::string::npos) {
      digits.clear();
      for (size_t j = 2; j < k; ++j)
        if (text[j] != '_') digits += text[j];
      suffix = text.substr(k);
    }
  }
}

}  // namespace

tir::Expr* Checker::check_int_lit(const ast::IntLit& l, const Type* expected, bool negate, Span s) {
  std::string digits, suffix;
  int radix;
  split_literal(l.text, false, digits, suffix, radix);
  Type t = Type::of(Scalar::I32);
  if (!suffix.empty()) {
    Scalar sc;
    if (!scalar_by_name(suffix, sc) || !is_number(sc)) {
      auto& d = error("E0004", s, "invalid suffix `" + suffix + "` for a number literal",
                      "invalid suffix");
      d.helps.push_back("the suffixes are i8 i16 i32 i64 u8 u16 u32 u64 f16 bf16 f32 f64");
      return error_expr(s);
    }
    t = Type::of(sc);
    if (is_float(sc)) {
      if (radix != 10) {
        error("E0004", s, "a float literal cannot be written in base " + std::to_string(radix));
        return error_expr(s);
      }
      ast::FloatLit fl;
      fl.text = l.text;
      return check_float_lit(fl, &t, negate, s);
    }
  } else if (expected && expected->is_scalar() && is_int(expected->scalar)) {
    t = *expected;
  }
  if (digits.empty()) {
    error("E0004", s, "a number literal needs digits", "no digits");
    return error_expr(s);
  }
  // Read the magnitude, refusing overflow of 64 bits.
  unsigned __int128 v = 0;
  for (char c : digits) {
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::tolower(c) - 'a' + 10;
    if (d >= radix) {
      error(
          "E0004", s,
          std::string("invalid digit `") + c + "` in a base " + std::to_string(radix) + " literal");
      return error_expr(s);
    }
    v = v * radix + d;
    if (v > (static_cast<unsigned __int128>(1) << 64)) break;
  }
  const ScalarInfo& info = scalar_info(t.scalar);
  unsigned __int128 max_pos = info.is_signed
                                  ? (static_cast<unsigned __int128>(1) << (info.bits - 1)) - 1
                                  : (static_cast<unsigned __int128>(1) << info.bits) - 1;
  unsigned __int128 max_neg =
      info.is_signed ? (static_cast<unsigned __int128>(1) << (info.bits - 1)) : 0;
  if (negate && !info.is_signed) {
    auto& d = error("E0202", s, "cannot negate a literal of unsigned type `" + type_name(t) + "`",
                    "unsigned");
    (void)d;
    return error_expr(s);
  }
  if ((!negate && v > max_pos) || (negate && v > max_neg)) {
    auto& d = error("E0004", s, "literal out of range for `" + type_name(t) + "`",
                    "does not fit in `" + type_name(t) + "`");
    d.notes.push_back(
        "the range of `" + type_name(t) + "` is " +
        (info.is_signed ? "-" + std::to_string(static_cast<uint64_t>(max_neg)) : "0") + " to " +
        std::to_string(static_cast<uint64_t>(max_pos)));
    return error_expr(s);
  }
  tir::Expr* e = make(tir::ExprKind::Literal, t, s);
  uint64_t u = static_cast<uint64_t>(v);
  e->lit.i = negate ? static_cast<int64_t>(0 - u) : static_cast<int64_t>(u);
  return e;
}

tir::Expr* Checker::check_float_lit(const ast::FloatLit& l, const Type* expected, bool negate,
                                    Span s) {
  std::string digits, suffix;
  int radix;
  split_literal(l.text, true, digits, suffix, radix);
  Type t = Type::of(Scalar::F64);
  if (!suffix.empty()) {
    Scalar sc;
    if (!scalar_by_name(suffix, sc) || !is_float(sc)) {
      auto& d = error("E0004", s, "invalid suffix `" + suffix + "` for a float literal",
                      "invalid suffix");
      d.helps.push_back("the float suffixes are f16 bf16 f32 f64");
      return error_expr(s);
    }
    t = Type::of(sc);
  } else if (expected && expected->is_scalar() && is_float(expected->scalar)) {
    t = *expected;
  }
  std::string text = (negate ? "-" : "") + digits;
  tir::Expr* e = make(tir::ExprKind::Literal, t, s);
  switch (t.scalar) {
    case Scalar::F32:
      e->lit.f = std::strtof(text.c_str(), nullptr);
      break;
    case Scalar::F16:
      e->lit.f = f16_bits_to_f32(f64_to_f16_bits(std::strtod(text.c_str(), nullptr)));
      break;
    case Scalar::BF16:
      e->lit.f = bf16_bits_to_f32(f64_to_bf16_bits(std::strtod(text.c_str(), nullptr)));
      break;
    default:
      e->lit.f = std::strtod(text.c_str(), nullptr);
      break;
  }
  if (std::isinf(e->lit.f)) {
    error("E0004", s, "literal out of range for `" + type_name(t) + "`", "rounds to infinity");
    return error_expr(s);
  }
  return e;
}

// A `let` of an unsuffixed literal whose type is not the one wanted: how to give it that one.
void Checker::literal_type_help(Diagnostic& d, const tir::Expr* e, const Type& wanted) {
  if (e->kind != tir::ExprKind::Var) return;
  const Local* l = lookup(e->text);
  if (l && l->slot == e->slot) literal_type_help(d, *l, wanted);
}

namespace {

// Whether an integer value is in the range of the integer type `s`.
bool int_fits(int64_t v, Scalar s) {
  const ScalarInfo& info = scalar_info(s);
  const __int128 top = __int128{1} << (info.is_signed ? info.bits - 1 : info.bits);
  return v >= (info.is_signed ? -top : 0) && v < top;
}

// Whether a float literal of value `f` is out of range for the float type `s` (E0004).
bool rounds_to_infinity(double f, Scalar s) {
  switch (s) {
    case Scalar::F16:
      return std::isinf(f16_bits_to_f32(f64_to_f16_bits(f)));
    case Scalar::BF16:
      return std::isinf(bf16_bits_to_f32(f64_to_bf16_bits(f)));
    case Scalar::F32:  // from 2^128 - 2^103, half an ulp above the largest f32, it rounds up
      return std::abs(f) >= std::ldexp(1.0, 128) - std::ldexp(1.0, 103);
    default:
      return std::isinf(f);
  }
}

}  // namespace

void Checker::literal_type_help(Diagnostic& d, const Local& l, const Type& wanted) {
  const tir::Expr* v = l.literal_value;
  if (!v || !l.type.is_scalar() || !wanted.is_scalar() || !is_number(wanted.scalar) ||
      is_float(wanted.scalar) != is_float(l.type.scalar) || wanted == l.type)
    return;
  // The `let` it suggests must be accepted: an integer only when it is one literal that fits.
  const bool one = v->kind == tir::ExprKind::Literal;
  if (is_int(wanted.scalar) && !(one && int_fits(v->lit.i, wanted.scalar))) return;
  if (is_float(wanted.scalar) && one && rounds_to_infinity(v->lit.f, wanted.scalar)) return;
  const std::string has = type_name(l.type), want = type_name(wanted);
  d.secondary.push_back({v->span, "`" + l.name + "` is `" + has +
                                      "`: this literal has no suffix, and its `let` no type"});
  const std::string_view init =
      std::string_view(diags_.file().text()).substr(v->span.begin, v->span.end - v->span.begin);
  const bool short_init = init.size() <= 40 && init.find('\n') == std::string_view::npos;
  d.helps.push_back("give `" + l.name + "` the type `" + want + "`: `let " +
                    (l.is_mut ? "mut " : "") + l.name + ": " + want + " = " +
                    (short_init ? std::string(init) : "…") + ";`");
}

tir::Expr* Checker::string_literal(const ast::StringLit& l, Span s) {
  tir::Expr* e = make(tir::ExprKind::String, Type::kind_only(TypeKind::String), s);
  e->text = l.value;
  return e;
}

// A character literal holds exactly one code point (spec/grammar.md §1.3); rustc's words for the
// others.
tir::Expr* Checker::check_char_lit(const ast::CharLit& l, Span s) {
  size_t i = 0;
  const uint32_t cp = l.value.empty() ? 0 : decode_utf8(l.value, i);
  if (l.value.empty() || i != l.value.size()) {
    auto& d = error("E0004", s,
                    l.value.empty() ? "empty character literal"
                                    : "character literal may only contain one codepoint",
                    l.value.empty() ? "empty" : "more than one code point");
    if (!l.value.empty())
      d.helps.push_back("if you meant to write a string literal, use double quotes: `\"" + l.value +
                        "\"`");
    return error_expr(s);
  }
  tir::Expr* e = make(tir::ExprKind::Literal, Type::of(Scalar::Char), s);
  e->lit.i = cp;
  return e;
}

}  // namespace vx::check
