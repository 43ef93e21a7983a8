// `match` (lower/lower.hpp): a Match of the typed program (check/tir.hpp) made the block of `if`s
// that the back ends run, in place. A pattern's test reads the scrutinee's locals: `m == v` for one
// value, `m <= hi` or `m >= lo` for a range that reaches an end of its type, both for another;
// a tuple's is the `&&` of its elements' tests, an or-pattern's the `||` of its alternatives'.
#include <vector>

#include "check/match_usefulness.hpp"
#include "lower/lower.hpp"
#include "lower/lower_tuples.hpp"
#include "lower/lower_write_backs.hpp"

namespace vx::lower {

namespace {

using tir::Block;
using tir::Expr;
using tir::ExprKind;
using tir::Pattern;
using tir::Stmt;

class Lowering {
 public:
  Lowering(tir::Program& program, tir::Function& fn)
      : prog_(program), fn_(fn), build_(program, &fn) {}

  void function() {
    write_back_at_end(build_, fn_);  // lower_write_backs.cpp
    block(fn_.body);
  }

  void block(Block* b) {
    if (!b) return;
    spread_tuple_stores(build_, b);  // lower_tuples.cpp
    write_back_on_return(build_, fn_, b);
    for (Stmt* s : b->stmts) stmt(s);
    expr(b->tail);
  }

 private:
  tir::Program& prog_;
  tir::Function& fn_;
  tir::FlatBuilder build_;  // the function's hidden locals (check/flat_tuples.hpp)

  void stmt(Stmt* s) {
    for (Expr* e : s->exprs()) expr(e);
    block(s->body);
  }

  // The expressions inside `e` first (a `match` in an arm of another is lowered before it).
  void expr(Expr* e) {
    if (!e) return;
    if (!e->into_slots.empty()) route_tuple_value(build_, e);  // before its branches are lowered
    for (Expr* a : e->args) expr(a);
    block(e->block);
    block(e->else_block);
    lower_tuple_use(build_, e);  // lower_tuples.cpp
    if (e->kind != ExprKind::Match) return;
    tir::Match& m = *e->match;
    block(m.setup);
    for (size_t k = 0; k < m.taken(); ++k) {
      expr(m.arms[k].guard);
      block(m.arms[k].body);
    }
    lower_match(e);
  }

  Expr* binary(tir::BinOp op, Expr* a, Expr* b, Span span) {
    Expr* e = build_.make(ExprKind::Binary, Type::of(Scalar::Bool), span);
    e->bop = op;
    e->args = {a, b};
    return e;
  }

  // The `||` (or `&&`) of tests [from, to), as a balanced tree: as deep as the logarithm of their
  // number, so that a pattern of many alternatives stays within the depth limit (spec/grammar.md
  // §1.5); parser.cpp's estimate of that depth follows this shape.
  Expr* joined(const std::vector<Expr*>& tests, size_t from, size_t to, Span span, tir::BinOp op) {
    if (to - from == 1) return tests[from];
    const size_t mid = from + (to - from) / 2;
    return binary(op, joined(tests, from, mid, span, op), joined(tests, mid, to, span, op), span);
  }

  // The test of a pattern; null for one that every value matches (tir::has_test).
  Expr* test(const Pattern& p) {
    switch (p.kind) {
      case Pattern::Kind::Any:
        return nullptr;
      case Pattern::Kind::Value:
        return value_test(p);
      case Pattern::Kind::Tuple: {
        std::vector<Expr*> tests;
        for (const Pattern& sub : p.subs)
          if (Expr* t = test(sub)) tests.push_back(t);
        return tests.empty() ? nullptr : joined(tests, 0, tests.size(), p.span, tir::BinOp::And);
      }
      case Pattern::Kind::Or: {  // an alternative every value matches: so does the whole
        std::vector<Expr*> tests;
        for (const Pattern& sub : p.subs) {
          Expr* t = test(sub);
          if (!t) return nullptr;
          tests.push_back(t);
        }
        return tests.empty() ? nullptr : joined(tests, 0, tests.size(), p.span, tir::BinOp::Or);
      }
    }
    return nullptr;
  }

  // `m == v`, `m <= hi`, `m >= lo`, or `m >= lo && m <= hi`, of the local `p.var` reads.
  Expr* value_test(const Pattern& p) {
    const Type& t = p.var->type;
    bool first = true;
    auto compare = [&](tir::BinOp op, check::patterns::Int v) {
      Expr* var = p.var;
      if (!first) {
        var = prog_.new_expr();
        *var = *p.var;
      }
      first = false;
      Expr* lit = build_.make(ExprKind::Literal, t, p.span);
      lit->lit.i = static_cast<int64_t>(static_cast<uint64_t>(v));
      return binary(op, var, lit, p.span);
    };
    const std::vector<check::patterns::Interval> all = check::patterns::type_values(t.scalar);
    if (p.lo == p.hi) return compare(tir::BinOp::Eq, p.lo);
    if (p.lo <= all.front().lo) return compare(tir::BinOp::Le, p.hi);
    if (p.hi >= all.back().hi) return compare(tir::BinOp::Ge, p.lo);
    Expr* lo = compare(tir::BinOp::Ge, p.lo);
    return binary(tir::BinOp::And, lo, compare(tir::BinOp::Le, p.hi), p.span);
  }

  // The Match `e` made a BlockExpr: its setup, then the chain of `if`s from the arm that
  // completes the cover (the final `else`) back to the first.
  void lower_match(Expr* e) {
    tir::Match& m = *e->match;
    Block* chain = m.arms[m.last].body;
    Expr* top = nullptr;
    for (size_t k = m.last; k-- > 0;) {
      const tir::MatchArm& arm = m.arms[k];
      Expr* cond = test(arm.pattern);
      if (arm.guard) cond = cond ? binary(tir::BinOp::And, cond, arm.guard, arm.span) : arm.guard;
      Expr* branch = build_.make(ExprKind::If, e->type, arm.span);
      branch->args = {cond};
      branch->block = arm.body;
      branch->else_block = chain;
      top = branch;
      chain = prog_.new_block();
      chain->span = arm.span;
      if (m.routed)
        chain->stmts.push_back(build_.statement(branch));
      else
        chain->tail = branch;
    }
    if (!top) {
      top = build_.make(ExprKind::BlockExpr, e->type, m.arms[m.last].span);
      top->block = m.arms[m.last].body;
    }
    Block* outer = m.setup;
    if (top->type.is_unit())  // a unit-valued chain is the block's last statement
      outer->stmts.push_back(build_.statement(top));
    else
      outer->tail = top;
    e->kind = ExprKind::BlockExpr;
    e->block = outer;
    e->from_match = true;
    e->match = nullptr;
  }
};

}  // namespace

void lower_program(tir::Program& program) {
  for (tir::Function& f : program.functions) Lowering(program, f).function();
}

}  // namespace vx::lower
