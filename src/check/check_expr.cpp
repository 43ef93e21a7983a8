// Expressions: operator precedence, variables and moves, indexing and views, references, casts,
// `if` and blocks, paths (spec/types.md, spec/grammar.md §precedence). Literals are in
// check_literals.cpp.
#include <algorithm>
#include <boost/variant/get.hpp>
#include <cmath>
#include <limits>
#include <set>

#include "check/checker_impl.hpp"
#include "check/lints.hpp"
#include "check/match_usefulness.hpp"
#include "support/half.hpp"
#include "support/internal_error.hpp"
#include "support/suggest.hpp"

namespace vx::check {

namespace {

struct OpInfo {
  int prec;
  tir::BinOp op;
};

// Rust's precedence, 1 the loosest (parse/operators.def, spec/grammar.md).
const std::map<std::string, OpInfo>& op_table() {
  static const std::map<std::string, OpInfo> table = {
#define VX_BINOP(E, spelling, precedence, cls, compound, fn) \
  {spelling, {precedence, tir::BinOp::E}},
#include "parse/operators.def"
#undef VX_BINOP
  };
  return table;
}

bool is_comparison(tir::BinOp op) { return tir::binop_class(op) == tir::OpClass::Compare; }

Span join(Span a, Span b) {
  if (a.empty() && a.begin == 0) return b;
  if (b.empty() && b.begin == 0) return a;
  return {std::min(a.begin, b.begin), std::max(a.end, b.end)};
}

}  // namespace

tir::Expr* Checker::make(tir::ExprKind k, const Type& t, Span s) { return flat().make(k, t, s); }

tir::Expr* Checker::error_expr(Span s) { return make(tir::ExprKind::Unit, Type::error(), s); }

bool Checker::compatible(const Type& param, const Type& arg) const {
  if (param.is_error() || arg.is_error()) return true;
  if (param.is_struct_ref() && arg.is_struct_ref() && arg.ref_mut && !param.ref_mut) {
    Type shared = arg;  // `&mut P` where `&P` is expected
    shared.ref_mut = false;
    return param == shared;
  }
  if (param.kind == TypeKind::Ref && arg.kind == TypeKind::Ref) {
    if (param.ref_mut && !arg.ref_mut) return false;
  } else if (param.kind != arg.kind) {
    return false;
  }
  if (!param.is_tensor_like()) return param == arg;
  if (param.scalar != arg.scalar || param.memory != arg.memory || param.rank() != arg.rank())
    return false;
  for (int i = 0; i < param.rank(); ++i)
    if (param.dims[i] != kUnknownDim && param.dims[i] != arg.dims[i]) return false;
  return true;
}

tir::Expr* Checker::coerce(tir::Expr* e, const Type& expected, Span where, const char* what,
                           const Local* place) {
  if (e->type.is_error() || expected.is_error() || compatible(expected, e->type)) return e;
  std::string msg = "mismatched types: expected `" + type_name(expected) + "`, found `" +
                    type_name(e->type) + "`";
  auto& d = error("E0200", where, msg,
                  std::string(what ? what : "this") + " has type `" + type_name(e->type) + "`");
  // Only where `as` can (types.md §6: only a u8 becomes a char, a char only an integer).
  const bool castable = expected.is_scalar() && e->type.is_scalar() &&
                        (expected.scalar != Scalar::Char || e->type.scalar == Scalar::U8) &&
                        (e->type.scalar != Scalar::Char || is_int(expected.scalar));
  if (castable) d.helps.push_back("convert it with `as " + type_name(expected) + "`");
  run_time_size_help(d, expected, e->type);
  if (place)
    literal_type_help(d, *place, e->type);
  else
    literal_type_help(d, e, expected);
  return error_expr(where);
}

tir::Expr* Checker::use_var(const std::string& name, Span span, bool as_move) {
  Local* l = lookup(name);
  if (!l) {
    Type ct;
    tir::Literal cv;
    if (const_value(name, span, ct, cv)) {
      if (ct.is_error()) return error_expr(span);
      if (ct.kind == TypeKind::String) {
        tir::Expr* e = make(tir::ExprKind::String, ct, span);
        e->text = must_find(consts_, name).text;
        return host_only(e);
      }
      tir::Expr* e = make(tir::ExprKind::Literal, ct, span);
      e->lit = cv;
      return e;
    }
    auto& d = error("E0100", span, "cannot find value `" + name + "` in this scope",
                    "not found in this scope");
    if (fn_by_name_.count(name)) d.helps.push_back("`" + name + "` is a function: call it");
    if (name == "move")  // `move |x| x + 1` parses as `move | x | x + 1`
      d.notes.push_back(
          "Vx has no closures (spec/grammar.md §7); write a `fn` and pass it what "
          "it needs as parameters");
    std::vector<std::string> locals, consts;
    for (const auto& scope : scopes_)
      for (const Local& v : scope) locals.push_back(v.name);
    for (const auto& [c, info] : consts_) consts.push_back(c);
    if (auto near = closest_name(name, locals))
      d.helps.push_back("a local variable with a similar name exists: `" + *near + "`");
    else if (auto near_const = closest_name(name, consts))
      d.helps.push_back("a constant with a similar name exists: `" + *near_const + "`");
    return error_expr(span);
  }
  use_let_borrow(*l, span);
  if (l->moved) {
    auto& d = error("E0301", span, "use of moved value `" + name + "`", "value used after move");
    d.secondary.push_back({l->moved_at, "value moved here"});
    l->moved = false;  // report once
  }
  if (holds_tensor(l->type) && !struct_tensor_allowed(l->type, name, span)) return error_expr(span);
  if (l->type.is_tuple()) {
    if (l->type.struct_ref) return struct_ref_var(*l, span);
    tir::Expr* flat = tuple_var(*l, span);
    if (holds_tensor(l->type))  // what a move of it moves
      struct_values_[flat] = {name, true, false, l->leaves.empty() ? -1 : l->leaves.front()};
    return flat;
  }
  tir::Expr* e = make(tir::ExprKind::Var, l->type, span);
  e->slot = l->slot;
  e->text = name;
  (void)as_move;
  if (l->type.kind == TypeKind::String) return host_only(e);
  return e;
}

std::unique_ptr<OpTree> Checker::fold_chain(const ast::Expr& e) {
  // Precedence climbing over the flat chain the grammar built.
  const auto& table = op_table();
  size_t pos = 0;
  auto leaf = [&](const ast::Cast& c) {
    auto t = std::make_unique<OpTree>();
    t->leaf = &c;
    t->span = span(c);
    return t;
  };
  std::function<std::unique_ptr<OpTree>(std::unique_ptr<OpTree>, int)> climb =
      [&](std::unique_ptr<OpTree> lhs, int min_prec) {
        while (pos < e.rest.size()) {
          const auto& r = e.rest[pos];
          int prec = must_find(table, r.op).prec;
          if (prec < min_prec) break;
          ++pos;
          auto rhs = leaf(r.operand);
          while (pos < e.rest.size() && must_find(table, e.rest[pos].op).prec > prec)
            rhs = climb(std::move(rhs), prec + 1);
          if (prec == 3 && lhs->leaf == nullptr && must_find(table, lhs->op).prec == 3) {
            auto& d = error("E0001", span(r), "comparison operators cannot be chained",
                            "second comparison");
            d.helps.push_back("split it with `&&`, as in `a < b && b < c`");
            lhs->poisoned = true;
          }
          auto node = std::make_unique<OpTree>();
          node->op = r.op;
          node->op_span = span(r);
          node->span = join(lhs->span, rhs->span);
          node->lhs = std::move(lhs);
          node->rhs = std::move(rhs);
          lhs = std::move(node);
        }
        return lhs;
      };
  return climb(leaf(e.first), 0);
}

tir::Expr* Checker::check_expr(const ast::Expr& e, const Type* expected) {
  if (e.rest.empty()) return check_cast(e.first, expected);
  auto tree = fold_chain(e);
  return check_tree(*tree, expected);
}

bool Checker::untyped_literal(const ast::Cast& c) const {
  if (!c.types.empty()) return false;
  for (const auto& op : c.operand.ops)
    if (op != "-") return false;
  const ast::Postfix& p = c.operand.operand;
  if (!p.suffixes.empty()) return false;
  auto suffix_free = [](const std::string& text, bool is_float) {
    size_t i = 0;
    if (!is_float && text.size() > 2 && text[0] == '0' &&
        (text[1] == 'x' || text[1] == 'b' || text[1] == 'o'))
      return text.find_first_of("iu", 2) == std::string::npos;
    while (i < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '_' || text[i] == '.' ||
            ((text[i] == 'e' || text[i] == 'E') && is_float) ||
            ((text[i] == '+' || text[i] == '-') && is_float)))
      ++i;
    return i == text.size();
  };
  return ast::visit(
      p.base, [&](const ast::FloatLit& fl) { return suffix_free(fl.text, true); },
      [&](const ast::IntLit& il) { return suffix_free(il.text, false); },
      [](const ast::BoolLit&) { return false; }, [](const ast::StringLit&) { return false; },
      [](const ast::CharLit&) { return false; }, [](const ast::TensorCtor&) { return false; },
      [](const ast::MacroCall&) { return false; }, [](const ast::PathExpr&) { return false; },
      [](const ast::ArrayLit&) { return false; }, [](const ast::StructLit&) { return false; },
      [](const ast::UnitLit&) { return false; },
      [&](const ast::Paren& par) {
        const ast::Expr& inner = par.inner.get();
        if (par.is_tuple()) {  // a tuple of unsuffixed literals only
          for (const ast::Expr& e : par.rest)
            if (!e.rest.empty() || !untyped_literal(e.first)) return false;
          return inner.rest.empty() && untyped_literal(inner.first);
        }
        return untyped_literal(inner);
      },
      [](const ast::UnsafeBlock&) { return false; }, [](const ast::LoopExpr&) { return false; },
      [](const ast::x3::forward_ast<ast::IfExpr>&) { return false; },
      [](const ast::x3::forward_ast<ast::MatchExpr>&) { return false; },
      [](const ast::x3::forward_ast<ast::Block>&) { return false; });
}

bool Checker::untyped_literal(const ast::Expr& e) const {
  for (const auto& r : e.rest)
    if (!untyped_literal(r.operand)) return false;
  return untyped_literal(e.first);
}

bool Checker::untyped_literal(const OpTree& t) const {
  if (t.leaf) return untyped_literal(*t.leaf);
  return untyped_literal(*t.lhs) && untyped_literal(*t.rhs);
}

tir::Expr* Checker::check_tree(const OpTree& t, const Type* expected) {
  if (t.leaf) return check_cast(*t.leaf, expected);
  if (t.poisoned || (t.lhs && t.lhs->poisoned)) return error_expr(t.span);
  const OpInfo info = must_find(op_table(), t.op);
  tir::BinOp op = info.op;
  tir::Expr* a;
  tir::Expr* b;
  Type boolean = Type::of(Scalar::Bool);
  if (op == tir::BinOp::And || op == tir::BinOp::Or) {
    a = coerce(check_tree(*t.lhs, &boolean), boolean, t.lhs->span, "the left operand");
    b = coerce(check_tree(*t.rhs, &boolean), boolean, t.rhs->span, "the right operand");
  } else if (op == tir::BinOp::Shl || op == tir::BinOp::Shr) {
    a = check_tree(*t.lhs, expected);
    b = check_tree(*t.rhs, nullptr);
  } else {
    const Type* hint = is_comparison(op) ? nullptr : expected;
    if (untyped_literal(*t.lhs) && !untyped_literal(*t.rhs)) {
      b = check_tree(*t.rhs, hint);
      a = check_tree(*t.lhs, b->type.is_error() ? hint : &b->type);
    } else {
      a = check_tree(*t.lhs, hint);
      b = check_tree(*t.rhs, a->type.is_error() ? hint : &a->type);
    }
  }
  Type result = a->type;
  if (a->type.is_error() || b->type.is_error()) return error_expr(t.span);
  auto refuse = [&](const std::string& why) {
    auto& d = error("E0202", t.op_span,
                    "cannot apply `" + t.op + "` to `" + type_name(a->type) + "` and `" +
                        type_name(b->type) + "`",
                    why);
    d.secondary.push_back({a->span, "`" + type_name(a->type) + "`"});
    d.secondary.push_back({b->span, "`" + type_name(b->type) + "`"});
    return error_expr(t.span);
  };
  auto mismatched = [&](bool castable) {
    auto& d = error(
        "E0200", t.op_span,
        "mismatched types: `" + type_name(a->type) + "` " + t.op + " `" + type_name(b->type) + "`",
        "both operands must have one type");
    d.secondary.push_back({a->span, "`" + type_name(a->type) + "`"});
    d.secondary.push_back({b->span, "`" + type_name(b->type) + "`"});
    if (castable) d.helps.push_back("convert one side with `as`");
    literal_type_help(d, a, b->type);
    literal_type_help(d, b, a->type);
    return error_expr(t.span);
  };
  if (a->type.is_tuple() || b->type.is_tuple())  // check_tuple.cpp
    return a->type != b->type    ? mismatched(false)
           : a->type.is_struct() ? struct_compare_error(a->type, t.op, t.op_span, t.span)
                                 : tuple_compare(t, op, a, b);
  const bool strings = a->type.kind == TypeKind::String || b->type.kind == TypeKind::String;
  if (strings && is_comparison(op)) {
    if (a->type != b->type) return mismatched(false);
    tir::Expr* e = make(tir::ExprKind::Binary, Type::of(Scalar::Bool), t.span);
    e->bop = op;  // byte by byte, as Rust orders `str`
    e->args = {a, b};
    return e;
  }
  if (a->type.is_array() || b->type.is_array()) return array_compare(a, b, op, t.op_span, t.span);
  if (!a->type.is_scalar() || !b->type.is_scalar())
    return refuse(strings ? "a string slice has only the comparisons"
                          : "operators work on scalars");
  Scalar sa = a->type.scalar;
  if (op == tir::BinOp::Shl || op == tir::BinOp::Shr) {
    if (!is_int(sa) || !is_int(b->type.scalar)) return refuse("shifts need integers");
  } else if (op != tir::BinOp::And && op != tir::BinOp::Or) {
    // A char has no arithmetic and no bitwise operators whatever the other side (types.md §1):
    // `'a' + 1` is E0202, not a mismatch that a cast would mend.
    const bool has_char = sa == Scalar::Char || b->type.scalar == Scalar::Char;
    if (has_char && !is_comparison(op))
      return refuse(tir::binop_class(op) == tir::OpClass::Bits
                        ? "bitwise operators need integers or bool"
                        : "arithmetic needs numbers; a `char` has none (cast it: `c as u32`)");
    if (a->type != b->type) return mismatched(true);
    const bool arith = tir::binop_class(op) == tir::OpClass::Arith;
    const bool bitwise = tir::binop_class(op) == tir::OpClass::Bits;
    if (arith && !is_number(sa)) return refuse("arithmetic needs numbers");
    if (bitwise && (is_float(sa) || sa == Scalar::Char))
      return refuse("bitwise operators need integers or bool");
    if (is_comparison(op) && sa == Scalar::Bool && op != tir::BinOp::Eq && op != tir::BinOp::Ne)
      return refuse("booleans can only be compared with `==` and `!=`");
  }
  if (is_comparison(op)) result = Type::of(Scalar::Bool);
  always_stops(op, a, a->type, b, t.span);
  tir::Expr* e = make(tir::ExprKind::Binary, result, t.span);
  e->bop = op;
  e->args = {a, b};
  return e;
}

void Checker::always_stops(tir::BinOp op, tir::Expr* left, const Type& left_type, tir::Expr* right,
                           Span s) {
  const bool divides = op == tir::BinOp::Div || op == tir::BinOp::Rem;
  const bool shifts = op == tir::BinOp::Shl || op == tir::BinOp::Shr;
  if (!fn_ || !(divides || shifts) || !right->type.is_scalar() || !is_int(right->type.scalar) ||
      !left_type.is_scalar() || !is_int(left_type.scalar))
    return;
  // The operands' values where they are constant (`1 - 1`, `N * 2`), as rustc's lints see them.
  right = fold_constant(right, false);
  if (!right) return;
  // A constant as rustc names it (`7_i32`, `u64::MAX`: value_text), anything else `_`.
  auto named = [&](tir::Expr* e) -> std::string {
    if (e) e = fold_constant(e, false);
    if (!e || e->kind != tir::ExprKind::Literal) return "_";
    const Scalar t = e->type.scalar;
    using patterns::Int;
    const Int v = is_signed_int(t) ? Int{e->lit.i} : Int{static_cast<uint64_t>(e->lit.i)};
    return patterns::value_text(v, t);
  };
  const int64_t amount = right->lit.i;
  const bool negative = is_signed_int(right->type.scalar) && amount < 0;
  const int bits = scalar_info(left_type.scalar).bits;
  if (divides && amount == 0) {
    auto& d = error("E0220", s, "this operation will panic at runtime",
                    op == tir::BinOp::Div ? "attempt to divide `" + named(left) + "` by zero"
                                          : "attempt to calculate the remainder of `" +
                                                named(left) + "` with a divisor of zero");
    d.notes.push_back(
        "the divisor is a constant, so every run that gets here would stop (spec/semantics.md "
        "§4)");
  } else if (shifts && (negative || static_cast<uint64_t>(amount) >= static_cast<uint64_t>(bits))) {
    auto& d = error("E0220", s, "this arithmetic operation will overflow",
                    std::string("attempt to shift ") + (op == tir::BinOp::Shl ? "left" : "right") +
                        " by `" + named(right) + "`, which would overflow");
    d.notes.push_back("a shift of a `" + type_name(left_type) + "` is by 0 to " +
                      std::to_string(bits - 1) +
                      "; the amount is a constant, so every run that gets here would stop "
                      "(spec/semantics.md §4)");
  }
}

void Checker::always_stops(const tir::Stmt* st, const Type& t, Span target,
                           const ast::Expr& value) {
  if (st->compound)
    always_stops(st->op, nullptr, t, st->value, Span{target.begin, span(value).end});
}

tir::Expr* Checker::check_cast(const ast::Cast& c, const Type* expected) {
  if (c.operand.ops.size() > 256 || c.types.size() > 256) {
    error("E0003", span(c), "too many prefix operators or casts in a row (at most 256)",
          "too deep");
    return error_expr(span(c));
  }
  if (c.types.empty()) return check_unary(c.operand, 0, expected, span(c));
  tir::Expr* e = check_unary(c.operand, 0, nullptr, span(c.operand));
  for (const auto& ty : c.types) {
    Type to = resolve_type(ty);
    if (e->type.is_error() || to.is_error()) {
      e = error_expr(span(c));
      continue;
    }
    if (!e->type.is_scalar() || !to.is_scalar()) {
      error("E0203", span(ty),
            "cannot cast `" + type_name(e->type) + "` to `" + type_name(to) + "`",
            "`as` converts between scalar types");
      e = error_expr(span(c));
      continue;
    }
    if (to.scalar == Scalar::Bool && e->type.scalar != Scalar::Bool) {
      auto& d = error("E0203", span(ty), "cannot cast `" + type_name(e->type) + "` to `bool`",
                      "no cast to bool");
      d.helps.push_back("compare instead: `x != 0`");
      e = error_expr(span(c));
      continue;
    }
    // As Rust: a char becomes any integer (its code point, truncated to a narrower type), and
    // only a u8 becomes a char.
    const Scalar from = e->type.scalar;
    if (to.scalar == Scalar::Char && from != Scalar::Char && from != Scalar::U8) {
      auto& d = error("E0203", span(ty),
                      "only `u8` can be cast as `char`, not `" + type_name(e->type) + "`",
                      "invalid cast");
      if (is_int(from))
        d.helps.push_back(
            "a code point past 255 has no cast: `x as u8 as char` keeps the low "
            "8 bits");
      e = error_expr(span(c));
      continue;
    }
    if (from == Scalar::Bool && is_float(to.scalar)) {  // as Rust (types.md §6)
      auto& d =
          error("E0203", span(ty), "cannot cast `bool` to `" + type_name(to) + "`", "invalid cast");
      d.helps.push_back("cast through an integer first: `b as u8 as " + type_name(to) + "`");
      e = error_expr(span(c));
      continue;
    }
    if (from == Scalar::Char && !is_int(to.scalar) && to.scalar != Scalar::Char) {
      auto& d =
          error("E0203", span(ty), "cannot cast `char` to `" + type_name(to) + "`", "invalid cast");
      d.helps.push_back("a char casts to an integer type: `c as u32`");
      e = error_expr(span(c));
      continue;
    }
    tir::Expr* cast = make(tir::ExprKind::Cast, to, {span(c).begin, span(ty).end});
    cast->args = {e};
    e = cast;
  }
  return e;
}

tir::Expr* Checker::check_unary(const ast::Unary& u, size_t first_op, const Type* expected,
                                Span whole) {
  if (first_op == u.ops.size()) return check_postfix(u.operand, expected, false);
  const std::string& op = u.ops[first_op];
  Span s{whole.begin, span(u).end};
  if (op == "&" || op == "&mut") {
    if (first_op + 1 != u.ops.size()) {
      error("E0202", s, "`" + op + "` must be applied to a tensor or an element range",
            "unsupported reference");
      return error_expr(s);
    }
    return check_place_ref(u.operand, op == "&mut", s);
  }
  if (op == "*") {
    // `*r` of a tensor reference is the tensor it refers to: the same place as `r`.
    tir::Expr* a = check_unary(u, first_op + 1, nullptr, whole);
    if (a->type.is_error()) return a;
    if (a->type.is_struct_ref()) return deref_struct(a);
    if (a->type.kind != TypeKind::Ref) {
      error("E0202", s, "cannot dereference a value of type `" + type_name(a->type) + "`",
            "`*` applies to tensor references");
      return error_expr(s);
    }
    return a;
  }
  // A negated literal is one literal, so that `-128i8` is in range.
  if (op == "-" && first_op + 1 == u.ops.size() && u.operand.suffixes.empty()) {
    if (auto* il = boost::get<ast::IntLit>(&u.operand.base))
      return check_int_lit(*il, expected, true, s);
    if (auto* fl = boost::get<ast::FloatLit>(&u.operand.base))
      return check_float_lit(*fl, expected, true, s);
  }
  tir::Expr* a = check_unary(u, first_op + 1, expected, whole);
  if (a->type.is_error()) return a;
  if (!a->type.is_scalar()) {
    error("E0202", s, "cannot apply `" + op + "` to `" + type_name(a->type) + "`");
    return error_expr(s);
  }
  Scalar sc = a->type.scalar;
  if (sc == Scalar::Char) {
    error("E0202", s, "cannot apply `" + op + "` to `char`", "a char has no arithmetic");
    return error_expr(s);
  }
  if (op == "-" && (sc == Scalar::Bool || (is_int(sc) && !is_signed_int(sc)))) {
    auto& d = error("E0202", s, "cannot negate a value of type `" + type_name(a->type) + "`",
                    "`-` needs a signed integer or a float");
    if (is_int(sc)) d.helps.push_back("use `0 - x` for wrapping negation");
    return error_expr(s);
  }
  if (op == "!" && is_float(sc)) {
    error("E0202", s, "cannot apply `!` to `" + type_name(a->type) + "`",
          "`!` needs bool or an integer");
    return error_expr(s);
  }
  tir::Expr* e = make(tir::ExprKind::Unary, a->type, s);
  e->uop = op == "-" ? tir::UnOp::Neg : tir::UnOp::Not;
  e->args = {a};
  return e;
}

tir::Expr* Checker::check_index(tir::Expr* base, const std::vector<const ast::IndexSuffix*>& idx,
                                Span s, bool allow_view) {
  std::vector<tir::Expr*> indices;
  for (const auto* ix : idx) {
    tir::Expr* i = check_expr(ix->index.get(), nullptr);
    if (!i->type.is_error() && !(i->type.is_scalar() && is_int(i->type.scalar)))
      error("E0200", span(ix->index.get()),
            "an index must be an integer, not `" + type_name(i->type) + "`", "not an integer");
    indices.push_back(i);
  }
  if (base->type.is_error()) return error_expr(s);
  if (base->type.is_array()) return check_array_index(base, indices, s);
  if (!base->type.is_tensor_like()) {
    error("E0204", s, "cannot index a value of type `" + type_name(base->type) + "`",
          "not a tensor");
    return error_expr(s);
  }
  int rank = base->type.rank();
  if (static_cast<int>(indices.size()) > rank) {
    error("E0204", s,
          "too many indices: `" + base->text + "` has " + std::to_string(rank) +
              (rank == 1 ? " dimension" : " dimensions") + ", indexed with " +
              std::to_string(indices.size()),
          "too many indices");
    return error_expr(s);
  }
  Memory m = base->type.memory;
  if (!memory_rule(s, base->text, m)) return error_expr(s);
  if (static_cast<int>(indices.size()) < rank) {
    if (!allow_view) {
      auto& d = error("E0204", s,
                      "`" + base->text + "` has " + std::to_string(rank) + " dimensions but " +
                          std::to_string(indices.size()) +
                          (indices.size() == 1 ? " index" : " indices") + " were given",
                      "a sub-tensor is not a value");
      d.helps.push_back("index every dimension, or take a reference to the sub-tensor: `&" +
                        base->text + "[…]`");
      return error_expr(s);
    }
    Type vt = base->type;
    vt.kind = TypeKind::Ref;
    vt.dims.erase(vt.dims.begin(), vt.dims.begin() + indices.size());
    tir::Expr* e = make(tir::ExprKind::View, vt, s);
    e->args.push_back(base);
    e->args.insert(e->args.end(), indices.begin(), indices.end());
    e->text = base->text;
    return e;
  }
  tir::Expr* e = make(tir::ExprKind::Index, Type::of(base->type.scalar), s);
  e->args.push_back(base);
  e->args.insert(e->args.end(), indices.begin(), indices.end());
  e->text = base->text;
  return e;
}

tir::Expr* Checker::check_place_ref(const ast::Postfix& p, bool is_mut, Span s) {
  if (tir::Expr* r = struct_place_ref(p, is_mut, s)) return r;  // check_struct_ref.cpp
  const ast::PathExpr* pe = boost::get<ast::PathExpr>(&p.base);
  bool all_index = std::all_of(p.suffixes.begin(), p.suffixes.end(), [](const ast::Suffix& x) {
    return boost::get<ast::IndexSuffix>(&x) != nullptr;
  });
  if (!pe || pe->call_args || pe->path.segments.size() != 1 || !all_index) {
    error("E0202", s, "a reference must name a tensor variable or part of one",
          "cannot take a reference to this");
    return error_expr(s);
  }
  const std::string& name = pe->path.segments[0].name;
  tir::Expr* base = use_var(name, span(pe->path), false);
  if (base->type.is_error()) return base;
  if (!base->type.is_tensor_like()) {
    auto& d =
        error("E0202", s,
              "cannot take a reference to `" + name + "` of type `" + type_name(base->type) + "`",
              "references are to tensors and structs only");
    d.helps.push_back("pass the value itself");
    return error_expr(s);
  }
  if (is_mut) {
    Local* l = lookup(name);
    if (base->type.kind == TypeKind::Ref && !base->type.ref_mut) {
      error("E0302", s, "cannot borrow `" + name + "` as mutable: it is a `&` reference",
            "`&mut` of a `&` reference");
      return error_expr(s);
    }
    if (base->type.kind == TypeKind::Tensor && l && !l->is_mut) {
      auto& d = error("E0302", s, "cannot borrow `" + name + "` as mutable",
                      "`" + name + "` is not declared with `mut`");
      d.secondary.push_back({l->decl, "declared here"});
      d.helps.push_back("declare it with `let mut " + name + "`");
      return error_expr(s);
    }
  }
  std::vector<const ast::IndexSuffix*> idx;
  for (const auto& sfx : p.suffixes) idx.push_back(&ast::must_get<ast::IndexSuffix>(sfx));
  return tensor_ref(base, idx, is_mut, name, s);
}

tir::Expr* Checker::tensor_ref(tir::Expr* base, const std::vector<const ast::IndexSuffix*>& idx,
                               bool is_mut, const std::string& name, Span s) {
  tir::Expr* target = base;
  if (!idx.empty()) {
    target = check_index(base, idx, s, true);
    if (target->type.is_error()) return target;
    if (target->kind != tir::ExprKind::View) {
      error("E0202", s, "cannot take a reference to a single element", "an element, not a tensor");
      return error_expr(s);
    }
  }
  Type rt = target->type;
  rt.kind = TypeKind::Ref;
  rt.ref_mut = is_mut;
  tir::Expr* e = make(tir::ExprKind::Ref, rt, s);
  e->args = {target};
  e->text = name;
  return e;
}

tir::Expr* Checker::check_postfix(const ast::Postfix& p, const Type* expected, bool) {
  Span whole = span(p);
  if (p.suffixes.empty()) return check_primary(p.base, expected);
  tir::Expr* cur = check_primary(p.base, nullptr);
  size_t i = 0;
  while (i < p.suffixes.size()) {
    const Span upto{whole.begin, span(p.suffixes[i]).end};
    i = ast::visit(
        p.suffixes[i],
        [&](const ast::IndexSuffix&) {  // `t[a][b]`: the run of indices is one index
          std::vector<const ast::IndexSuffix*> idx;
          size_t j = i;
          for (; j < p.suffixes.size(); ++j) {
            const auto* ix = boost::get<ast::IndexSuffix>(&p.suffixes[j]);
            if (!ix) break;
            idx.push_back(ix);
          }
          Span s{whole.begin, span(p.suffixes[j - 1]).end};
          if (!cur->type.is_error() && cur->kind != tir::ExprKind::Var) {
            error("E0204", s, "only a tensor or array variable can be indexed",
                  "bind it with `let` first");
            cur = error_expr(s);
          } else {
            cur = check_index(cur, idx, s, false);
          }
          return j;
        },
        [&](const ast::MethodSuffix& m) {
          cur = check_method(cur, m, upto);
          return i + 1;
        },
        [&](const ast::FieldSuffix& f) {
          cur = tuple_field(cur, f, upto);
          return i + 1;
        });
  }
  return cur;
}

// The memory rule (spec/memory.md §1) for an element of `name`, in `m`, reached at `s`: false
// when it is broken here. In a function other than main, outside a region, it is decided later
// by the function's calls (check_helper_memories).
bool Checker::memory_rule(Span s, const std::string& name, Memory m) {
  if (spawn_depth_ == 0 && fn_index_ >= 0 && sig_ && sig_->name != "main") {
    helper_indexes_.push_back({fn_index_, s, name, m});  // host or device: its callers say
    return true;
  }
  const bool device = spawn_depth_ > 0;
  if (device != (m == Memory::CpuDram)) return true;
  memory_error(
      s, name, m, device,
      device ? "indexed inside a `spawn on` region" : "indexed outside a `spawn on` region");
  return false;
}

Diagnostic& Checker::memory_error(Span s, const std::string& name, Memory m, bool device,
                                  const std::string& label) {
  if (device) {
    auto& d =
        error("E0401", s, "device code cannot index `" + name + "`, which is in CPU_DRAM", label);
    d.helps.push_back("transfer it with `transfer(" + name + ", Memory::HBM)` before the region");
    return d;
  }
  auto& d = error(
      "E0400", s,
      "host code cannot index `" + name + "`, which is in " + std::string(memory_name(m)), label);
  d.helps.push_back("transfer it with `transfer(" + name +
                    ", Memory::CPU_DRAM)` first, or index it in a `spawn on` region");
  return d;
}

// Whether a block's value is an unsuffixed literal, or arithmetic of them only (spec/types.md §2,
// context 6): such a branch takes its type from another branch.
bool Checker::untyped_tail(const ast::Block& b) const {
  if (b.stmts.empty()) return false;
  const auto* es = boost::get<ast::ExprStmt>(&b.stmts.back());
  return es && !es->semicolon && !es->assign && untyped_value(es->expr);
}

tir::Expr* Checker::check_if(const ast::IfExpr& e, const Type* expected, Span s) {
  Type boolean = Type::of(Scalar::Bool);
  // The branches in source order: then, each `else if`, the `else`.
  std::vector<const ast::Block*> arms = {&e.then_block.get()};
  for (const ast::ElseIf& ei : e.else_ifs) arms.push_back(&ei.body.get());
  const bool has_else = e.else_block.has_value();
  if (has_else) arms.push_back(&e.else_block->get());
  std::vector<tir::Expr*> conds = {
      coerce(check_expr(e.cond, &boolean), boolean, span(e.cond), "the condition")};
  for (const ast::ElseIf& ei : e.else_ifs)
    conds.push_back(coerce(check_expr(ei.cond, &boolean), boolean, span(ei.cond), "the condition"));
  // Each branch expects what the `if` expects. When that is nothing, the first branch with a
  // type of its own is checked first, and the others expect its type (spec/types.md §2, 6).
  std::vector<tir::Block*> bodies(arms.size());
  std::vector<Type> types(arms.size());
  const Type* want = expected;
  size_t first = 0;
  if (!want && has_else)
    while (first + 1 < arms.size() && untyped_tail(*arms[first])) ++first;
  // Each branch starts from the moves before the `if`; after it, a local is moved when a branch
  // that reaches the end moved it (or, without `else`, when it was moved before).
  const MoveState before = save_moves();
  std::optional<MoveState> after;
  if (!has_else) after = before;
  auto check_arm = [&](size_t k, const Type* arm_expected) {
    restore_moves(before);
    bodies[k] = check_block(*arms[k], arm_expected, types[k]);
    if (never_ends(bodies[k], true)) return;  // `return`, `break`, `continue`: not past the `if`
    join_moves(after);
  };
  if (!want) {
    check_arm(first, nullptr);
    if (has_else && types[first].is_scalar()) want = &types[first];
  }
  for (size_t k = 0; k < arms.size(); ++k)
    if (!bodies[k]) check_arm(k, want);
  restore_moves(after ? *after : before);

  tir::Block* then_b = bodies[0];
  const Type then_t = types[0];
  tir::Expr* r = make(tir::ExprKind::If, Type::unit(), s);
  r->args = {conds[0]};
  r->block = then_b;
  // Fold `else if` arms into nested Ifs, innermost last.
  tir::Block* else_b = has_else ? bodies.back() : nullptr;
  Type else_t = has_else ? types.back() : Type::unit();
  for (size_t k = e.else_ifs.size(); k-- > 0;) {
    const ast::ElseIf& ei = e.else_ifs[k];
    tir::Block* body = bodies[k + 1];
    const Type& bt = types[k + 1];
    tir::Expr* inner = make(tir::ExprKind::If, Type::unit(), span(ei));
    inner->args = {conds[k + 1]};
    inner->block = body;
    inner->else_block = else_b;
    Type it = Type::unit();
    if (else_b) {
      if (bt.is_error())
        it = else_t;
      else if (else_t.is_error() || bt == else_t)
        it = bt;
      else {
        error("E0200", body->tail ? body->tail->span : span(ei),
              "`if` and `else` have different types: `" + type_name(bt) + "` and `" +
                  type_name(else_t) + "`");
        it = Type::error();
      }
    }
    inner->type = it.is_error() ? Type::unit() : it;
    tir::Block* wrap = prog_.new_block();
    wrap->span = span(ei);
    wrap->tail = inner;
    else_b = wrap;
    else_t = it;
  }
  r->else_block = else_b;
  if (!else_b) {
    if (!then_t.is_unit() && !then_t.is_error() && then_b->tail) {
      auto& d = error("E0207", then_b->tail->span,
                      "`if` without `else` cannot have a value of type `" + type_name(then_t) + "`",
                      "this value has nowhere to go");
      d.helps.push_back("add an `else` branch, or end the line with `;`");
      return error_expr(s);
    }
    return r;
  }
  if (then_t.is_error())
    r->type = else_t.is_error() ? Type::unit() : else_t;
  else if (else_t.is_error() || then_t == else_t)
    r->type = then_t;
  else {
    auto& d = error("E0200", else_b->tail ? else_b->tail->span : s,
                    "`if` and `else` have different types: `" + type_name(then_t) + "` and `" +
                        type_name(else_t) + "`",
                    "expected `" + type_name(then_t) + "`");
    if (then_b->tail) d.secondary.push_back({then_b->tail->span, "`" + type_name(then_t) + "`"});
    return error_expr(s);
  }
  return r;
}

namespace {

// The associated constants of a scalar type, as Rust names them (spec/types.md §1): `i32::MAX`,
// `u8::MIN`, `u32::BITS`, `f32::EPSILON`, `f64::consts::PI`. Sets the literal's value (a float
// rounded to its type, as a literal's is) and type; false, with the names it has, when `name`
// is not one of them.
bool associated_const(Scalar t, const std::string& name, tir::Literal& lit, Scalar& type,
                      std::vector<std::string>& names) {
  const ScalarInfo& info = scalar_info(t);
  type = t;
  if (t == Scalar::Bool || t == Scalar::Char) return false;
  if (info.is_int) {
    names = {"MIN", "MAX", "BITS"};
    const int bits = info.bits;
    if (name == "BITS") {
      type = Scalar::U32;
      lit.i = bits;
    } else if (name == "MAX") {
      lit.i = info.is_signed ? static_cast<int64_t>((uint64_t{1} << (bits - 1)) - 1)
              : bits == 64   ? -1  // all ones, zero-extended: u64::MAX
                             : static_cast<int64_t>((uint64_t{1} << bits) - 1);
    } else if (name == "MIN") {
      lit.i = info.is_signed ? -static_cast<int64_t>((uint64_t{1} << (bits - 1)) - 1) - 1 : 0;
    } else {
      return false;
    }
    return true;
  }
  // Floats: the largest finite value, the smallest normal one, the gap above 1 (2^-mantissa).
  const int mantissa = t == Scalar::F64 ? 52 : t == Scalar::F32 ? 23 : t == Scalar::F16 ? 10 : 7;
  const int max_exp = t == Scalar::F16 ? 15 : t == Scalar::F64 ? 1023 : 127;
  const double max = std::ldexp(2.0 - std::ldexp(1.0, -mantissa), max_exp);
  static const std::vector<std::pair<std::string, double>> consts = {
      {"consts::PI", 3.14159265358979323846},
      {"consts::TAU", 6.28318530717958647693},
      {"consts::E", 2.71828182845904523536},
      {"consts::SQRT_2", 1.41421356237309504880},
      {"consts::FRAC_1_SQRT_2", 0.70710678118654752440},
      {"consts::LN_2", 0.69314718055994530942},
      {"consts::LN_10", 2.30258509299404568402}};
  names = {"MAX", "MIN", "MIN_POSITIVE", "EPSILON", "INFINITY", "NEG_INFINITY", "NAN"};
  for (const auto& c : consts) names.push_back(c.first);
  double v = 0;
  if (name == "MAX")
    v = max;
  else if (name == "MIN")
    v = -max;
  else if (name == "MIN_POSITIVE")
    v = std::ldexp(1.0, 1 - max_exp);
  else if (name == "EPSILON")
    v = std::ldexp(1.0, -mantissa);
  else if (name == "INFINITY")
    v = HUGE_VAL;
  else if (name == "NEG_INFINITY")
    v = -HUGE_VAL;
  else if (name == "NAN")
    v = std::numeric_limits<double>::quiet_NaN();
  else {
    auto it =
        std::find_if(consts.begin(), consts.end(), [&](const auto& c) { return c.first == name; });
    if (it == consts.end()) return false;
    v = it->second;
  }
  // Rounded once to the type, as the literal `3.14159…f32` would be.
  lit.f = t == Scalar::F32    ? static_cast<double>(static_cast<float>(v))
          : t == Scalar::F16  ? f16_bits_to_f32(f64_to_f16_bits(v))
          : t == Scalar::BF16 ? bf16_bits_to_f32(f64_to_bf16_bits(v))
                              : v;
  return true;
}

}  // namespace

tir::Expr* Checker::check_assoc_path(const ast::Path& path, Span s) {
  const auto& segs = path.segments;
  std::string name;
  for (size_t i = 0; i < segs.size(); ++i) name += (i ? "::" : "") + segs[i].name;
  Scalar scalar;
  if (scalar_by_name(segs[0].name, scalar)) {
    const std::string rest = name.substr(segs[0].name.size() + 2);
    tir::Literal lit;
    Scalar type;
    std::vector<std::string> names;
    if (associated_const(scalar, rest, lit, type, names)) {
      tir::Expr* e = make(tir::ExprKind::Literal, Type::of(type), s);
      e->lit = lit;
      return e;
    }
    auto& d = error("E0100", s, "`" + segs[0].name + "` has no associated constant `" + rest + "`",
                    "not found");
    if (auto near = closest_name(rest, names))
      d.helps.push_back("did you mean `" + segs[0].name + "::" + *near + "`?");
    else if (!names.empty()) {
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "`" : ", `") + n + "`";
      d.helps.push_back("`" + segs[0].name + "` has " + list);
    }
    return error_expr(s);
  }
  if (segs[0].name == "Memory" || segs[0].name == "AtomicOrdering" ||
      segs[0].name == "FenceScope" || segs[0].name == "Topology")
    error("E0200", s, "`" + name + "` can only be an argument of the built-in that takes it",
          "not a value here");
  else
    error("E0100", s, "cannot find `" + name + "`", "not found");
  return error_expr(s);
}

tir::Expr* Checker::check_primary(const ast::Primary& p, const Type* expected) {
  Span s = span(p);
  auto block_expr = [&](const ast::Block& body) {
    Type t;
    tir::Block* b = check_block(body, expected, t);
    tir::Expr* e = make(tir::ExprKind::BlockExpr, t.is_error() ? Type::unit() : t, s);
    e->block = b;
    return as_flat(e);
  };
  return ast::visit(
      p, [&](const ast::FloatLit& l) { return check_float_lit(l, expected, false, s); },
      [&](const ast::IntLit& l) { return check_int_lit(l, expected, false, s); },
      [&](const ast::BoolLit& l) {
        tir::Expr* e = make(tir::ExprKind::Literal, Type::of(Scalar::Bool), s);
        e->lit.i = l.text == "true";
        return e;
      },
      [&](const ast::StringLit& l) { return host_only(string_literal(l, s)); },
      [&](const ast::CharLit& l) { return check_char_lit(l, s); },
      [&](const ast::TensorCtor& c) { return check_tensor_ctor(c, s); },
      [&](const ast::MacroCall& m) { return check_macro(m, s); },
      [&](const ast::PathExpr& pe) {
        if (pe.call_args) return check_call(pe, expected, s);
        const auto& segs = pe.path.segments;
        if (segs.size() == 1) return use_var(segs[0].name, s, true);
        return check_assoc_path(pe.path, s);
      },
      [&](const ast::ArrayLit& a) { return check_array_lit(a, expected, s); },
      [&](const ast::StructLit& sl) { return check_struct_lit(sl, s); },
      [&](const ast::UnitLit&) { return make(tir::ExprKind::Unit, Type::unit(), s); },
      [&](const ast::Paren& par) {
        return par.is_tuple() ? check_tuple_lit(par, expected, s)
                              : check_expr(par.inner.get(), expected);
      },
      [&](const ast::UnsafeBlock& ub) {
        ++unsafe_depth_;
        tir::Expr* e = block_expr(ub.body.get());
        --unsafe_depth_;
        return e;
      },
      [&](const ast::LoopExpr& lp) { return check_loop_expr(lp, expected, s); },
      [&](const ast::x3::forward_ast<ast::IfExpr>& ie) {
        return as_flat(check_if(ie.get(), expected, s));
      },
      [&](const ast::x3::forward_ast<ast::MatchExpr>& me) {
        return as_flat(check_match(me.get(), expected, s));
      },
      [&](const ast::x3::forward_ast<ast::Block>& blk) { return block_expr(blk.get()); });
}

}  // namespace vx::check
