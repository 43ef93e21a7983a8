#include "check/effects.hpp"

#include <set>

namespace vx {

const tir::Expr* tensor_root(const tir::Expr* e) {
  while (e) {
    switch (e->kind) {
      case tir::ExprKind::Var:
        return e;
      case tir::ExprKind::Ref:
      case tir::ExprKind::View:
      case tir::ExprKind::Index:
        e = e->args.empty() ? nullptr : e->args[0];
        break;
      case tir::ExprKind::Literal:
      case tir::ExprKind::Unit:
      case tir::ExprKind::String:
      case tir::ExprKind::Unary:
      case tir::ExprKind::Binary:
      case tir::ExprKind::Cast:
      case tir::ExprKind::Call:
      case tir::ExprKind::Builtin:
      case tir::ExprKind::TensorNew:
      case tir::ExprKind::Transfer:
      case tir::ExprKind::If:
      case tir::ExprKind::BlockExpr:
      case tir::ExprKind::Match:
      case tir::ExprKind::Field:
      case tir::ExprKind::Print:
      case tir::ExprKind::Assert:
      case tir::ExprKind::ArrayLit:
        return nullptr;
    }
  }
  return nullptr;
}

namespace {

// A reference argument of a call: the callee's parameter and the locals it may name.
struct Lend {
  int callee = -1;
  size_t param = 0;
  int local = -1;
};

// The raw facts of one function, in terms of its own locals; aliases are resolved afterwards.
class Walk {
 public:
  Walk(const tir::Function& fn, FunctionEffects& out) : fn_(fn), out_(out) {
    int n = fn.slot_count();
    sources_.resize(n);
    writes_.assign(n, false);
  }

  void run() { block(fn_.body); }

  std::vector<std::set<int>> sources_;  // a reference local: the locals it was made from
  std::vector<bool> writes_;
  std::vector<Lend> lends_;

 private:
  int local(const tir::Expr* place) const {
    const tir::Expr* v = tensor_root(place);
    return v && v->slot >= 0 && v->slot < fn_.slot_count() ? v->slot : -1;
  }
  void mark(std::vector<bool>& set, const tir::Expr* place) {
    if (int s = local(place); s >= 0) set[s] = true;
  }
  bool is_ref(int slot) const {
    return slot >= 0 && slot < fn_.slot_count() && fn_.slot_types[slot].kind == TypeKind::Ref;
  }
  // A reference local given a value: every local the value may name (the tail of an `if` or a
  // block of references too), conservatively.
  void bind(int slot, const tir::Expr* value) {
    if (!is_ref(slot) || !value) return;
    if (int s = local(value); s >= 0) {
      sources_[slot].insert(s);
      return;
    }
    tir_any_local(value, [&](int s) { sources_[slot].insert(s); });
  }
  template <class F>
  void tir_any_local(const tir::Expr* e, const F& f) {
    if (!e) return;
    if (e->kind == tir::ExprKind::Var && e->slot >= 0 && e->slot < fn_.slot_count()) {
      TypeKind k = fn_.slot_types[e->slot].kind;
      if (k == TypeKind::Ref || k == TypeKind::Tensor) f(e->slot);
    }
    for (const tir::Expr* a : e->args) tir_any_local(a, f);
    for (const tir::Block* b : {e->block, e->else_block}) {
      if (!b) continue;
      tir_any_local(b->tail, f);
    }
  }

  void block(const tir::Block* b) {
    if (!b) return;
    for (const tir::Stmt* s : b->stmts) stmt(s);
    expr(b->tail);
  }

  void stmt(const tir::Stmt* s) {
    switch (s->kind) {
      case tir::StmtKind::Let:
        expr(s->value);
        bind(s->slot, s->value);
        return;
      case tir::StmtKind::Assign: {
        const tir::Expr* t = s->target;
        if (t && t->kind == tir::ExprKind::Var) {
          bind(t->slot, s->value);
          if (t->type.kind == TypeKind::Tensor) mark(writes_, t);
        } else if (t) {
          mark(writes_, t);
          for (size_t k = 1; k < t->args.size(); ++k) expr(t->args[k]);
          if (!t->args.empty() && t->args[0]->kind != tir::ExprKind::Var) expr(t->args[0]);
        }
        expr(s->value);
        return;
      }
      case tir::StmtKind::Expr:
      case tir::StmtKind::Return:
        expr(s->value);
        return;
      case tir::StmtKind::While:
      case tir::StmtKind::Loop:
      case tir::StmtKind::For:
      case tir::StmtKind::Spawn:
        for (const tir::Expr* e : s->exprs()) expr(e);
        block(s->body);
        return;
      case tir::StmtKind::Break:
      case tir::StmtKind::Continue:
        return;
    }
  }

  void expr(const tir::Expr* e) {
    if (!e) return;
    switch (e->kind) {
      case tir::ExprKind::Literal:
      case tir::ExprKind::Unit:
      case tir::ExprKind::String:
      case tir::ExprKind::Var:
        return;
      case tir::ExprKind::Match:
      case tir::ExprKind::Field:
        tir::unlowered();
      case tir::ExprKind::Print:
        out_.prints = true;
        break;
      case tir::ExprKind::Call:
        out_.callees.push_back(e->fn_index);
        for (size_t i = 0; i < e->args.size(); ++i)
          if (e->args[i]->type.kind == TypeKind::Ref)
            lends_.push_back({e->fn_index, i, local(e->args[i])});
        break;
      case tir::ExprKind::Builtin:  // builtins.def's effect column
        if (!e->args.empty() && tir::builtin_writes_first(e->builtin)) mark(writes_, e->args[0]);
        break;
      case tir::ExprKind::Index:  // a read: the call site counts a reference argument as read whole
      case tir::ExprKind::Unary:
      case tir::ExprKind::Binary:
      case tir::ExprKind::Cast:
      case tir::ExprKind::View:
      case tir::ExprKind::Ref:
      case tir::ExprKind::TensorNew:
      case tir::ExprKind::Transfer:
      case tir::ExprKind::If:
      case tir::ExprKind::BlockExpr:
      case tir::ExprKind::Assert:
      case tir::ExprKind::ArrayLit:
        break;
    }
    for (const tir::Expr* a : e->args) expr(a);
    block(e->block);
    block(e->else_block);
  }

  const tir::Function& fn_;
  FunctionEffects& out_;
};

// The locals a local may name: itself and, for a reference, what it was made from, transitively.
std::vector<std::set<int>> closure(const std::vector<std::set<int>>& sources) {
  size_t n = sources.size();
  std::vector<std::set<int>> out(n);
  for (size_t s = 0; s < n; ++s) {
    std::vector<int> todo = {static_cast<int>(s)};
    while (!todo.empty()) {
      int x = todo.back();
      todo.pop_back();
      if (!out[s].insert(x).second) continue;
      for (int y : sources[x]) todo.push_back(y);
    }
  }
  return out;
}

}  // namespace

std::vector<FunctionEffects> function_effects(const tir::Program& prog) {
  const size_t n = prog.functions.size();
  std::vector<FunctionEffects> out(n);
  struct Facts {
    std::vector<Lend> lends;    // by the locals they lend, each local a parameter
    std::vector<int> param_of;  // local -> parameter index, or -1
  };
  std::vector<Facts> facts(n);
  for (size_t f = 0; f < n; ++f) {
    const tir::Function& fn = prog.functions[f];
    const int slots = fn.slot_count();
    Walk w(fn, out[f]);
    w.run();
    Facts& x = facts[f];
    x.param_of.assign(slots, -1);
    for (size_t i = 0; i < fn.param_slots.size(); ++i)
      if (fn.param_slots[i] >= 0 && fn.param_slots[i] < slots)
        x.param_of[fn.param_slots[i]] = static_cast<int>(i);
    // A write through a local is a write through every local it may name.
    out[f].writes.assign(fn.param_slots.size(), false);
    const auto names = closure(w.sources_);
    for (int s = 0; s < slots; ++s)
      for (int t : names[s]) {
        const int p = x.param_of[t];
        if (w.writes_[s] && p >= 0 && fn.slot_types[t].kind == TypeKind::Ref)
          out[f].writes[p] = true;
      }
    for (const Lend& l : w.lends_)
      if (l.local >= 0)
        for (int t : names[l.local])
          if (x.param_of[t] >= 0 && fn.slot_types[t].kind == TypeKind::Ref)
            x.lends.push_back({l.callee, l.param, t});
  }
  // Through the calls, to a fixed point: a parameter lent to a parameter a callee writes through
  // is written through; a function that calls one that prints prints.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t f = 0; f < n; ++f) {
      for (const Lend& l : facts[f].lends) {
        if (l.callee < 0 || l.callee >= static_cast<int>(n)) continue;
        const auto& theirs = out[l.callee].writes;
        const int p = facts[f].param_of[l.local];
        if (l.param < theirs.size() && theirs[l.param] && !out[f].writes[p])
          out[f].writes[p] = changed = true;
      }
      if (!out[f].prints)
        for (int c : out[f].callees)
          if (c >= 0 && c < static_cast<int>(n) && out[c].prints) out[f].prints = changed = true;
    }
  }
  return out;
}

}  // namespace vx
