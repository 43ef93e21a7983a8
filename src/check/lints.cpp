// The checker's warnings (spec/errors.md, "Warnings"): each lint is a walk over the typed program
// of one function; the warnings are added in source order.
#include "check/lints.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "check/lint_flow.hpp"
#include "check/lint_parens.hpp"
#include "check/tir_walk.hpp"
#include "support/internal_error.hpp"

namespace vx {

using tir::Expr;
using tir::ExprKind;
using tir::Stmt;
using tir::StmtKind;

namespace {

// A warning found, added once all are found (in source order).
struct Found {
  std::string lint;
  Span span;
  std::string message, label;
  std::vector<Label> secondary = {};
  std::vector<std::string> helps = {};
};

// The local a place or reference is rooted at: `x`, `x[i]`, `&mut x[i][..]`; -1 for none.
int root_slot(const Expr* e) {
  while (e &&
         (e->kind == ExprKind::Index || e->kind == ExprKind::View || e->kind == ExprKind::Ref) &&
         !e->args.empty())
    e = e->args[0];
  return e && e->kind == ExprKind::Var ? e->slot : -1;
}

// ---- unused_variables, unused_mut

struct SlotUse {
  bool read = false;      // its value is used
  bool assigned = false;  // `x = …` or `x op= …`
  bool mutated = false;   // assigned, an element written, or borrowed `&mut`
};

std::vector<SlotUse> slot_uses(const tir::Function& f) {
  std::vector<SlotUse> uses(f.slot_count());
  auto at = [&](int slot) -> SlotUse* {
    return slot >= 0 && slot < f.slot_count() ? &uses[slot] : nullptr;
  };
  std::set<const Expr*> targets;  // `x` of `x = …`: written, not read
  tir::walk_block(f.body, [&](const Stmt* s, const Expr* e) {
    if (s && s->kind == StmtKind::Assign && s->target) {
      if (s->target->kind == ExprKind::Var) {
        targets.insert(s->target);
        if (SlotUse* u = at(s->target->slot)) u->assigned = u->mutated = true;
      } else if (SlotUse* u = at(root_slot(s->target))) {
        u->mutated = true;
      }
    }
    if (e && e->kind == ExprKind::Ref && e->type.ref_mut)
      if (SlotUse* u = at(root_slot(e))) u->mutated = true;
  });
  tir::walk_block(f.body, [&](const Stmt*, const Expr* e) {
    if (e && e->kind == ExprKind::Var && !targets.count(e))
      if (SlotUse* u = at(e->slot)) u->read = true;
  });
  return uses;
}

// The `mut x` of a declaration whose name is at `name`, when the text before it is `mut`.
Span mut_span(const SourceFile& file, Span name) {
  const std::string_view text = file.text();
  uint32_t i = name.begin;
  while (i > 0 &&
         (text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n' || text[i - 1] == '\r'))
    --i;
  if (i >= 3 && text.substr(i - 3, 3) == "mut") return {i - 3, name.end};
  return name;
}

// unused_assignments: a value stored into a scalar or array local that is read somewhere and
// assigned somewhere (else unused_variables speaks), which no read reaches (lint_flow.hpp).
// A tuple's or struct's elements (`t.0`, `p.x`) and the hidden locals (`_…`, the return and
// write-back slots among them) are not looked at.
void unused_assignments(const tir::Function& f, const std::vector<SlotUse>& uses,
                        std::vector<Found>& out) {
  std::vector<bool> tracked(static_cast<size_t>(f.slot_count()), false);
  for (int slot = 0; slot < f.slot_count(); ++slot) {
    const std::string& name = f.slot_names[slot];
    const Type& t = f.slot_types[slot];
    tracked[static_cast<size_t>(slot)] =
        !name.empty() && name[0] != '_' && name.find('.') == std::string::npos &&
        (t.is_scalar() || t.is_array()) && uses[slot].read && uses[slot].assigned;
  }
  for (const lint::DeadStore& d : lint::dead_stores(f, tracked)) {
    const std::string& name = f.slot_names[d.slot];
    // A `let`'s or a parameter's at the name declared, an assignment's at its target.
    const Span at =
        d.at && d.at->kind == StmtKind::Assign ? d.at->target->span : f.slot_decls[d.slot];
    out.push_back({"unused_assignments",
                   at,
                   (d.at ? "value assigned to `" : "value passed to `") + name + "` is never read",
                   "",
                   {},
                   {"maybe it is overwritten before being read?"}});
  }
}

void unused_locals(const tir::Function& f, const SourceFile& file, std::vector<Found>& out) {
  if (f.slot_decls.size() != f.slot_names.size() || f.slot_mut.size() != f.slot_names.size())
    return;  // a function the checker did not make (the .uir reader's)
  std::vector<SlotUse> uses = slot_uses(f);
  // A tuple's elements (`t.0`, `t.1.0`: check_tuple.cpp) are one variable, `t`: its first
  // element's slot speaks for all of them.
  std::vector<bool> element(static_cast<size_t>(f.slot_count()), false);
  std::map<std::pair<uint32_t, std::string>, int> tuples;
  for (int slot = 0; slot < f.slot_count(); ++slot) {
    const std::string& name = f.slot_names[slot];
    const size_t dot = name.find('.');
    if (dot == std::string::npos) continue;
    auto [it, first] =
        tuples.emplace(std::make_pair(f.slot_decls[slot].begin, name.substr(0, dot)), slot);
    if (first) continue;
    element[static_cast<size_t>(slot)] = true;
    SlotUse& u = uses[static_cast<size_t>(it->second)];
    u.read = u.read || uses[slot].read;
    u.assigned = u.assigned || uses[slot].assigned;
    u.mutated = u.mutated || uses[slot].mutated;
  }
  for (int slot = 0; slot < f.slot_count(); ++slot) {
    std::string name = f.slot_names[slot];
    if (name.empty() || name[0] == '_') continue;  // `_x`: unused on purpose
    if (element[static_cast<size_t>(slot)]) continue;
    name = name.substr(0, name.find('.'));
    const Span decl = f.slot_decls[slot];
    const SlotUse& u = uses[slot];
    if (!u.read && u.assigned)
      out.push_back({"unused_variables",
                     decl,
                     "variable `" + name + "` is assigned to, but never used",
                     "",
                     {},
                     {"if this is intentional, name it `_" + name + "`"}});
    else if (!u.read)
      out.push_back({"unused_variables", decl, "unused variable: `" + name + "`",
                     "if this is intentional, name it `_" + name + "`"});
    if (f.slot_mut[slot] && !u.mutated)
      out.push_back({"unused_mut", mut_span(file, decl), "variable does not need to be mutable",
                     "remove this `mut`"});
  }
  unused_assignments(f, uses, out);
}

// ---- while_true

// `while true { … }` (the condition the literal, in parentheses or not): "denote infinite loops
// with `loop { ... }`", as rustc says, at `while true` (from its label, `'a: while true`).
void while_true(const tir::Function& f, const SourceFile& file, std::vector<Found>& out) {
  const std::string_view text = file.text();
  tir::walk_block(f.body, [&](const Stmt* s, const Expr*) {
    if (!s || s->kind != StmtKind::While || !s->value || s->value->kind != ExprKind::Literal)
      return;
    const Span cond = s->value->span;
    if (cond.end > text.size() || cond.begin > cond.end || s->span.begin > cond.begin) return;
    std::string_view written = text.substr(cond.begin, cond.end - cond.begin);
    const auto wrapping = [](char c) {
      return c == '(' || c == ')' || std::isspace(static_cast<unsigned char>(c));
    };
    while (!written.empty() && wrapping(written.front())) written.remove_prefix(1);
    while (!written.empty() && wrapping(written.back())) written.remove_suffix(1);
    if (written != "true") return;
    out.push_back({"while_true",
                   {s->span.begin, cond.end},
                   "denote infinite loops with `loop { ... }`",
                   "help: use `loop`"});
  });
}

// ---- unreachable_code

// A statement after which its block's next statement cannot run (`jumps`: break and continue
// count, as for unreachable code; without, only what never returns to the caller's flow).
bool stmt_never_ends(const Stmt* s, bool jumps);

bool expr_never_ends(const Expr* e, bool jumps) {
  if (!e) return false;
  if (e->kind == ExprKind::If)
    return e->else_block && never_ends(e->block, jumps) && never_ends(e->else_block, jumps);
  if (e->kind == ExprKind::BlockExpr) return never_ends(e->block, jumps);
  if (e->kind == ExprKind::Match) {  // as its lowering (lower/lower_match.cpp): every arm taken
    if (never_ends(e->match->setup, jumps)) return true;
    for (const tir::Block* b : tir::branches(e))
      if (!never_ends(b, jumps)) return false;
    return true;
  }
  return false;
}

// Whether a `break` inside the loop leaves it (a plain one in its own body, or a labelled one
// naming it from any depth).
bool has_break(const Stmt* loop) {
  bool found = false;
  tir::walk_block(loop->body, [&](const Stmt* s, const Expr*) {
    if (s && s->kind == StmtKind::Break && s->jump_target == loop) found = true;
  });
  return found;
}

bool stmt_never_ends(const Stmt* s, bool jumps) {
  switch (s->kind) {
    case StmtKind::Return:
      return true;
    case StmtKind::Break:
    case StmtKind::Continue:
      return jumps;
    case StmtKind::Expr:
      return expr_never_ends(s->value, jumps);
    case StmtKind::Loop:
      return !has_break(s);
    case StmtKind::Let:
    case StmtKind::Assign:
    case StmtKind::While:
    case StmtKind::For:
    case StmtKind::Spawn:
      return false;
  }
  internal_error("unknown statement kind");
}

void unreachable_in(const tir::Block* b, std::vector<Found>& out) {
  for (size_t i = 0; i < b->stmts.size(); ++i) {
    if (!stmt_never_ends(b->stmts[i], true)) continue;
    const bool stmt_follows = i + 1 < b->stmts.size();
    if (!stmt_follows && !b->tail) return;
    out.push_back({"unreachable_code",
                   stmt_follows ? b->stmts[i + 1]->span : b->tail->span,
                   stmt_follows ? "unreachable statement" : "unreachable expression",
                   stmt_follows ? "unreachable statement" : "unreachable expression",
                   {{b->stmts[i]->span, "any code following this is unreachable"}}});
    return;
  }
}

void unreachable_code(const tir::Function& f, std::vector<Found>& out) {
  unreachable_in(f.body, out);
  tir::walk_block(f.body, [&](const Stmt* s, const Expr* e) {
    if (s && s->body) unreachable_in(s->body, out);
    if (e && e->block) unreachable_in(e->block, out);
    if (e && e->else_block) unreachable_in(e->else_block, out);
  });
}

// ---- unused_results

// What an expression statement's ignored value is, or nothing when ignoring it is fine: a unit,
// an atomic's old value (the operation is the point), a tensor moved away, a block or `if`, a
// copy's token (never waited for: the kernel rules' E6036).
std::optional<std::string> ignored_value(const tir::Program& p, const Expr* v) {
  if (!v || v->type.is_unit() || v->type.is_error()) return std::nullopt;
  if (v->type.kind == TypeKind::Token) return std::nullopt;  // a copy's token: E6036 says it
  switch (v->kind) {
    case ExprKind::Call:
      return "unused return value of `" + p.functions[v->fn_index].name + "`";
    case ExprKind::Builtin:
      if (tir::is_atomic(v->builtin)) return std::nullopt;
      if (v->builtin == tir::BuiltinId::Dbg) return std::nullopt;  // `dbg!(x);` prints x
      return std::string("unused return value of `") + tir::builtin_spelling(v->builtin) + "`";
    case ExprKind::Binary:
      switch (tir::binop_class(v->bop)) {
        case tir::OpClass::Arith:
          return "unused arithmetic operation";
        case tir::OpClass::Compare:
          return "unused comparison";
        case tir::OpClass::Logic:
          return "unused logical operation";
        default:
          return "unused bitwise operation";
      }
    case ExprKind::Unary:
    case ExprKind::Cast:
      return "unused value of an operation";
    case ExprKind::Literal:
    case ExprKind::Index:
      return "statement with no effect";
    case ExprKind::Var:
      if (v->type.is_scalar()) return "statement with no effect";
      return std::nullopt;
    case ExprKind::Unit:
    case ExprKind::String:
    case ExprKind::View:
    case ExprKind::Ref:
    case ExprKind::TensorNew:
    case ExprKind::Transfer:
    case ExprKind::If:
    case ExprKind::BlockExpr:
    case ExprKind::Match:
    case ExprKind::Field:
    case ExprKind::Print:
    case ExprKind::Assert:
    case ExprKind::ArrayLit:
      return std::nullopt;
  }
  internal_error("unknown expression kind");
}

void unused_results(const tir::Program& p, const tir::Function& f, std::vector<Found>& out) {
  tir::walk_block(f.body, [&](const Stmt* s, const Expr*) {
    if (!s || s->kind != StmtKind::Expr) return;
    const std::optional<std::string> what = ignored_value(p, s->value);
    if (!what) return;
    const bool call = s->value->kind == ExprKind::Call || s->value->kind == ExprKind::Builtin;
    out.push_back({"unused_results",
                   s->value->span,
                   *what,
                   "this `" + type_name(s->value->type) + "` is ignored",
                   {},
                   {call ? "use the value, or write `let _ = …;` to ignore it on purpose"
                         : "remove it, or use its value"}});
  });
}

// ---- sum_unordered_printed

// Where the values that `lanes::sum_unordered` of floats made reach: locals and tensors written
// with them, and functions that return them. Each is tainted with the span of a call it came from.
struct Taint {
  std::vector<std::map<int, Span>> slots;  // per function
  std::map<int, Span> returns;             // function index -> origin
};

std::optional<Span> tainted(const Taint& t, int fn, const Expr* e) {
  if (!e) return std::nullopt;
  if (e->kind == ExprKind::Builtin && e->builtin == tir::BuiltinId::LanesSumUnordered &&
      e->type.is_scalar() && is_float(e->type.scalar))
    return e->span;
  if (e->kind == ExprKind::Var) {
    auto it = t.slots[fn].find(e->slot);
    if (it != t.slots[fn].end()) return it->second;
  }
  if (e->kind == ExprKind::Call) {
    auto it = t.returns.find(e->fn_index);
    if (it != t.returns.end()) return it->second;
  }
  for (const Expr* a : e->args)
    if (auto s = tainted(t, fn, a)) return s;
  for (const tir::Block* b : {e->block, e->else_block})
    if (b && b->tail)
      if (auto s = tainted(t, fn, b->tail)) return s;
  return std::nullopt;
}

Taint spread_taint(const tir::Program& p) {
  Taint t;
  t.slots.resize(p.functions.size());
  for (bool changed = true; changed;) {
    changed = false;
    auto taint = [&](std::map<int, Span>& into, int key, std::optional<Span> from) {
      if (from && key >= 0 && into.emplace(key, *from).second) changed = true;
    };
    for (size_t fn = 0; fn < p.functions.size(); ++fn) {
      const tir::Function& f = p.functions[fn];
      const int k = static_cast<int>(fn);
      tir::walk_block(f.body, [&](const Stmt* s, const Expr* e) {
        if (s && (s->kind == StmtKind::Let || s->kind == StmtKind::Assign))
          taint(t.slots[fn], s->kind == StmtKind::Let ? s->slot : root_slot(s->target),
                tainted(t, k, s->value));
        if (s && s->kind == StmtKind::Return) taint(t.returns, k, tainted(t, k, s->value));
        if (e && e->kind == ExprKind::Builtin && tir::is_atomic(e->builtin) && !e->args.empty())
          for (size_t a = 1; a < e->args.size(); ++a)
            taint(t.slots[fn], root_slot(e->args[0]), tainted(t, k, e->args[a]));
      });
      if (f.body) taint(t.returns, k, tainted(t, k, f.body->tail));
    }
  }
  return t;
}

void sum_unordered_printed(const tir::Program& p, std::vector<Found>& out) {
  const bool any = std::any_of(p.functions.begin(), p.functions.end(), [](const tir::Function& f) {
    return tir::block_has(f.body, [](const Stmt*, const Expr* e) {
      return e && e->kind == ExprKind::Builtin && e->builtin == tir::BuiltinId::LanesSumUnordered;
    });
  });
  if (!any) return;  // the common case: no pass over the program until nothing changes
  const Taint t = spread_taint(p);
  for (size_t fn = 0; fn < p.functions.size(); ++fn)
    tir::walk_block(p.functions[fn].body, [&](const Stmt*, const Expr* e) {
      if (!e || e->kind != ExprKind::Print) return;
      for (const tir::FormatPiece& piece : e->format) {
        if (piece.arg < 0 || piece.spec.precision >= 0) continue;
        const Expr* arg = e->args[piece.arg];
        if (!arg->type.is_scalar() || !is_float(arg->type.scalar)) continue;
        const std::optional<Span> from = tainted(t, static_cast<int>(fn), arg);
        if (!from) continue;
        out.push_back(
            {"sum_unordered_printed",
             arg->span,
             "this prints every bit of a sum whose order the implementation chooses",
             "its last bits may differ between implementations and runs",
             {{*from, "`lanes::sum_unordered` adds in any order"}},
             {"print it with a precision (`{:.4}`), or sum with `lanes::sum`, whose order "
              "is fixed"}});
      }
    });
}

// ---- atomic_result_order

// The value an atomic that changes its element returns, used (not dropped) in an across loop: it
// depends on the order in which the passes reach the element (spec/kernel-rules.md §8).
void atomic_result_order(const tir::Function& f, std::vector<Found>& out) {
  const std::set<const Expr*> dropped = tir::dropped_values(f.body);
  std::function<void(const tir::Block*, int)> block = [&](const tir::Block* b, int across) {
    if (!b) return;
    auto exprs = [&](const Expr* top) {
      // (An across loop inside an expression's block is in a block loop already: depth > 0.)
      tir::walk_expr(top, [&](const Stmt*, const Expr* e) {
        if (across == 0 || !tir::atomic_result_used(e, dropped)) return;
        out.push_back({"atomic_result_order",
                       e->span,
                       "the value that `" + std::string(tir::builtin_spelling(e->builtin)) +
                           "` returns depends on the order in which the passes reach the element",
                       "its old value, in an order no implementation fixes",
                       {},
                       {"the output may differ between runs, host thread counts and tiers "
                        "(spec/kernel-rules.md §8); where it does not matter (a slot of a "
                        "compacted list, say), allow it: `#[allow(atomic_result_order)]`"}});
      });
    };
    for (const Stmt* s : b->stmts) {
      for (const Expr* e : s->exprs()) exprs(e);
      const bool is_across = s->kind == StmtKind::For && s->across != tir::Across::None;
      block(s->body, across + (is_across ? 1 : 0));
    }
    exprs(b->tail);
  };
  block(f.body, 0);
}

}  // namespace

bool never_ends(const tir::Block* b, bool jumps) {
  if (!b) return false;
  if (expr_never_ends(b->tail, jumps)) return true;
  return std::any_of(b->stmts.begin(), b->stmts.end(),
                     [&](const Stmt* s) { return stmt_never_ends(s, jumps); });
}

// dead_code: the functions that no chain of calls reaches from `main` or a `pub fn` (what `vx call`
// and the Python module call), at their names, as rustc says it of a binary's functions; and of
// what those functions, the consts they name (and the consts those name), the `pub` consts and
// the rest of the program name (tir::DeadCodeFacts): the consts none names, the structs none
// constructs and the fields none reads. A use in a function that is never used is no use.
void dead_code(const tir::Program& p, std::vector<Found>& out) {
  const size_t n = p.functions.size();
  std::vector<bool> used(n, false);
  std::vector<size_t> todo;
  const auto reach = [&](size_t k) {
    if (used[k]) return;
    used[k] = true;
    todo.push_back(k);
  };
  for (size_t k = 0; k < n; ++k)
    if (p.functions[k].is_pub || static_cast<int>(k) == p.main_index) reach(k);
  while (!todo.empty()) {
    const tir::Function& f = p.functions[todo.back()];
    todo.pop_back();
    if (!f.body) continue;
    tir::walk_block(f.body, [&](const Stmt*, const Expr* e) {
      if (e && e->kind == ExprKind::Call && e->fn_index >= 0 &&
          static_cast<size_t>(e->fn_index) < n)
        reach(static_cast<size_t>(e->fn_index));
    });
  }
  for (size_t k = 0; k < n; ++k)
    if (!used[k])
      out.push_back({"dead_code", p.functions[k].span,
                     "function `" + p.functions[k].name + "` is never used", ""});

  const tir::DeadCodeFacts& facts = p.dead_code;
  tir::ItemUses live;
  std::vector<std::string> consts;  // named by what is live, to take in
  const auto take = [&](const tir::ItemUses& u) {
    consts.insert(consts.end(), u.consts.begin(), u.consts.end());
    live.constructed.insert(u.constructed.begin(), u.constructed.end());
    live.read.insert(u.read.begin(), u.read.end());
  };
  take(facts.always);
  for (size_t k = 0; k < n && k < facts.by_function.size(); ++k)
    if (used[k]) take(facts.by_function[k]);
  for (const tir::DeadCodeFacts::Declared& c : facts.consts)
    if (c.is_pub) consts.push_back(c.name);
  while (!consts.empty()) {
    const std::string name = std::move(consts.back());
    consts.pop_back();
    if (!live.consts.insert(name).second) continue;
    if (auto it = facts.by_const.find(name); it != facts.by_const.end()) take(it->second);
  }
  for (const tir::DeadCodeFacts::Declared& c : facts.consts)
    if (!live.consts.count(c.name))
      out.push_back({"dead_code", c.at, "constant `" + c.name + "` is never used", ""});
  for (const tir::DeadCodeFacts::Declared& s : facts.structs) {
    if (s.is_pub) continue;
    if (!live.constructed.count(s.name)) {
      out.push_back({"dead_code", s.at, "struct `" + s.name + "` is never constructed", ""});
      continue;
    }
    std::vector<const tir::DeadCodeFacts::Declared*> unread;
    for (const tir::DeadCodeFacts::Declared& f : s.fields)
      if (!f.is_pub && !live.read.count({s.name, f.name})) unread.push_back(&f);
    if (unread.empty()) continue;
    // As rustc lists them: `a`, `a` and `b`, `a`, `b`, and `c`.
    std::string names;
    const size_t m = unread.size();
    for (size_t k = 0; k < m; ++k)
      names += (k == 0       ? ""
                : m == 2     ? " and "
                : k + 1 == m ? ", and "
                             : ", ") +
               ("`" + unread[k]->name + "`");
    Found w{"dead_code", unread[0]->at,
            (m == 1 ? "field " : "fields ") + names + (m == 1 ? " is" : " are") + " never read",
            ""};
    w.secondary.push_back({s.at, m == 1 ? "field in this struct" : "fields in this struct"});
    for (size_t k = 1; k < m; ++k) w.secondary.push_back({unread[k]->at, ""});
    out.push_back(std::move(w));
  }
}

// unconditional_recursion: a function that no run can leave without calling itself
// (lint_flow.hpp), at its signature (from `fn` to before its body's `{`), as rustc says it.
void unconditional_recursion(const tir::Program& p, std::vector<Found>& out) {
  const std::string_view text = p.file->text();
  for (size_t k = 0; k < p.functions.size(); ++k) {
    const tir::Function& f = p.functions[k];
    if (!f.body) continue;
    const std::vector<const Expr*> calls = lint::unconditional_recursion(f, static_cast<int>(k));
    if (calls.empty()) continue;
    Span sig = f.span;
    const size_t fn_at = text.substr(0, f.span.begin).rfind("fn");
    if (fn_at != std::string_view::npos) sig.begin = static_cast<uint32_t>(fn_at);
    if (f.body->span.begin > f.span.end && f.body->span.begin <= text.size()) {
      uint32_t end = f.body->span.begin;
      while (end > f.span.end && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
      sig.end = end;
    }
    Found w{"unconditional_recursion", sig, "function cannot return without recursing",
            "cannot return without recursing"};
    for (const Expr* call : calls) w.secondary.push_back({call->span, "recursive call site"});
    w.helps.push_back("a `loop` may express intention better if this is on purpose");
    out.push_back(std::move(w));
  }
}

void lint_program(const tir::Program& program, const ParsedProgram& parsed, Diagnostics& diags) {
  if (diags.has_errors() || !program.file) return;
  std::vector<Found> found;
  for (const tir::Function& f : program.functions) {
    if (!f.body) continue;
    unused_locals(f, *program.file, found);
    unreachable_code(f, found);
    while_true(f, *program.file, found);
    unused_results(program, f, found);
    atomic_result_order(f, found);
    tir::walk_block(f.body, [&](const Stmt*, const Expr* e) {
      if (e && e->kind == ExprKind::Builtin && e->builtin == tir::BuiltinId::Dbg)
        found.push_back({"dbg_macro", e->span, "`dbg!` is for debugging: remove it when done",
                         "prints on standard error each time it runs"});
    });
  }
  sum_unordered_printed(program, found);
  dead_code(program, found);
  unconditional_recursion(program, found);
  for (lint::UnusedParens& u : lint::unused_parens(parsed, *program.file))
    found.push_back(
        {"unused_parens", u.span, std::move(u.message), "help: remove these parentheses"});
  for (const tir::UnreachablePattern& u : program.unreachable_patterns) {
    Found w{"unreachable_patterns", u.at, "unreachable pattern", "no value can reach this"};
    for (const auto& [at, text] : u.because) w.secondary.push_back({at, text});
    found.push_back(std::move(w));
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const Found& a, const Found& b) { return a.span.begin < b.span.begin; });
  for (Found& w : found) {
    Diagnostic& d = diags.warning(w.lint, w.span, std::move(w.message), std::move(w.label));
    d.secondary = std::move(w.secondary);
    for (std::string& h : w.helps) d.helps.push_back(std::move(h));
  }
}

}  // namespace vx
