// `match` on integers and `bool` (spec/semantics.md §3, spec/types.md §2): the checker types the
// patterns, proves the arms exhaustive over the scrutinee's type (E0208), finds the patterns no
// value reaches (the `unreachable_patterns` lint), and makes the `match` what every back end
// already runs: a block holding the scrutinee's value in a hidden local, then a chain of `if`s,
// one per arm, whose final `else` is the arm that completes the cover of the type.
#include <algorithm>
#include <boost/variant/get.hpp>
#include <map>
#include <optional>

#include "check/checker_impl.hpp"
#include "check/lints.hpp"

namespace vx::check {

namespace {

using Int = __int128;

// An inclusive range of values of the scrutinee's type (a bool is 0 or 1).
struct Interval {
  Int lo = 0, hi = 0;
};

// The values of a scalar type: a bool's are 0 and 1.
Interval type_range(Scalar t) {
  if (t == Scalar::Bool) return {0, 1};
  const ScalarInfo& info = scalar_info(t);
  if (info.is_signed) return {-(Int{1} << (info.bits - 1)), (Int{1} << (info.bits - 1)) - 1};
  return {0, (Int{1} << info.bits) - 1};
}

// A literal's value (stored sign- or zero-extended to 64 bits, tir.hpp) as a number.
Int literal_value(const tir::Literal& l, Scalar t) {
  if (t == Scalar::Bool) return l.i != 0 ? 1 : 0;
  return scalar_info(t).is_signed ? Int{l.i} : Int{static_cast<uint64_t>(l.i)};
}

std::string int_text(Int v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 u = negative ? 0 - static_cast<unsigned __int128>(v) : v;
  std::string digits;
  for (; u; u /= 10) digits += static_cast<char>('0' + static_cast<int>(u % 10));
  if (negative) digits += '-';
  return {digits.rbegin(), digits.rend()};
}

// A value as rustc writes it in a pattern it reports: `5_i32`, `i32::MIN`, `u8::MAX`, `true`.
std::string value_text(Int v, Scalar t) {
  if (t == Scalar::Bool) return v ? "true" : "false";
  const Interval r = type_range(t);
  const std::string name = scalar_info(t).name;
  if (scalar_info(t).is_signed && v == r.lo) return name + "::MIN";
  if (v == r.hi) return name + "::MAX";
  return int_text(v) + "_" + name;
}

// The values some patterns match: disjoint intervals, none adjacent to another, by their start.
class Cover {
 public:
  void add(Interval iv) {
    auto it = parts_.upper_bound(iv.lo);
    if (it != parts_.begin() && std::prev(it)->second + 1 >= iv.lo) {
      --it;
      iv.lo = it->first;
      iv.hi = std::max(iv.hi, it->second);
      it = parts_.erase(it);
    }
    while (it != parts_.end() && it->first <= iv.hi + 1) {
      iv.hi = std::max(iv.hi, it->second);
      it = parts_.erase(it);
    }
    parts_.emplace(iv.lo, iv.hi);
  }
  // The last value of the interval that holds `v`, if one does.
  std::optional<Int> end_of(Int v) const {
    auto it = parts_.upper_bound(v);
    if (it == parts_.begin()) return std::nullopt;
    --it;
    if (it->second < v) return std::nullopt;
    return it->second;
  }
  bool covers(Interval iv) const {
    auto end = end_of(iv.lo);
    return end && *end >= iv.hi;
  }
  // The values of `all` that no interval holds, in order.
  std::vector<Interval> missing(Interval all) const {
    std::vector<Interval> out;
    Int next = all.lo;
    for (const auto& [lo, hi] : parts_) {
      if (lo > next) out.push_back({next, lo - 1});
      next = std::max(next, hi + 1);
    }
    if (next <= all.hi) out.push_back({next, all.hi});
    return out;
  }

 private:
  std::map<Int, Int> parts_;  // start -> last value
};

// Whether the values of `iv` are each in `a` or in `b`.
bool covered(const Cover& a, const Cover& b, Interval iv) {
  for (Int x = iv.lo; x <= iv.hi;) {
    std::optional<Int> end = a.end_of(x);
    if (!end) end = b.end_of(x);
    if (!end) return false;
    x = *end + 1;
  }
  return true;
}

// The `||` of the tests, as a balanced tree (as deep as the logarithm of their number, so that a
// pattern of many alternatives stays within the depth limit, spec/grammar.md §1.5).
tir::Expr* any_of_tests(tir::Program& prog, const std::vector<tir::Expr*>& tests, size_t from,
                        size_t to, Span span) {
  if (to - from == 1) return tests[from];
  const size_t mid = from + (to - from) / 2;
  tir::Expr* e = prog.new_expr();
  e->kind = tir::ExprKind::Binary;
  e->type = Type::of(Scalar::Bool);
  e->span = span;
  e->bop = tir::BinOp::Or;
  e->args = {any_of_tests(prog, tests, from, mid, span), any_of_tests(prog, tests, mid, to, span)};
  return e;
}

// How many unreachable patterns get labels naming the earlier patterns that cover them (finding
// those is a walk over the earlier patterns).
constexpr size_t kLabelledUnreachable = 64;

constexpr const char* kMatchValueName = "_match";  // `_`: never reported as unused

// `a`, `a` and `b`, `a`, `b` and `c`, `a`, `b`, `c` and N more (rustc's list of patterns).
std::string joined(const std::vector<std::string>& items) {
  std::string out;
  const size_t shown = items.size() > 3 ? 3 : items.size();
  for (size_t i = 0; i < shown; ++i) {
    if (i) out += i + 1 == shown && items.size() == shown ? " and " : ", ";
    out += "`" + items[i] + "`";
  }
  if (shown < items.size()) out += " and " + std::to_string(items.size() - shown) + " more";
  return out;
}

// The block of an arm's body written as a block (`=> { … }`), else null.
const ast::Block* bare_block(const ast::Expr& e) {
  if (!e.rest.empty() || !e.first.types.empty() || !e.first.operand.ops.empty() ||
      !e.first.operand.operand.suffixes.empty())
    return nullptr;
  const auto* b = boost::get<ast::x3::forward_ast<ast::Block>>(&e.first.operand.operand.base);
  return b ? &b->get() : nullptr;
}

}  // namespace

// One alternative of a pattern: the values it matches, the test of them (null: every value),
// the names it binds.
struct Checker::PatAltInfo {
  bool ok = true;
  Interval values;
  bool everything = false;  // `_` or a name
  tir::Expr* test = nullptr;
  std::vector<std::string> names;
  Span span;
};

struct Checker::MatchArmInfo {
  std::vector<PatAltInfo> alts;
  tir::Expr* cond = nullptr;  // null: the arm takes every value that reaches it
  tir::Block* body = nullptr;
  Type type;
  bool checked = false;
};

bool Checker::pattern_value(const ast::PatValue& v, const Type& t, Int& out) {
  const Span s = span(v);
  auto mismatch = [&](const std::string& found) {
    error("E0200", s,
          "mismatched types: expected `" + type_name(t) + "`, found " +
              (found == "integer" ? found : "`" + found + "`"),
          "expected `" + type_name(t) + "`, found " +
              (found == "integer" ? found : "`" + found + "`"));
    return false;
  };
  if (const auto* il = boost::get<ast::IntLit>(&v.atom)) {
    if (t.scalar == Scalar::Bool) return mismatch("integer");
    tir::Expr* e = check_int_lit(*il, &t, v.negative, s);
    if (e->type.is_error()) return false;
    if (e->type != t) return mismatch(type_name(e->type));
    out = literal_value(e->lit, t.scalar);
    return true;
  }
  if (const auto* bl = boost::get<ast::BoolLit>(&v.atom)) {
    if (v.negative) {
      error("E0202", s, "cannot apply unary operator `-` to type `bool`", "cannot be negated");
      return false;
    }
    if (t.scalar != Scalar::Bool) return mismatch("bool");
    out = bl->text == "true";
    return true;
  }
  const ast::Path& path = boost::get<ast::Path>(v.atom);
  if (v.negative) {
    auto& d = error("E0001", s, "a `-` in a pattern stands only before a number literal",
                    "not a literal");
    d.helps.push_back("write the negative value as a literal, or name it in a `const`");
    return false;
  }
  tir::Expr* e = nullptr;
  if (path.segments.size() == 1) {
    const std::string& name = path.segments[0].name;
    Type ct;
    tir::Literal cv;
    if (!const_value(name, s, ct, cv)) {
      auto& d = error("E0100", s, "cannot find constant `" + name + "`",
                      "not a constant: a range pattern's bounds are literals or constants");
      d.helps.push_back("a name alone binds the value (`" + name + " => …`); in a range, write " +
                        "a literal or a `const`");
      return false;
    }
    if (ct.is_error()) return false;
    e = make(tir::ExprKind::Literal, ct, s);
    e->lit = cv;
  } else {
    e = check_assoc_path(path, s);
    if (e->type.is_error()) return false;
  }
  if (e->type != t) return mismatch(type_name(e->type));
  out = literal_value(e->lit, t.scalar);
  return true;
}

Checker::PatAltInfo Checker::pattern_alt(const ast::PatAlt& alt, const Type& t, int slot) {
  PatAltInfo info;
  info.span = span(alt);
  const Interval all = type_range(t.scalar);
  if (alt.binding && alt.binding->name != "_") info.names.push_back(alt.binding->name);
  const auto* path = boost::get<ast::Path>(&alt.lo.atom);
  if (!alt.range && !alt.lo.negative && path && path->segments.size() == 1 &&
      !consts_.count(path->segments[0].name)) {
    // `_`, or a name that binds the value (a `const`'s name is a constant pattern, as in Rust).
    if (path->segments[0].name != "_") info.names.push_back(path->segments[0].name);
    info.values = all;
    info.everything = true;
    return info;
  }
  if (alt.range && t.scalar == Scalar::Bool) {
    error("E0200", info.span, "only integers are allowed in range patterns",
          "this is a range of `bool`");
    info.ok = false;
    return info;
  }
  Int lo = 0, hi = 0;
  info.ok = pattern_value(alt.lo, t, lo);
  hi = lo;
  if (alt.range) {
    if (!pattern_value(alt.range->hi, t, hi)) info.ok = false;
    if (!info.ok) return info;
    if (alt.range->op == "..") {
      if (lo >= hi) {
        error("E0209", span(alt), "lower range bound must be less than upper",
              "lower bound not less than upper bound");
        info.ok = false;
        return info;
      }
      --hi;
    } else if (lo > hi) {
      error("E0209", span(alt), "lower range bound must be less than or equal to upper",
            "lower bound larger than upper bound");
      info.ok = false;
      return info;
    }
  }
  if (!info.ok) return info;
  info.values = {lo, hi};
  info.everything = lo == all.lo && hi == all.hi;
  if (info.everything) return info;
  // The test of the value: `m == v`, `m >= lo`, `m <= hi` or both.
  const Type boolean = Type::of(Scalar::Bool);
  auto compare = [&](tir::BinOp op, Int v) {
    tir::Expr* var = make(tir::ExprKind::Var, t, info.span);
    var->slot = slot;
    var->text = fn_->slot_names[slot];
    tir::Expr* lit = make(tir::ExprKind::Literal, t, info.span);
    lit->lit.i = static_cast<int64_t>(static_cast<uint64_t>(v));
    tir::Expr* e = make(tir::ExprKind::Binary, boolean, info.span);
    e->bop = op;
    e->args = {var, lit};
    return e;
  };
  if (lo == hi) {
    info.test = compare(tir::BinOp::Eq, lo);
  } else if (lo == all.lo) {
    info.test = compare(tir::BinOp::Le, hi);
  } else if (hi == all.hi) {
    info.test = compare(tir::BinOp::Ge, lo);
  } else {
    info.test = make(tir::ExprKind::Binary, boolean, info.span);
    info.test->bop = tir::BinOp::And;
    info.test->args = {compare(tir::BinOp::Ge, lo), compare(tir::BinOp::Le, hi)};
  }
  return info;
}

tir::Block* Checker::check_arm_body(const ast::ArmBody& body, const Type* expected, Type& result) {
  if (!body.assign)
    if (const ast::Block* b = bare_block(body.expr)) return check_block(*b, expected, result);
  tir::Block* blk = prog_.new_block();
  blk->span = span(body);
  result = Type::unit();
  if (body.assign) {  // `x => total += x`: the assignment, a statement of the arm's block
    ast::ExprStmt es;
    es.expr = body.expr;
    es.assign = body.assign;
    es.semicolon = true;
    static_cast<ast::position_tagged&>(es) = body;
    ast::Stmt st(std::move(es));
    static_cast<ast::position_tagged&>(st) = body;
    check_stmt(st, blk->stmts);
    return blk;
  }
  set_tail(blk, check_expr(body.expr, expected));
  if (blk->tail)
    result = blk->tail->type;
  else if (never_ends(blk, false))
    result = Type::error();
  return blk;
}

tir::Expr* Checker::check_match(const ast::MatchExpr& m, const Type* expected, Span s) {
  const Span scrut_span = span(m.scrutinee);
  tir::Expr* scrut = check_expr(m.scrutinee, nullptr);
  const Type t = scrut->type;
  if (t.is_error()) return error_expr(s);
  if (!t.is_scalar() || is_float(t.scalar)) {
    auto& d =
        error("E0200", scrut_span,
              "`match` takes an integer or a `bool`, not a value of type `" + type_name(t) + "`",
              "this has type `" + type_name(t) + "`");
    d.helps.push_back(
        t.is_scalar() && is_float(t.scalar) ? "compare it with `<` and `>` in an `if … else if`"
        : t.is_tuple() ? "Vx does not match on tuples yet (spec/types.md §8): take it "
                         "apart with `let (a, b) = …;` and match an element"
                       : "match an integer or a `bool` made of it");
    return error_expr(s);
  }
  // The value the arms test: the scrutinee's own local when it is an immutable one (so that the
  // kernel rules see a lane's index as itself), else a hidden local.
  tir::Block* outer = prog_.new_block();
  outer->span = s;
  int slot = scrut->kind == tir::ExprKind::Var ? scrut->slot : -1;
  if (slot >= 0 && fn_->slot_mut[slot]) slot = -1;
  if (slot < 0) {
    slot = fn_->slot_count();
    fn_->slot_types.push_back(t);
    fn_->slot_names.push_back(kMatchValueName);
    fn_->slot_decls.push_back(scrut_span);
    fn_->slot_mut.push_back(false);
    tir::Stmt* let = prog_.new_stmt();
    let->kind = tir::StmtKind::Let;
    let->span = scrut_span;
    let->slot = slot;
    let->var_name = kMatchValueName;
    let->value = scrut;
    outer->stmts.push_back(let);
  }

  // The patterns, in order; then the arms' guards and bodies.
  const Type boolean = Type::of(Scalar::Bool);
  const size_t n = m.arms.size();
  std::vector<MatchArmInfo> arms(n);
  bool patterns_ok = true;
  for (size_t k = 0; k < n; ++k) {
    MatchArmInfo& a = arms[k];
    for (const ast::PatAlt& alt : m.arms[k].alts) {
      a.alts.push_back(pattern_alt(alt, t, slot));
      patterns_ok = patterns_ok && a.alts.back().ok;
    }
    // Every alternative binds the same names (Rust's E0408).
    std::vector<std::string> first = a.alts.front().names;
    std::sort(first.begin(), first.end());
    for (const PatAltInfo& alt : a.alts) {
      std::vector<std::string> names = alt.names;
      std::sort(names.begin(), names.end());
      if (names == first) continue;
      std::vector<std::string> odd;
      std::set_symmetric_difference(first.begin(), first.end(), names.begin(), names.end(),
                                    std::back_inserter(odd));
      const std::string& name = odd.front();
      const bool lacks = !std::count(alt.names.begin(), alt.names.end(), name);
      error("E0100", alt.span, "variable `" + name + "` is not bound in all patterns",
            lacks ? "pattern doesn't bind `" + name + "`" : "variable not in all patterns");
      patterns_ok = false;
      break;
    }
    // The arm's test: any alternative's, then the guard.
    std::vector<tir::Expr*> tests;
    for (const PatAltInfo& alt : a.alts) tests.push_back(alt.test);
    if (std::all_of(tests.begin(), tests.end(), [](const tir::Expr* e) { return e; }))
      a.cond = any_of_tests(prog_, tests, 0, tests.size(), span(m.arms[k]));
  }

  // The arms' bodies, as the branches of an `if` (check_if): each expects what the `match`
  // expects; when that is nothing, the first arm with a type of its own is checked first and the
  // others expect its type (spec/types.md §2, context 6).
  auto untyped_arm = [&](size_t k) {
    const ast::ArmBody& b = m.arms[k].body;
    if (b.assign) return false;
    const ast::Block* blk = bare_block(b.expr);
    return blk ? untyped_tail(*blk) : untyped_value(b.expr);
  };
  const MoveState before = save_moves();
  std::optional<MoveState> after;
  auto check_arm = [&](size_t k, const Type* want) {
    MatchArmInfo& a = arms[k];
    restore_moves(before);
    scopes_.emplace_back();
    for (const std::string& name : a.alts.front().names)
      scopes_.back().push_back(Local{name, slot, t, false, false, a.alts.front().span, {}, {}});
    if (const auto& g = m.arms[k].guard) {
      tir::Expr* guard = coerce(check_expr(*g, &boolean), boolean, span(*g), "the guard");
      tir::Expr* both = guard;
      if (a.cond) {
        both = make(tir::ExprKind::Binary, boolean, span(m.arms[k]));
        both->bop = tir::BinOp::And;
        both->args = {a.cond, guard};
      }
      a.cond = both;
    }
    a.body = check_arm_body(m.arms[k].body, want, a.type);
    scopes_.pop_back();
    a.checked = true;
    if (!never_ends(a.body, true)) join_moves(after);
  };
  const Type* want = expected;
  if (!want && n > 0) {
    size_t first = 0;
    while (first + 1 < n && untyped_arm(first)) ++first;
    check_arm(first, nullptr);
    if (arms[first].type.is_scalar()) want = &arms[first].type;
  }
  for (size_t k = 0; k < n; ++k)
    if (!arms[k].checked) check_arm(k, want);
  restore_moves(after ? *after : before);

  // One type for every arm that ends.
  Type result = Type::error();
  size_t typed = n;
  for (size_t k = 0; k < n; ++k) {
    const Type& at = arms[k].type;
    if (at.is_error()) continue;
    if (typed == n) {
      typed = k;
      result = at;
      continue;
    }
    if (at == result) continue;
    const tir::Block* b = arms[k].body;
    auto& d =
        error("E0200", b->tail ? b->tail->span : b->span, "`match` arms have incompatible types",
              "expected `" + type_name(result) + "`, found `" + type_name(at) + "`");
    const tir::Block* fb = arms[typed].body;
    d.secondary.push_back({fb->tail ? fb->tail->span : fb->span,
                           "this is found to be of type `" + type_name(result) + "`"});
    return error_expr(s);
  }
  if (!patterns_ok) return error_expr(s);

  // Exhaustiveness and reachability: a guarded arm covers nothing.
  const Interval all = type_range(t.scalar);
  Cover cover;
  size_t last = n;                                 // the arm that completes the cover
  std::vector<std::pair<Interval, Span>> earlier;  // the unguarded alternatives so far
  for (size_t k = 0; k < n; ++k) {
    Cover mine;
    std::vector<std::pair<Interval, Span>> own;
    for (const PatAltInfo& alt : arms[k].alts) {
      if (covered(cover, mine, alt.values)) {
        tir::UnreachablePattern u{alt.span, {}};
        if (prog_.unreachable_patterns.size() < kLabelledUnreachable) {
          // The earlier pattern that covers it, else those that do together (up to three).
          std::vector<std::pair<Span, std::string>> some;
          for (const auto* list : {&earlier, &own})
            for (const auto& [iv, at] : *list) {
              if (iv.lo <= alt.values.lo && alt.values.hi <= iv.hi && u.because.empty())
                u.because = {{at, iv.lo == all.lo && iv.hi == all.hi
                                      ? "matches any value"
                                      : "matches all the relevant values"}};
              else if (iv.hi >= alt.values.lo && iv.lo <= alt.values.hi && some.size() < 3)
                some.push_back({at, "matches some of the same values"});
            }
          if (u.because.empty()) u.because = std::move(some);
        }
        prog_.unreachable_patterns.push_back(std::move(u));
      }
      mine.add(alt.values);
      own.push_back({alt.values, alt.span});
    }
    if (m.arms[k].guard) continue;
    for (const auto& [iv, at] : own) cover.add(iv);
    earlier.insert(earlier.end(), own.begin(), own.end());
    if (last == n && cover.covers(all)) last = k;
  }
  if (last == n) {
    std::vector<std::string> witnesses;
    for (const Interval& iv : cover.missing(all))
      if (t.scalar == Scalar::Bool || iv.lo == iv.hi) {
        for (Int v = iv.lo; v <= iv.hi; ++v) witnesses.push_back(value_text(v, t.scalar));
      } else {
        witnesses.push_back(value_text(iv.lo, t.scalar) + "..=" + value_text(iv.hi, t.scalar));
      }
    const std::string list = joined(witnesses);
    const bool one = witnesses.size() == 1;
    auto& d = n == 0
                  ? error("E0208", scrut_span,
                          "non-exhaustive patterns: type `" + type_name(t) + "` is non-empty",
                          std::string(one ? "pattern " : "patterns ") + list + " not covered")
                  : error("E0208", scrut_span, "non-exhaustive patterns: " + list + " not covered",
                          std::string(one ? "pattern " : "patterns ") + list + " not covered");
    d.notes.push_back("the matched value is of type `" + type_name(t) + "`");
    d.helps.push_back(
        one ? "ensure that all possible cases are being handled by adding a match arm with a "
              "wildcard pattern or an explicit pattern as shown"
            : "ensure that all possible cases are being handled by adding a match arm with a "
              "wildcard pattern, a match arm with multiple or-patterns as shown, or multiple "
              "match arms");
    if (std::any_of(m.arms.begin(), m.arms.end(), [](const ast::MatchArm& a) { return a.guard; }))
      d.notes.push_back("match arms with guards don't count towards exhaustivity");
    return error_expr(s);
  }

  // The chain of `if`s, from the last arm that can be taken: its body is the final `else`.
  const Type value_type = result.is_error() ? Type::unit() : result;
  tir::Block* chain = arms[last].body;
  tir::Expr* top = nullptr;
  for (size_t k = last; k-- > 0;) {
    tir::Expr* e = make(tir::ExprKind::If, value_type, span(m.arms[k]));
    e->args = {arms[k].cond};
    e->block = arms[k].body;
    e->else_block = chain;
    top = e;
    chain = prog_.new_block();
    chain->span = span(m.arms[k]);
    chain->tail = e;
  }
  if (!top) {
    top = make(tir::ExprKind::BlockExpr, value_type, span(m.arms[last]));
    top->block = arms[last].body;
  }
  set_tail(outer, top);
  tir::Expr* r = make(tir::ExprKind::BlockExpr, value_type, s);
  r->block = outer;
  r->from_match = true;
  return r;
}

}  // namespace vx::check
