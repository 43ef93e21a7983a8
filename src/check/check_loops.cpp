// `loop` as an expression, and the `break`s that give it its value (spec/grammar.md §3,
// spec/semantics.md §3, spec/types.md §2 context 9). A `loop` is checked into what every back end
// already runs: a hidden local for its value, declared without one before the loop, the Loop
// statement, and a read of the local after it; `break v;` is `local = v; break;` (a tuple: a
// local per scalar). A `loop` whose `break`s carry no value is the Loop statement alone.
#include <algorithm>
#include <boost/variant/get.hpp>
#include <cctype>
#include <set>

#include "check/checker_impl.hpp"
#include "support/suggest.hpp"

namespace vx::check {

const ast::LoopExpr* bare_loop(const ast::Expr& e) {
  if (!e.rest.empty() || !e.first.types.empty() || !e.first.operand.ops.empty() ||
      !e.first.operand.operand.suffixes.empty())
    return nullptr;
  return boost::get<ast::LoopExpr>(&e.first.operand.operand.base);
}

bool Checker::untyped_value(const ast::Expr& e) const {
  static const std::set<std::string> arithmetic = {"+", "-", "*", "/", "%", "&", "|", "^"};
  if (!untyped_literal(e.first)) return false;
  for (const ast::BinaryRest& r : e.rest)
    if (!arithmetic.count(r.op) || !untyped_literal(r.operand)) return false;
  return true;
}

namespace {
constexpr const char* kLoopValueName = "_loop";  // `_`: never reported as unused

// A local of the function that no name reaches: the value of a `loop`.
int new_loop_slot(tir::Function& f, const Type& t, Span decl) {
  f.slot_types.push_back(t);
  f.slot_names.push_back(kLoopValueName);
  f.slot_decls.push_back(decl);
  f.slot_mut.push_back(false);
  return f.slot_count() - 1;
}
}  // namespace

Span Checker::loop_head(Span whole, const ast::Block& body) const {
  const std::string_view text = file_.text();
  uint32_t end = std::max(whole.begin, span(body).begin);
  while (end > whole.begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return {whole.begin, end};
}

Checker::LoopParts Checker::check_loop(const ast::LoopExpr& l, const Type* expected, Span s,
                                       bool as_value) {
  tir::Stmt* loop = prog_.new_stmt();
  loop->kind = tir::StmtKind::Loop;
  loop->span = s;
  const MoveState before = save_moves();
  enter_loop("loop", loop_head(s, l.body.get()), loop, l.label);
  if (expected) loop_flows_.back().value_type = *expected;
  Type r, unit;
  loop->body = check_block(l.body.get(), &unit, r);
  LoopFlow flow = leave_loop(before, loop->body);

  LoopParts parts;
  bool any_value = false;
  for (const LoopBreak& b : flow.breaks) any_value = any_value || b.assign;
  // The loop's type: what it expects, else the first `break` value with a type of its own, else
  // the first value's own type (an unsuffixed literal's default).
  Type t = Type::unit();
  if (any_value) {
    if (flow.value_type) {
      t = *flow.value_type;
    } else {
      for (LoopBreak& b : flow.breaks)
        if (b.deferred) {
          b.assign->value = check_expr(*b.deferred, nullptr);
          b.deferred = nullptr;
          t = b.assign->value->type;
          break;
        }
    }
    for (LoopBreak& b : flow.breaks) {
      if (!b.assign) {
        if (!t.is_error()) {
          auto& d = error("E0200", b.span,
                          "mismatched types: expected `" + type_name(t) + "`, found `()`",
                          "this `break` has no value");
          d.helps.push_back("give it a value of type `" + type_name(t) +
                            "`, as the loop's other `break`s do");
        }
        continue;
      }
      if (b.deferred) b.assign->value = check_expr(*b.deferred, &t);
      b.assign->value = coerce(b.assign->value, t, b.assign->value->span, "the `break` value");
      b.assign->target->type = t;
    }
  } else if (flow.breaks.empty() && as_value && expected &&
             (expected->is_scalar() || expected->is_tuple())) {
    // A loop that never ends fits any type: its value, where one is needed, is never read.
    t = *expected;
    flow.value_slot = new_loop_slot(*fn_, t, s);
  }
  if (t.is_tuple()) {
    // A tuple (spec/types.md §8): a hidden local per scalar; `break v;` routes v's scalars into
    // them, and the loop's value is a flat tuple of them.
    if (flow.value_slot >= 0) fn_->slot_types[flow.value_slot] = Type::of(Scalar::I32);  // unread
    const std::vector<int> slots = leaf_slots(t, kLoopValueName, s, false);
    for (int slot : slots)  // no value for a tensor field yet (zero_of): the break gives it
      parts.stmts.push_back(
          let_slot(slot, zero_of(fn_->slot_types[static_cast<size_t>(slot)], s), s));
    for (LoopBreak& b : flow.breaks) {
      if (!b.assign || !b.assign->value || !b.assign->value->type.is_tuple()) continue;
      tir::Expr* routed = make(tir::ExprKind::BlockExpr, Type::unit(), b.assign->span);
      routed->block = prog_.new_block();
      routed->block->span = b.assign->span;
      route_into(as_flat(b.assign->value), slots, routed->block->stmts);
      b.assign->kind = tir::StmtKind::Expr;
      b.assign->target = nullptr;
      b.assign->value = routed;
    }
    parts.stmts.push_back(loop);
    parts.value = new_flat(t, s);
    for (int slot : slots) parts.value->args.push_back(read_slot(slot, s));
    return parts;
  }
  if (flow.value_slot >= 0 && !t.is_unit()) {
    fn_->slot_types[flow.value_slot] = t;
    tir::Stmt* let = prog_.new_stmt();
    let->kind = tir::StmtKind::Let;
    let->span = s;
    let->slot = flow.value_slot;
    let->var_name = kLoopValueName;
    parts.stmts.push_back(let);
    parts.value = make(tir::ExprKind::Var, t, s);
    parts.value->slot = flow.value_slot;
    parts.value->text = kLoopValueName;
  }
  parts.stmts.push_back(loop);
  return parts;
}

tir::Expr* Checker::check_loop_expr(const ast::LoopExpr& l, const Type* expected, Span s) {
  LoopParts parts = check_loop(l, expected, s, true);
  if (parts.value && parts.value->type.is_tuple()) {  // a flat tuple: the loop is its prelude
    parts.value->block->stmts = std::move(parts.stmts);
    return parts.value;
  }
  tir::Block* b = prog_.new_block();
  b->span = s;
  b->stmts = std::move(parts.stmts);
  b->tail = parts.value;
  tir::Expr* e = make(tir::ExprKind::BlockExpr, b->tail ? b->tail->type : Type::unit(), s);
  e->block = b;
  return e;
}

int Checker::jump_target(const boost::optional<ast::Label>& label, const char* word,
                         tir::Stmt* st) {
  // Only the loops of this function and region: a region's body starts with loop_depth_ at 0.
  const size_t first = loop_flows_.size() - static_cast<size_t>(loop_depth_);
  int found = -1;
  if (!label) {
    if (loop_depth_ > 0) found = static_cast<int>(loop_flows_.size()) - 1;
  } else {
    for (size_t i = loop_flows_.size(); i-- > first && found < 0;)
      if (loop_flows_[i].label == label->name) found = static_cast<int>(i);
  }
  if (found >= 0) {
    st->jump_target = loop_flows_[found].stmt;
    st->levels = static_cast<int>(loop_flows_.size()) - 1 - found;
    return found;
  }
  if (!label) {
    error("E0500", st->span, std::string("`") + word + "` outside of a loop",
          spawn_depth_ > 0 ? "a `spawn on` region is not a loop" : "not in a loop");
    return -1;
  }
  const std::string name = "'" + label->name;
  auto& d = error("E0505", span(*label), "use of undeclared label `" + name + "`",
                  "undeclared label `" + name + "`");
  std::vector<std::string> reachable;
  for (size_t i = first; i < loop_flows_.size(); ++i)
    if (!loop_flows_[i].label.empty()) reachable.push_back("'" + loop_flows_[i].label);
  if (auto near = closest_name(name, reachable))
    d.helps.push_back("a label with a similar name is reachable: `" + *near + "`");
  else
    d.notes.push_back(std::string("a `") + word +
                      "` can name the label of a loop around it, in the same function (and the "
                      "same `spawn on` region)");
  return -1;
}

// `(a..b).rev()`, `(a..b).step_by(k)` and their chains (spec/semantics.md §3). The step is a
// count, as Rust's `usize` is: of any integer type, an unsuffixed literal there being i32 (it
// gives no type, as an index does; spec/types.md §2, context 3). A constant step below 1 is
// E0506; a computed one is checked when the loop starts (a runtime error, as Rust's `step_by(0)`
// panics).
void Checker::check_range_adapters(const ast::ForRange& r, tir::Stmt* st) {
  for (const ast::MethodSuffix& m : r.adapters) {
    const std::string& name = m.name.name;
    const bool rev = name == "rev";
    if (!rev && name != "step_by") {
      auto& d = error("E0105", span(m.name), "a range has no method `" + name + "`",
                      "a `for` range takes `.rev()` and `.step_by(k)`");
      if (auto near = closest_name(name, {"rev", "step_by"}))
        d.helps.push_back("there is a method `" + *near + "` with a similar name");
      for (const ast::Expr& a : m.args) check_expr(a, nullptr);
      continue;
    }
    const size_t want = rev ? 0 : 1;
    if (m.args.size() != want) {
      error("E0201", span(m),
            "`." + name + "()` takes " + std::to_string(want) +
                (want == 1 ? " argument" : " arguments") + " but " + std::to_string(m.args.size()) +
                (m.args.size() == 1 ? " was" : " were") + " given",
            "wrong number of arguments");
      for (const ast::Expr& a : m.args) check_expr(a, nullptr);
      continue;
    }
    tir::RangeAdapter a;
    a.span = span(m.name);
    if (!rev) {
      const Span at = span(m.args[0]);
      tir::Expr* k = check_expr(m.args[0], nullptr);
      const Type& kt = k->type;
      if (!kt.is_error() && !(kt.is_scalar() && is_int(kt.scalar))) {
        error("E0200", at,
              "mismatched types: the step of `step_by` is an integer, not `" + type_name(kt) + "`",
              "this has type `" + type_name(kt) + "`");
        k = error_expr(at);
      } else if (k->kind == tir::ExprKind::Literal &&
                 (is_signed_int(kt.scalar) ? k->lit.i <= 0 : k->lit.i == 0)) {
        const std::string v = std::to_string(k->lit.i);
        auto& d = error("E0506", at, "the step of `step_by` is " + v + ": a step is at least 1",
                        "a step of " + v);
        if (k->lit.i == 0)
          d.notes.push_back("Rust's `step_by(0)` panics: \"assertion failed: step != 0\"");
        else
          d.notes.push_back("a range steps up only; `.rev()` walks it down");
      }
      a.step = k;
    }
    st->adapters.push_back(a);
  }
}

void Checker::check_continue(const ast::ContinueStmt& c, tir::Stmt* st,
                             std::vector<tir::Stmt*>& out) {
  st->kind = tir::StmtKind::Continue;
  const int fi = jump_target(c.label, "continue", st);
  if (fi >= 0) join_moves(loop_flows_[fi].at_continue);
  out.push_back(st);
}

void Checker::check_break(const ast::BreakStmt& b, tir::Stmt* st, std::vector<tir::Stmt*>& out) {
  st->kind = tir::StmtKind::Break;
  // The flow is found again by its index: checking the value may open loops of its own.
  const int fi = jump_target(b.label, "break", st);
  if (fi < 0) {
    out.push_back(st);
    return;
  }
  const std::string kind = loop_flows_[fi].kind;
  if (b.value && kind != "loop") {
    auto& d = error("E0504", st->span, "`break` with value from a `" + kind + "` loop",
                    "can only break with a value inside `loop`");
    d.secondary.push_back(
        {loop_flows_[fi].head, "you can't `break` with a value in a `" + kind + "` loop"});
    d.helps.push_back("use `break` on its own without a value inside this `" + kind + "` loop");
  } else if (b.value) {
    if (loop_flows_[fi].value_slot < 0)  // typed once the loop's type is known
      loop_flows_[fi].value_slot = new_loop_slot(*fn_, Type::unit(), loop_flows_[fi].head);
    tir::Stmt* assign = prog_.new_stmt();
    assign->kind = tir::StmtKind::Assign;
    assign->span = st->span;
    assign->target = make(tir::ExprKind::Var, Type::unit(), st->span);
    assign->target->slot = loop_flows_[fi].value_slot;
    assign->target->text = kLoopValueName;
    const ast::Expr* deferred = nullptr;
    const auto* paren = b.value->rest.empty() && b.value->first.types.empty() &&
                                b.value->first.operand.ops.empty() &&
                                b.value->first.operand.operand.suffixes.empty()
                            ? boost::get<ast::Paren>(&b.value->first.operand.operand.base)
                            : nullptr;
    if (loop_flows_[fi].value_type) {
      const Type want = *loop_flows_[fi].value_type;
      assign->value = check_expr(*b.value, &want);
    } else if (untyped_value(*b.value) && !(paren && paren->is_tuple())) {
      deferred = &*b.value;  // literals only: checked once the loop's type is known
    } else {
      assign->value = check_expr(*b.value, nullptr);
    }
    if (assign->value && !deferred && !loop_flows_[fi].value_type)
      loop_flows_[fi].value_type = assign->value->type;
    if (assign->value) mark_moved(assign->value, span(*b.value));
    out.push_back(assign);
    loop_flows_[fi].breaks.push_back({assign, deferred, st->span});
  } else if (kind == "loop") {
    loop_flows_[fi].breaks.push_back({nullptr, nullptr, st->span});
  }
  join_moves(loop_flows_[fi].at_break);
  out.push_back(st);
}

}  // namespace vx::check
