// `match` on integers, `bool`s, `char`s and tuples of them (spec/semantics.md §3, spec/types.md
// §2 and §8): the checker types the patterns, proves the arms exhaustive over the scrutinee's type
// (E0208, with rustc's usefulness algorithm, match_usefulness.hpp), finds the patterns no value
// reaches (the `unreachable_patterns` lint) and the arm that completes the cover of the type, and
// makes a Match of the typed program (tir.hpp): the scrutinee's scalars in locals, and each arm's
// typed pattern, guard and body. The lowering step (lower/lower_match.cpp) makes it the chain of
// `if`s every back end runs. A name in a pattern is the local of the scalars it matches, so the
// arms read the scrutinee's own locals.
#include <algorithm>
#include <boost/variant/get.hpp>
#include <functional>
#include <map>
#include <optional>

#include "check/checker_impl.hpp"
#include "check/lints.hpp"
#include "check/match_usefulness.hpp"
#include "check/tir_walk.hpp"

namespace vx::check {

namespace {

using Int = __int128;
using patterns::Interval;
using patterns::Pat;

// A literal's value (stored sign- or zero-extended to 64 bits, tir.hpp) as a number.
Int literal_value(const tir::Literal& l, Scalar t) {
  if (t == Scalar::Bool) return l.i != 0 ? 1 : 0;
  return scalar_info(t).is_signed ? Int{l.i} : Int{static_cast<uint64_t>(l.i)};
}

// How much work the usefulness algorithm may do for one `match` (rustc has such a limit too): two
// million calls, or a hundred million rows of the pattern matrix looked at (a few tenths of a
// second; patterns::Usefulness::step).
constexpr size_t kUsefulnessBudget = 100000000;

// How many unreachable patterns get labels naming the earlier patterns that cover them (finding
// those is a walk over the earlier patterns).
constexpr size_t kLabelledUnreachable = 64;

constexpr const char* kMatchValueName = "_match";  // `_`: never reported as unused
// The nested alternatives of one `match` whose reachability is looked at, and the size of a
// pattern that has them looked at (each look copies the pattern): a lint, bounded so that a huge
// pattern costs no more than rustc's own limit allows.
constexpr size_t kNestedAlternatives = 1024;
constexpr size_t kNestedPatternNodes = 4096;

size_t node_count(const Pat& p) {
  size_t n = 1;
  for (const Pat& sub : p.subs) n += node_count(sub);
  return n;
}

// `p` with the pattern at `path` (indices into tuple patterns' elements) replaced by `with`.
Pat replaced(const Pat& p, const std::vector<size_t>& path, size_t depth, const Pat& with) {
  if (depth == path.size()) return with;
  Pat out = p;
  out.subs[path[depth]] = replaced(p.subs[path[depth]], path, depth + 1, with);
  return out;
}

// The paths to the or-patterns of `p` that lie inside its tuple patterns (not inside another
// or-pattern), below `path`.
void or_paths(const Pat& p, std::vector<size_t>& path, std::vector<std::vector<size_t>>& out) {
  if (p.kind == Pat::Kind::Or) {
    out.push_back(path);
    return;
  }
  if (p.kind != Pat::Kind::Tuple) return;
  for (size_t i = 0; i < p.subs.size(); ++i) {
    path.push_back(i);
    or_paths(p.subs[i], path, out);
    path.pop_back();
  }
}

// rustc's unreachable_patterns inside a pattern `whole` that some value reaches past `above`: an
// alternative of an or-pattern nested in its tuples (`(0 | 0, _)`) that no value reaches past
// `above` and the alternatives before it, the rest of `whole` as it is. `report` gets the
// alternative's span, the pattern it stands for and the rows it was checked against. Only the
// or-patterns at `prefix` or below it are looked at (those of an alternative already taken).
void nested_unreachable(
    patterns::Usefulness& usefulness, const std::vector<const Pat*>& above, const Pat& whole,
    const Type& t, std::vector<size_t> prefix,
    const std::function<void(Span, const Pat&, const std::vector<const Pat*>&)>& report,
    size_t& looked_at) {
  if (prefix.empty() && node_count(whole) > kNestedPatternNodes) return;
  std::vector<std::vector<size_t>> paths;
  const Pat* start = &whole;
  for (size_t i : prefix) start = &start->subs[i];
  if (start->kind == Pat::Kind::Or) return;  // an alternative that is an or-pattern: taken whole
  or_paths(*start, prefix, paths);
  for (const std::vector<size_t>& path : paths) {
    const Pat* node = &whole;
    for (size_t i : path) node = &node->subs[i];
    Pat earlier;
    earlier.kind = Pat::Kind::Or;
    for (size_t i = 0; i < node->subs.size(); ++i) {
      if (++looked_at > kNestedAlternatives) return;
      const Pat alone = replaced(whole, path, 0, node->subs[i]);
      std::vector<const Pat*> rows = above;
      Pat prior;
      if (i > 0) {
        earlier.subs.assign(node->subs.begin(), node->subs.begin() + static_cast<long>(i));
        prior = replaced(whole, path, 0, earlier);
        // A label on it points at the alternatives before this one.
        prior.span = {node->subs.front().span.begin, node->subs[i - 1].span.end};
        rows.push_back(&prior);
      }
      const bool useful = usefulness.useful(rows, alone, t);
      if (usefulness.exhausted()) return;
      if (!useful)
        report(node->subs[i].span, alone, rows);
      else
        nested_unreachable(usefulness, rows, alone, t, path, report, looked_at);
    }
  }
}

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

// The names a pattern binds, with the nodes that name them (`consts`: a name that is a constant).
template <class IsConst>
void pattern_names(const ast::PatAlt& alt, const IsConst& is_const,
                   std::vector<std::pair<std::string, const ast::position_tagged*>>& out) {
  if (alt.binding && alt.binding->name != "_") out.push_back({alt.binding->name, &*alt.binding});
  if (alt.tuple) {
    for (const ast::PatElem& e : alt.tuple->get().elems)
      for (const ast::PatAlt& a : e.alts) pattern_names(a, is_const, out);
    return;
  }
  const auto* path = boost::get<ast::Path>(&alt.lo.atom);
  if (!alt.range && !alt.lo.negative && path && path->segments.size() == 1 &&
      path->segments[0].name != "_" && !is_const(path->segments[0].name))
    out.push_back({path->segments[0].name, &alt.lo});
}

}  // namespace

// A name that a pattern binds: the locals of the scalars it matches.
struct PatName {
  std::string name;
  Type type;
  std::vector<int> slots;
  Span span;
};

// One alternative of a pattern (or a part of one): the values it matches (for usefulness), its
// typed pattern (what the lowering tests), the names it binds.
struct Checker::PatAltInfo {
  bool ok = true;
  Pat pat;
  tir::Pattern typed;
  std::vector<PatName> names;
  Span span;
};

struct Checker::MatchArmInfo {
  std::vector<PatAltInfo> alts;
  tir::Expr* guard = nullptr;
  tir::Block* body = nullptr;
  Type type;
  bool checked = false;
};

bool Checker::pattern_value(const ast::PatValue& v, const Type& t, Int& out) {
  const Span s = span(v);
  auto mismatch = [&](const std::string& found) {
    const bool kind = found == "integer" || found == "tuple";
    error("E0200", s,
          "mismatched types: expected `" + type_name(t) + "`, found " +
              (kind ? found : "`" + found + "`"),
          "expected `" + type_name(t) + "`, found " + (kind ? found : "`" + found + "`"));
    return false;
  };
  auto negated = [&](const char* what) {
    error("E0202", s, std::string("cannot apply unary operator `-` to type `") + what + "`",
          "cannot be negated");
    return false;
  };
  return ast::visit(
      v.atom,
      [&](const ast::IntLit& il) {
        if (!t.is_scalar() || t.scalar == Scalar::Bool || t.scalar == Scalar::Char)
          return mismatch("integer");
        tir::Expr* e = check_int_lit(il, &t, v.negative, s);
        if (e->type.is_error()) return false;
        if (e->type != t) return mismatch(type_name(e->type));
        out = literal_value(e->lit, t.scalar);
        return true;
      },
      [&](const ast::BoolLit& bl) {
        if (v.negative) return negated("bool");
        if (t.scalar != Scalar::Bool || !t.is_scalar()) return mismatch("bool");
        out = bl.text == "true";
        return true;
      },
      [&](const ast::CharLit& cl) {
        if (v.negative) return negated("char");
        tir::Expr* e = check_char_lit(cl, s);
        if (e->type.is_error()) return false;
        if (e->type != t) return mismatch("char");
        out = literal_value(e->lit, t.scalar);
        return true;
      },
      [&](const ast::Path& path) {  // a constant: `LO..=HI`, `i32::MAX`
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
            d.helps.push_back("a name alone binds the value (`" + name +
                              " => …`); in a range, write " + "a literal or a `const`");
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
      });
}

Checker::PatAltInfo Checker::pattern_alt(const ast::PatAlt& alt, const Type& t,
                                         const std::vector<int>& slots) {
  PatAltInfo info;
  info.span = span(alt);
  info.pat.span = info.span;
  info.typed.span = info.span;
  auto bind = [&](const std::string& name, Span at) {
    for (const PatName& n : info.names)
      if (n.name == name) {
        error("E0102", at, "identifier `" + name + "` is bound more than once in the same pattern",
              "used in a pattern more than once");
        info.ok = false;
        return;
      }
    info.names.push_back({name, t, slots, at});
  };
  if (alt.tuple) {
    tuple_pattern(alt.tuple->get(), t, slots, info);
    if (alt.binding && alt.binding->name != "_") bind(alt.binding->name, span(*alt.binding));
    return info;
  }
  if (alt.binding && alt.binding->name != "_") bind(alt.binding->name, span(*alt.binding));
  const auto* path = boost::get<ast::Path>(&alt.lo.atom);
  if (!alt.range && !alt.lo.negative && path && path->segments.size() == 1 &&
      !consts_.count(path->segments[0].name)) {
    // `_`, or a name that binds the value (a `const`'s name is a constant pattern, as in Rust).
    if (path->segments[0].name != "_") bind(path->segments[0].name, span(alt.lo));
    return info;
  }
  if (t.is_scalar() && is_float(t.scalar)) {
    auto& d = error("E0200", info.span,
                    "a pattern of a float matches every value: `_` or a name, not a value",
                    "this is a pattern of `" + type_name(t) + "`");
    d.helps.push_back("bind the float to a name and compare it in a guard (`x if x < 0.5 => …`)");
    info.ok = false;
    return info;
  }
  if (alt.range && t.is_scalar() && t.scalar == Scalar::Bool) {
    error("E0200", info.span, "only `char` and numeric types are allowed in range patterns",
          "this is a range of `bool`");
    info.ok = false;
    return info;
  }
  Int lo = 0, hi = 0;
  info.ok = pattern_value(alt.lo, t, lo) && info.ok;
  hi = lo;
  if (alt.range && info.ok) {
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
  info.pat.kind = Pat::Kind::Range;
  info.pat.values = {lo, hi};
  const std::vector<Interval> all = patterns::type_values(t.scalar);
  if (lo <= all.front().lo && hi >= all.back().hi) {
    info.pat.kind = Pat::Kind::Wild;
    return info;
  }
  info.typed.kind = tir::Pattern::Kind::Value;
  info.typed.var = read_slot(slots.front(), info.span);
  info.typed.lo = lo;
  info.typed.hi = hi;
  return info;
}

void Checker::tuple_pattern(const ast::PatTuple& p, const Type& t, const std::vector<int>& slots,
                            PatAltInfo& info) {
  const Span s = span(p);
  if (p.elems.size() == 1 && !p.trailing_comma && !p.elems[0].rest) {  // `(p)` is `p`
    PatAltInfo inner = pattern_alts(p.elems[0].alts, t, slots, s);
    info.ok = inner.ok;
    info.pat = std::move(inner.pat);
    info.typed = std::move(inner.typed);
    info.names = std::move(inner.names);
    return;
  }
  const size_t rests = static_cast<size_t>(
      std::count_if(p.elems.begin(), p.elems.end(), [](const ast::PatElem& e) { return e.rest; }));
  const size_t named = p.elems.size() - rests;
  if (!t.is_tuple() || t.is_struct()) {  // a struct is no tuple, as in Rust (E0308)
    std::string found = "(";
    for (size_t i = 0; i < p.elems.size(); ++i) found += std::string(i ? ", " : "") + "_";
    found += p.elems.size() == 1 && !p.elems[0].rest ? ",)" : ")";
    error("E0200", s, "mismatched types: expected `" + type_name(t) + "`, found `" + found + "`",
          "expected `" + type_name(t) + "`, found `" + found + "`");
    info.ok = false;
    return;
  }
  if (rests > 1) {
    const auto second = std::find_if(
        std::find_if(p.elems.begin(), p.elems.end(), [](const ast::PatElem& e) { return e.rest; }) +
            1,
        p.elems.end(), [](const ast::PatElem& e) { return e.rest; });
    error("E0001", span(*second), "`..` can only be used once per tuple pattern",
          "can only be used once per tuple pattern");
    info.ok = false;
    return;
  }
  const size_t n = t.elems.size();
  if (rests ? named > n : named != n) {
    auto plural = [](size_t k) { return std::to_string(k) + (k == 1 ? " element" : " elements"); };
    error("E0200", s,
          "mismatched types: expected a tuple with " + plural(n) + ", found one with " +
              plural(named),
          "expected a tuple with " + plural(n) + ", found one with " + plural(named));
    info.ok = false;
    return;
  }
  // Element `i` of the type: the pattern's element before the `..`, or counted from the end.
  info.pat.kind = Pat::Kind::Tuple;
  info.typed.kind = tir::Pattern::Kind::Tuple;
  info.typed.span = s;
  size_t first = 0;  // its first scalar
  size_t before = p.elems.size();
  for (size_t k = 0; k < p.elems.size(); ++k)
    if (p.elems[k].rest) before = k;
  for (size_t i = 0; i < n; ++i) {
    const size_t count = static_cast<size_t>(t.elems[i].leaf_count());
    const std::vector<int> sub(slots.begin() + static_cast<long>(first),
                               slots.begin() + static_cast<long>(first + count));
    first += count;
    const ast::PatElem* e = nullptr;
    if (i < before)
      e = &p.elems[i];
    else if (n - i <= p.elems.size() - before - 1)
      e = &p.elems[p.elems.size() - (n - i)];
    if (!e) {
      info.pat.subs.emplace_back();
      info.typed.subs.emplace_back();
      continue;
    }
    PatAltInfo part = pattern_alts(e->alts, t.elems[i], sub, span(*e));
    info.ok = info.ok && part.ok;
    info.pat.subs.push_back(std::move(part.pat));
    info.typed.subs.push_back(std::move(part.typed));
    for (PatName& name : part.names) {
      const bool twice = std::any_of(info.names.begin(), info.names.end(),
                                     [&](const PatName& x) { return x.name == name.name; });
      if (twice) {
        error("E0102", name.span,
              "identifier `" + name.name + "` is bound more than once in the same pattern",
              "used in a pattern more than once");
        info.ok = false;
        continue;
      }
      info.names.push_back(std::move(name));
    }
  }
}

Checker::PatAltInfo Checker::pattern_alts(const std::vector<ast::PatAlt>& alts, const Type& t,
                                          const std::vector<int>& slots, Span s) {
  if (alts.size() == 1) return pattern_alt(alts[0], t, slots);
  PatAltInfo info;
  info.span = s;
  info.pat.span = s;
  info.pat.kind = Pat::Kind::Or;
  info.typed.kind = tir::Pattern::Kind::Or;
  info.typed.span = s;
  std::vector<PatAltInfo> parts;
  for (const ast::PatAlt& alt : alts) {
    parts.push_back(pattern_alt(alt, t, slots));
    info.ok = info.ok && parts.back().ok;
  }
  if (info.ok && !same_names(parts)) info.ok = false;
  info.names = parts.front().names;
  for (PatAltInfo& part : parts) {
    info.pat.subs.push_back(std::move(part.pat));
    info.typed.subs.push_back(std::move(part.typed));
  }
  return info;
}

bool Checker::same_names(const std::vector<PatAltInfo>& alts) {
  // Every alternative binds the same names (Rust's E0408).
  auto sorted = [](const PatAltInfo& a) {
    std::vector<std::string> names;
    for (const PatName& n : a.names) names.push_back(n.name);
    std::sort(names.begin(), names.end());
    return names;
  };
  const std::vector<std::string> first = sorted(alts.front());
  for (const PatAltInfo& alt : alts) {
    std::vector<std::string> names = sorted(alt);
    if (names != first) {
      std::vector<std::string> odd;
      std::set_symmetric_difference(first.begin(), first.end(), names.begin(), names.end(),
                                    std::back_inserter(odd));
      const std::string& name = odd.front();
      const bool lacks = !std::binary_search(names.begin(), names.end(), name);
      error("E0100", alt.span, "variable `" + name + "` is not bound in all patterns",
            lacks ? "pattern doesn't bind `" + name + "`" : "variable not in all patterns");
      return false;
    }
    // A name is the local of what it matches: the same part of the value in every alternative.
    for (const PatName& n : alt.names)
      for (const PatName& f : alts.front().names)
        if (n.name == f.name && n.slots != f.slots) {
          auto& d = error("E0100", n.span,
                          "variable `" + n.name +
                              "` is bound to another part of the value than in the first "
                              "alternative",
                          "bound to another part of the value");
          d.secondary.push_back({f.span, "first bound here"});
          d.notes.push_back(
              "spec/semantics.md §3: in Vx a name that several alternatives bind "
              "stands for the same element of the value in each");
          d.helps.push_back("write an arm for each alternative");
          return false;
        }
  }
  return true;
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
  if (!t.is_tuple() && (!t.is_scalar() || is_float(t.scalar))) {
    auto& d = error("E0200", scrut_span,
                    "`match` takes an integer or a `bool`, a `char` or a tuple of them, not a "
                    "value of type `" +
                        type_name(t) + "`",
                    "this has type `" + type_name(t) + "`");
    d.helps.push_back(t.is_scalar() && is_float(t.scalar)
                          ? "compare it with `<` and `>` in an `if … else if`"
                          : "match an integer or a `bool` made of it");
    return error_expr(s);
  }
  // The values the arms test: the scrutinee's own locals where they are immutable ones (so that
  // the kernel rules see a lane's index as itself), else hidden locals. A tuple's is a statement
  // of the flat tuple that declares the hidden ones (-1 for a local tested itself); the lowering
  // makes the lets (lower/lower_tuples.cpp).
  tir::Block* outer = prog_.new_block();
  outer->span = s;
  std::vector<tir::Expr*> leaves = {scrut};
  if (t.is_tuple()) {
    scrut = as_flat(scrut);
    leaves = scrut->args;
  }
  std::vector<int> slots, declared;
  for (tir::Expr* leaf : leaves) {
    const tir::Expr* read = tir::plain_local(leaf);  // `match p.x`: p.x's local
    int slot = read ? read->slot : -1;
    if (slot >= 0 && fn_->slot_mut[static_cast<size_t>(slot)]) slot = -1;
    declared.push_back(slot < 0 ? hidden_slot(leaf->type, kMatchValueName, scrut_span) : -1);
    slots.push_back(slot < 0 ? declared.back() : slot);
  }
  if (t.is_tuple()) {
    scrut->into_slots = declared;
    scrut->declares = true;
    outer->stmts.push_back(flat().statement(scrut));
    outer->stmts.back()->span = scrut_span;
  } else if (declared.front() >= 0) {
    outer->stmts.push_back(let_slot(declared.front(), scrut, scrut_span));
  }

  // The patterns, in order; then the arms' guards and bodies.
  const Type boolean = Type::of(Scalar::Bool);
  const size_t n = m.arms.size();
  std::vector<MatchArmInfo> arms(n);
  bool patterns_ok = true;
  for (size_t k = 0; k < n; ++k) {
    MatchArmInfo& a = arms[k];
    for (const ast::PatAlt& alt : m.arms[k].alts) {
      a.alts.push_back(pattern_alt(alt, t, slots));
      patterns_ok = patterns_ok && a.alts.back().ok;
    }
    if (patterns_ok && !same_names(a.alts)) patterns_ok = false;
  }
  // Each arm's typed pattern: an Or of its alternatives, which the lowering tests first, then the
  // guard.
  std::vector<tir::Pattern> arm_patterns(n);
  for (size_t k = 0; k < n; ++k) {
    arm_patterns[k].kind = tir::Pattern::Kind::Or;
    arm_patterns[k].span = span(m.arms[k]);
    for (PatAltInfo& alt : arms[k].alts) arm_patterns[k].subs.push_back(std::move(alt.typed));
  }
  // A scrutinee that is a local no test reads (`match x { _ => … }`, `0..=255` of a u8) is still
  // evaluated, as in Rust: a read of it, so that `unused_variables` does not call it unused.
  for (size_t i = 0; i < leaves.size(); ++i) {
    const tir::Expr* local = tir::plain_local(leaves[i]);
    if (!local || local->slot != slots[i]) continue;
    const int slot = slots[i];
    bool read = false;
    for (const tir::Pattern& p : arm_patterns)
      tir::walk_pattern(p, [&](const tir::Stmt*, const tir::Expr* e) {
        read = read || (e && e->kind == tir::ExprKind::Var && e->slot == slot);
      });
    if (!read)
      outer->stmts.push_back(let_slot(hidden_slot(leaves[i]->type, kMatchValueName, scrut_span),
                                      read_slot(slot, leaves[i]->span), scrut_span));
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
    if (!a.alts.front().ok) {  // its names, as locals of no type (no further errors)
      std::vector<std::pair<std::string, const ast::position_tagged*>> names;
      pattern_names(
          m.arms[k].alts.front(), [&](const std::string& name) { return consts_.count(name) > 0; },
          names);
      for (const auto& [name, at] : names) declare(name, Type::error(), false, span(*at));
    }
    for (const PatName& name : a.alts.front().names) {
      Local l{name.name, -1, name.type, false, false, name.span, {}, {}, nullptr};
      if (name.type.is_tuple())
        l.leaves = name.slots;
      else
        l.slot = name.slots.front();
      scopes_.back().push_back(std::move(l));
    }
    if (const auto& g = m.arms[k].guard)
      a.guard = coerce(check_expr(*g, &boolean), boolean, span(*g), "the guard");
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

  // Reachability: an alternative that the unguarded arms above it, and the alternatives before it
  // in its arm, already cover. A guarded arm covers nothing.
  patterns::Usefulness usefulness(kUsefulnessBudget);
  auto report = [&](Span at, const Pat& pat, const std::vector<const Pat*>& above) {
    tir::UnreachablePattern u{at, {}};
    if (prog_.unreachable_patterns.size() < kLabelledUnreachable) {
      // The earlier pattern that covers it, else those that match some of its values (three).
      std::vector<std::pair<Span, std::string>> some;
      for (const Pat* p : above) {
        if (patterns::contains(*p, pat, t) && u.because.empty())
          u.because = {{p->span, patterns::everything(*p, t) ? "matches any value"
                                                             : "matches all the relevant values"}};
        else if (patterns::overlaps(*p, pat) && some.size() < 3)
          some.push_back({p->span, "matches some of the same values"});
      }
      if (u.because.empty()) u.because = std::move(some);
    }
    prog_.unreachable_patterns.push_back(std::move(u));
  };
  patterns::Usefulness nested(kUsefulnessBudget);  // its own: the lint leaves E0208's budget whole
  size_t nested_looked_at = 0;
  // The unguarded alternatives of the arms so far, then those of this arm before the one looked
  // at (one list, never copied: 10,000 alternatives of one arm copied it 10,000 times). A scalar's
  // alternatives are looked up in the values the ones above cover (patterns::Cover), each in
  // O(log n); a tuple's go through the usefulness algorithm. Once its budget is spent, no more is
  // looked at: E0208 says so below.
  std::vector<const Pat*> rows;
  const bool scalar = !t.is_tuple();
  patterns::Cover above(t.scalar);  // a scalar's unguarded alternatives so far
  for (size_t k = 0; k < n && !usefulness.exhausted(); ++k) {
    const size_t unguarded = rows.size();
    patterns::Cover own(t.scalar);  // this arm's alternatives so far
    for (const PatAltInfo& alt : arms[k].alts) {
      if (usefulness.exhausted()) break;
      if (scalar ? !above.holds(alt.pat, own) : usefulness.useful(rows, alt.pat, t))
        nested_unreachable(nested, rows, alt.pat, t, {}, report, nested_looked_at);
      else
        report(alt.span, alt.pat, rows);
      rows.push_back(&alt.pat);
      if (scalar) own.add(alt.pat);
    }
    if (m.arms[k].guard)
      rows.resize(unguarded);
    else if (scalar)
      for (size_t i = unguarded; i < rows.size(); ++i) above.add(*rows[i]);
  }

  // Exhaustiveness: the values no unguarded arm covers, as rustc names them.
  const std::vector<std::string> witnesses = usefulness.missing(rows, t, scalar);
  if (usefulness.exhausted()) {
    auto& d = error("E0208", scrut_span,
                    "reached pattern complexity limit: Vx cannot prove this `match` exhaustive",
                    "too many patterns to check");
    d.helps.push_back("split the `match` into nested ones, each on a part of the value");
    return error_expr(s);
  }
  if (!witnesses.empty()) {
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
  // The arm that completes the cover: the first whose rows, with those above, leave no value.
  size_t last = n - 1;
  {
    size_t lo = 0, hi = n - 1;  // the first such arm is in [lo, hi]
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      std::vector<const Pat*> upto;
      for (size_t k = 0; k <= mid; ++k)
        if (!m.arms[k].guard)
          for (const PatAltInfo& alt : arms[k].alts) upto.push_back(&alt.pat);
      patterns::Usefulness prefix(kUsefulnessBudget);
      static const Pat kAny{};
      if (prefix.useful(upto, kAny, t))
        lo = mid + 1;
      else
        hi = mid;
    }
    last = lo;
  }

  // The typed `match`: the lowering makes it the chain of `if`s (lower/lower_match.cpp).
  tir::Match* node = prog_.new_match();
  node->setup = outer;
  node->slots = slots;
  node->last = last;
  for (size_t k = 0; k < n; ++k)
    node->arms.push_back(
        {std::move(arm_patterns[k]), arms[k].guard, arms[k].body, span(m.arms[k])});
  tir::Expr* r = make(tir::ExprKind::Match, result.is_error() ? Type::unit() : result, s);
  r->match = node;
  return r;
}

}  // namespace vx::check
