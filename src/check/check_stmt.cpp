// Statements: `let`, `return`, `while`, `for`, `spawn on`, expression statements and assignments,
// each checked and lowered to its tir::Stmt (issue 36: one function per kind of ast::Stmt, picked
// by ast::visit). `break` and `continue` are in check_loops.cpp, `let (a, b)` in check_tuple.cpp.
#include <algorithm>
#include <boost/variant/get.hpp>
#include <optional>

#include "check/checker_impl.hpp"
#include "support/internal_error.hpp"

namespace vx::check {

tir::BinOp compound_op(const std::string& op) {
  static const std::map<std::string, tir::BinOp> ops = [] {  // parse/operators.def
    std::map<std::string, tir::BinOp> m;
#define VX_BINOP(E, spelling, precedence, cls, compound, fn) \
  if (*compound) m.emplace(compound, tir::BinOp::E);
#include "parse/operators.def"
#undef VX_BINOP
    return m;
  }();
  return must_find(ops, op);
}

namespace {
// Where the value of a block-like expression comes from, for a message: the tail of its first
// block that has a value, into nested `if`s and blocks.
Span value_origin(const tir::Expr* e) {
  for (;;) {
    const tir::Expr* next = nullptr;
    for (const tir::Block* b : tir::branches(e))
      if (!next && b->tail && !b->tail->type.is_unit()) next = b->tail;
    if (!next) return e->span;
    e = next;
  }
}

// The place `p` with its parentheses taken off, as Rust reads a place: `(t.1).0` is `t.1.0`,
// `(p.inner).x` is `p.inner.x`, `(x)` is `x`. Only parentheses around a place of their own (no
// operator, cast or tuple inside) go; `(*r).x` keeps them (place_root reads it). Null when `p`
// has none to take off.
std::optional<ast::Postfix> without_parens(const ast::Postfix& p) {
  const auto* par = boost::get<ast::Paren>(&p.base);
  if (!par || par->is_tuple()) return std::nullopt;
  const ast::Expr& inner = par->inner.get();
  if (!inner.rest.empty() || !inner.first.types.empty() || !inner.first.operand.ops.empty())
    return std::nullopt;
  ast::Postfix out = p;  // the whole place's position: a diagnostic underlines `(t.1).0`
  const ast::Postfix& in = inner.first.operand.operand;
  out.base = in.base;
  out.suffixes = in.suffixes;
  out.suffixes.insert(out.suffixes.end(), p.suffixes.begin(), p.suffixes.end());
  if (auto deeper = without_parens(out)) return deeper;
  return out;
}
}  // namespace

void Checker::check_stmt(const ast::Stmt& s, std::vector<tir::Stmt*>& out) {
  tir::Stmt* st = prog_.new_stmt();
  st->span = span(s);
  ast::visit(
      s, [&](const ast::LetStmt& x) { check_let(x, st, out); },
      [&](const ast::LetTupleStmt& x) { check_let_tuple(x, st->span, out); },
      [&](const ast::ReturnStmt& x) { check_return(x, st, out); },
      [&](const ast::BreakStmt& x) { check_break(x, st, out); },
      [&](const ast::ContinueStmt& x) { check_continue(x, st, out); },
      [&](const ast::WhileStmt& x) { check_while(x, st, out); },
      [&](const ast::ForStmt& x) { check_for(x, st, out); },
      [&](const ast::SpawnStmt& x) { check_spawn(x, st, out); },
      [&](const ast::ExprStmt& x) { check_expr_stmt(x, st, out); });
}

void Checker::check_let(const ast::LetStmt& let, tir::Stmt* st, std::vector<tir::Stmt*>& out) {
  st->kind = tir::StmtKind::Let;
  Type declared;
  bool has_type = false;
  if (let.type) {
    declared = resolve_type(*let.type);
    has_type = true;
  }
  Type t = declared;
  if (let.init) {
    st->value = check_expr(*let.init, has_type ? &declared : nullptr);
    if (has_type)
      st->value = coerce(st->value, declared, span(*let.init));
    else
      t = st->value->type;
    mark_moved(st->value, span(*let.init));
  } else if (!(has_type && session_decl(st->span))) {
    // Vx has no deferred initialisation (spec/grammar.md §3): a binding always has a value.
    const std::string shown = has_type ? ": " + type_name(declared) : "";
    error("E0001", st->span, "Vx has no `let` without a value",
          "give `" + let.name.name + "` its first value here: `let " + (let.is_mut ? "mut " : "") +
              let.name.name + shown + " = …;`");
    t = Type::error();
  }
  if (t.is_struct_ref()) return declare_struct_ref(let.name.name, t, st->value, span(let.name));
  if (t.is_tuple()) {
    declare_tuple(let.name.name, t, let.is_mut, span(let.name),
                  st->value && st->value->type.is_tuple() ? st->value : nullptr, out);
    return;
  }
  if (t.kind == TypeKind::Tensor && t.memory == Memory::Smem && spawn_depth_ == 0)
    error("E0402", st->span, "an SMEM tile can only be made in a `spawn on` region",
          "`" + let.name.name + "` is made in host code");
  st->var_name = let.name.name;
  st->slot = declare(let.name.name, t, let.is_mut, span(let.name));
  if (!has_type && let.init && t.is_scalar() && untyped_literal(*let.init))
    scopes_.back().back().literal_value = st->value;
  if (st->value && t.kind == TypeKind::Ref)
    record_let_borrow(let.name.name, st->slot, st->value, span(*let.init));
  out.push_back(st);
}

void Checker::check_return(const ast::ReturnStmt& ret, tir::Stmt* st,
                           std::vector<tir::Stmt*>& out) {
  st->kind = tir::StmtKind::Return;
  // Inside a block loop, leaving the across loop is the kernel rules' E6032.
  if (spawn_depth_ > 0 && block_loop_depth_ == 0) {
    error("E0503", st->span, "`return` cannot leave a `spawn on` region",
          "inside a `spawn on` region");
  }
  if (ret.value) {
    st->value = check_expr(*ret.value, &sig_->ret);
    st->value = coerce(st->value, sig_->ret, span(*ret.value), "the returned value");
    mark_moved(st->value, span(*ret.value));
    if (sig_->ret.is_tuple()) return return_tuple(st->value, st->span, out, true);
  } else if (!sig_->ret.is_unit() && !sig_->ret.is_error()) {
    error("E0200", st->span, "`return;` in a function that returns `" + type_name(sig_->ret) + "`",
          "expected a value");
  }
  out.push_back(st);
}

void Checker::check_while(const ast::WhileStmt& w, tir::Stmt* st, std::vector<tir::Stmt*>& out) {
  st->kind = tir::StmtKind::While;
  Type b = Type::of(Scalar::Bool);
  st->value = coerce(check_expr(w.cond, &b), b, span(w.cond), "the condition");
  const MoveState before = save_moves();
  enter_loop("while", loop_head(st->span, w.body.get()), st, w.label);
  Type r;
  Type unit;
  st->body = check_block(w.body.get(), &unit, r);
  leave_loop(before, st->body);
  out.push_back(st);
}

void Checker::check_for(const ast::ForStmt& f, tir::Stmt* st, std::vector<tir::Stmt*>& out) {
  const ast::ForRange& range = f.range;
  st->kind = tir::StmtKind::For;
  st->inclusive = range.range_op == "..=";
  // The bounds share one integer type; an unsuffixed literal takes the other's.
  bool start_lit = untyped_literal(range.start.first) && range.start.rest.empty();
  if (start_lit) {
    st->end = check_expr(range.end, nullptr);
    st->start = check_expr(range.start, &st->end->type);
  } else {
    st->start = check_expr(range.start, nullptr);
    st->end = check_expr(range.end, &st->start->type);
  }
  Type t = st->start->type;
  if (!t.is_error() && !(t.is_scalar() && is_int(t.scalar))) {
    error("E0200", span(range.start), "a range needs integers, not `" + type_name(t) + "`");
    t = Type::error();
  }
  if (!t.is_error()) st->end = coerce(st->end, t, span(range.end), "the end of the range");
  check_range_adapters(range, st);
  // Where an across loop may stand is a kernel rule (E6032, rules/kernel_rules.cpp).
  if (f.across) {
    st->across = f.across->level == "blocks" ? tir::Across::Blocks : tir::Across::Lanes;
    if (f.across->lane_count) {
      if (st->across == tir::Across::Blocks) {
        error("E0001", span(*f.across->lane_count), "`across blocks` takes no count",
              "write `across blocks`");
      } else {
        Type i32 = Type::of(Scalar::I32);
        tir::Expr* n =
            check_int_lit(*f.across->lane_count, &i32, false, span(*f.across->lane_count));
        if (!n->type.is_error()) {
          st->lane_count = static_cast<int>(n->lit.i);
          st->lanes_written = true;
        }
      }
    }
  }
  const MoveState before = save_moves();
  scopes_.emplace_back();
  st->var_name = f.var.name;
  st->slot = declare(f.var.name, t, false, span(f.var));
  enter_loop("for", loop_head(st->span, f.body.get()), st, f.label);
  if (st->across == tir::Across::Blocks) ++block_loop_depth_;
  Type r, unit;
  st->body = check_block(f.body.get(), &unit, r);
  if (st->across == tir::Across::Blocks) --block_loop_depth_;
  leave_loop(before, st->body);
  scopes_.pop_back();
  out.push_back(st);
}

void Checker::check_spawn(const ast::SpawnStmt& sp, tir::Stmt* st, std::vector<tir::Stmt*>& out) {
  st->kind = tir::StmtKind::Spawn;
  const auto& segs = sp.topology.segments;
  if (!(segs.size() == 2 && segs[0].name == "Topology" && segs[1].name == "Device")) {
    std::string name;
    for (size_t i = 0; i < segs.size(); ++i) name += (i ? "::" : "") + segs[i].name;
    error("E0403", span(sp.topology), "unknown topology `" + name + "`",
          "expected `Topology::Device`");
  }
  if (spawn_depth_ > 0)
    error("E0404", st->span, "a `spawn on` region cannot be inside another one",
          "nested `spawn on`");
  if (fn_index_ >= 0) has_spawn_[fn_index_] = true;
  int saved_loops = loop_depth_;
  loop_depth_ = 0;
  ++spawn_depth_;
  Type r, unit;
  st->body = check_block(sp.body.get(), &unit, r);
  --spawn_depth_;
  loop_depth_ = saved_loops;
  out.push_back(st);
}

void Checker::check_expr_stmt(const ast::ExprStmt& es, tir::Stmt* st,
                              std::vector<tir::Stmt*>& out) {
  // A block-like statement without `;` before the end of its block (`loop { … }`, `if`, a block)
  // is a statement of type `()`, as in Rust (rustc's E0308): `loop { break 5; } i = 1;` is E0200.
  // With `;` its value, if any, is dropped. (The block's last one is its tail: check_block.)
  const bool unit_stmt = !es.assign && !es.semicolon;
  const Type unit = Type::unit();
  if (const ast::LoopExpr* lp = es.assign ? nullptr : bare_loop(es.expr)) {
    // A `loop` statement: a value of its `break`s is E0200 there without `;`, else not used.
    LoopParts parts = check_loop(*lp, unit_stmt ? &unit : nullptr, span(*lp), false);
    out.insert(out.end(), parts.stmts.begin(), parts.stmts.end());
    return;
  }
  if (!es.assign) {
    st->kind = tir::StmtKind::Expr;
    st->value = check_expr(es.expr, unit_stmt ? &unit : nullptr);
    const Type& vt = st->value->type;
    if (unit_stmt && !vt.is_unit() && !vt.is_error()) {
      auto& d = error("E0200", value_origin(st->value),
                      "mismatched types: expected `()`, found `" + type_name(vt) + "`",
                      "expected `()`, found `" + type_name(vt) + "`");
      d.secondary.push_back({span(es), "expected this to be `()`"});
      d.helps.push_back(
          "end the statement with `;` to drop its value, or make it the last expression of "
          "the block");
    }
    mark_moved(st->value, span(es.expr));
    if (vt.is_tuple()) {  // its prelude, and the elements that have effects
      out.insert(out.end(), st->value->block->stmts.begin(), st->value->block->stmts.end());
      return drop_leaves(st->value->args, 0, st->value->args.size(), out);
    }
    out.push_back(st);
    return;
  }
  check_assign(es, st, out);
}

// An assignment: the target is a local, a tensor element, a tuple's or a struct's field.
void Checker::check_assign(const ast::ExprStmt& es, tir::Stmt* st, std::vector<tir::Stmt*>& out) {
  st->kind = tir::StmtKind::Assign;
  const ast::AssignTail& a = *es.assign;
  st->compound = a.op != "=";
  if (st->compound) st->op = compound_op(a.op);
  const ast::Expr& target = es.expr;
  Span tspan = span(target);
  const ast::Postfix* place = nullptr;
  if (target.rest.empty() && target.first.types.empty() && target.first.operand.ops.empty())
    place = &target.first.operand.operand;
  std::optional<ast::Postfix> unwrapped = place ? without_parens(*place) : std::nullopt;
  if (unwrapped) place = &*unwrapped;
  const ast::PathExpr* pe = place ? place_root(*place) : nullptr;
  bool simple_name = pe && !pe->call_args && pe->path.segments.size() == 1;
  bool all_index = place && std::all_of(place->suffixes.begin(), place->suffixes.end(),
                                        [](const ast::Suffix& x) {
                                          return boost::get<ast::IndexSuffix>(&x) != nullptr;
                                        });
  const bool all_field =
      place && !place->suffixes.empty() &&
      std::all_of(place->suffixes.begin(), place->suffixes.end(),
                  [](const ast::Suffix& x) { return boost::get<ast::FieldSuffix>(&x) != nullptr; });
  if (simple_name && pe == boost::get<ast::PathExpr>(&place->base) && !all_index &&
      !lookup(pe->path.segments[0].name)) {
    // `q.n += 1;` of no `q`: E0100, as a read of `q.n` says it (with a name that is near).
    check_expr(target, nullptr);
    check_expr(a.value, nullptr);
    return;
  }
  if (simple_name && pe == boost::get<ast::PathExpr>(&place->base)) {
    Local* l = lookup(pe->path.segments[0].name);
    if (l && (l->type.is_tuple() || all_field)) {
      if (all_field && !l->type.is_tuple()) {
        error("E0211", tspan,
              l->type.is_scalar() ? "`" + type_name(l->type) +
                                        "` is a primitive type and therefore doesn't have fields"
                                  : "no field on type `" + type_name(l->type) + "`",
              "not a tuple");
        check_expr(a.value, nullptr);
        return;
      }
      return check_tuple_assign(*l, *place, a, tspan, out);
    }
  }
  // `*r = value;` of a `&mut` reference to a struct writes every field (check_struct_ref.cpp).
  if (!place && target.rest.empty() && target.first.types.empty() &&
      target.first.operand.ops.size() == 1 && target.first.operand.ops[0] == "*") {
    const ast::Postfix& inner = target.first.operand.operand;
    const auto* ipe = boost::get<ast::PathExpr>(&inner.base);
    Local* l = ipe && !ipe->call_args && ipe->path.segments.size() == 1 && inner.suffixes.empty()
                   ? lookup(ipe->path.segments[0].name)
                   : nullptr;
    if (l && l->type.is_struct_ref()) return check_tuple_assign(*l, inner, a, tspan, out, true);
  }
  if (!simple_name || !all_index) {
    error("E0200", tspan, "cannot assign to this expression",
          "expected a variable or a tensor element");
    st->target = error_expr(tspan);
    st->value = check_expr(a.value, nullptr);
    out.push_back(st);
    return;
  }
  const std::string& name = pe->path.segments[0].name;
  Local* local = lookup(name);
  if (local && local->type.kind == TypeKind::Ref && place->suffixes.empty() &&
      pe != boost::get<ast::PathExpr>(&place->base)) {
    error("E0300", tspan, "cannot assign to `*" + name + "`: assign to its elements instead");
    st->target = error_expr(tspan);
    st->value = check_expr(a.value, nullptr);
    out.push_back(st);
    return;
  }
  if (!local) {
    Type ct;
    tir::Literal cv;
    if (const_value(name, tspan, ct, cv))
      error("E0300", tspan, "cannot assign to const `" + name + "`", "a const");
    else
      error("E0100", span(pe->path), "cannot find `" + name + "` in this scope", "not found");
    st->target = error_expr(tspan);
    st->value = check_expr(a.value, nullptr);
    out.push_back(st);
    return;
  }
  if (place->suffixes.empty()) {
    if (!local->is_mut && !local->type.is_error()) {
      auto& d = error("E0300", tspan, "cannot assign twice to immutable variable `" + name + "`",
                      "cannot assign to an immutable variable");
      d.secondary.push_back({local->decl, "declared here without `mut`"});
      d.helps.push_back("declare it with `let mut " + name + "`");
    }
    if (local->type.kind == TypeKind::Ref && !local->type.is_error()) {
      error("E0300", tspan, "cannot assign to reference parameter `" + name + "`",
            "assign to its elements instead");
    }
    tir::Expr* t = make(tir::ExprKind::Var, local->type, tspan);
    t->slot = local->slot;
    t->text = name;
    st->target = t;
    st->value = check_expr(a.value, &local->type);
    if (st->compound && !local->type.is_error() &&
        !(local->type.is_scalar() && is_number(local->type.scalar)) &&
        !(local->type.is_scalar(Scalar::Bool) &&
          (st->op == tir::BinOp::BitAnd || st->op == tir::BinOp::BitOr ||
           st->op == tir::BinOp::BitXor)))
      error("E0202", tspan, "`" + a.op + "` cannot be applied to `" + type_name(local->type) + "`");
    if (st->compound && (st->op == tir::BinOp::Shl || st->op == tir::BinOp::Shr)) {
      if (!st->value->type.is_error() &&
          !(st->value->type.is_scalar() && is_int(st->value->type.scalar)))
        error("E0202", span(a.value), "a shift amount must be an integer");
    } else {
      st->value = coerce(st->value, local->type, span(a.value), nullptr, local);
    }
    always_stops(st, local->type, tspan, a.value);
    if (!st->compound) {
      mark_moved(st->value, span(a.value));
      let_borrow_conflict(local->slot, name, tspan, false);
      local->moved = false;  // a new value
    }
    if (local->moved) error("E0301", tspan, "use of moved value `" + name + "`");
    out.push_back(st);
    return;
  }
  // An element of a tensor.
  tir::Expr* base = use_var(name, span(pe->path), false);
  if (!base->type.is_error()) {
    if (base->type.kind == TypeKind::Ref && !base->type.ref_mut) {
      auto& d = error("E0302", tspan, "cannot assign through `&` reference `" + name + "`",
                      "`" + name + "` is a `&` reference, so its elements cannot be written");
      d.helps.push_back("take it as `&mut`");
    } else if ((base->type.kind == TypeKind::Tensor || base->type.is_array()) && !local->is_mut) {
      auto& d = error("E0300", tspan, "cannot assign to an element of immutable `" + name + "`",
                      "cannot assign");
      d.secondary.push_back({local->decl, "declared here without `mut`"});
      d.helps.push_back("declare it with `let mut " + name + "`");
    }
  }
  std::vector<const ast::IndexSuffix*> idx;
  for (const auto& sfx : place->suffixes) idx.push_back(&ast::must_get<ast::IndexSuffix>(sfx));
  assign_element(st, base, idx, a, tspan, out);
}

void Checker::assign_element(tir::Stmt* st, tir::Expr* base,
                             const std::vector<const ast::IndexSuffix*>& idx,
                             const ast::AssignTail& a, Span tspan, std::vector<tir::Stmt*>& out) {
  st->target = check_index(base, idx, tspan, false);
  Type et = st->target->type;
  st->value = check_expr(a.value, et.is_error() ? nullptr : &et);
  if (st->compound && (st->op == tir::BinOp::Shl || st->op == tir::BinOp::Shr)) {
    if (!st->value->type.is_error() &&
        !(st->value->type.is_scalar() && is_int(st->value->type.scalar)))
      error("E0202", span(a.value), "a shift amount must be an integer");
  } else if (!et.is_error()) {
    st->value = coerce(st->value, et, span(a.value));
    if (st->compound && et.is_scalar(Scalar::Bool) && st->op != tir::BinOp::BitAnd &&
        st->op != tir::BinOp::BitOr && st->op != tir::BinOp::BitXor)
      error("E0202", tspan, "`" + a.op + "` cannot be applied to `bool`");
  }
  always_stops(st, et, tspan, a.value);
  out.push_back(st);
}
}  // namespace vx::check
