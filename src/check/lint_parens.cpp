// unused_parens (lint_parens.hpp): one walk over the AST of every item, which looks at the
// expression standing in each place the lint knows.
#include "check/lint_parens.hpp"

#include <string_view>

#include "parse/ast.hpp"

namespace vx::lint {

namespace {

// What may stand inside parentheses at a place without them being needed. In every place,
// parentheses around a block-like expression that something follows (`({ a } + 1)`) are needed,
// as rustc holds: as a block's value, an arm or a `break` value, the block would end the
// statement, the arm or the value without them.
enum class Place {
  Value,  // an assigned, returned or block's value, an arm, an argument, an index
  Head,   // before a `{` (`if`, `while`, `match`, a `for` range): no `{` inside, where a struct
          // literal would need them
};

// The parentheses that hold the whole of `e` (not a tuple's), or null.
const ast::Paren* whole_paren(const ast::Expr& e) {
  if (!e.rest.empty() || !e.first.types.empty() || !e.first.operand.ops.empty() ||
      !e.first.operand.operand.suffixes.empty())
    return nullptr;
  const auto* par = boost::get<ast::Paren>(&e.first.operand.operand.base);
  return par && !par->is_tuple() ? par : nullptr;
}

// Whether `e` starts with an expression that is a statement of its own at the start of a block.
bool starts_block_like(const ast::Expr& e) {
  if (!e.first.operand.ops.empty()) return false;
  return ast::visit(
      e.first.operand.operand.base, [](const ast::FloatLit&) { return false; },
      [](const ast::IntLit&) { return false; }, [](const ast::BoolLit&) { return false; },
      [](const ast::StringLit&) { return false; }, [](const ast::CharLit&) { return false; },
      [](const ast::TensorCtor&) { return false; }, [](const ast::MacroCall&) { return false; },
      [](const ast::PathExpr&) { return false; }, [](const ast::ArrayLit&) { return false; },
      [](const ast::StructLit&) { return false; }, [](const ast::UnitLit&) { return false; },
      [](const ast::Paren&) { return false; }, [](const ast::UnsafeBlock&) { return true; },
      [](const ast::LoopExpr&) { return true; },
      [](const ast::x3::forward_ast<ast::IfExpr>&) { return true; },
      [](const ast::x3::forward_ast<ast::MatchExpr>&) { return true; },
      [](const ast::x3::forward_ast<ast::Block>&) { return true; });
}

// Whether `e` starts with such an expression and goes on after it (`{ a } + 1`, `if c { a } else
// { b } as f32`): without parentheses, it would end where the block-like expression ends.
bool block_like_then_more(const ast::Expr& e) {
  return starts_block_like(e) &&
         (!e.rest.empty() || !e.first.types.empty() || !e.first.operand.operand.suffixes.empty());
}

class Walk {
 public:
  Walk(const ParsedProgram& parsed, const SourceFile& file, std::vector<UnusedParens>& out)
      : parsed_(parsed), text_(file.text()), out_(out) {}

  void item(const ast::Item& it) {
    ast::visit(
        it, [](const ast::Attribute&) {}, [](const ast::ImportItem&) {},
        [&](const ast::FnItem& f) { block(f.body); },
        [&](const ast::ConstItem& c) { at(c.value, "assigned value", Place::Value); },
        [](const ast::StructItem&) {});
  }

 private:
  // `e`, standing where the lint looks: its parentheses reported when they hold all of it.
  void at(const ast::Expr& e, const char* what, Place place) {
    if (const ast::Paren* par = whole_paren(e))
      if (!block_like_then_more(par->inner.get())) report(parsed_.span(*par), what, place);
    expr(e);
  }

  // The parentheses at `s`, unless a head's hold a `{` (or the span is not known).
  void report(Span s, const char* what, Place place) {
    if (s.begin >= s.end || s.end > text_.size()) return;
    if (place == Place::Head &&
        text_.substr(s.begin, s.end - s.begin).find('{') != std::string_view::npos)
      return;
    out_.push_back({s, std::string("unnecessary parentheses around ") + what});
  }

  void expr(const ast::Expr& e) {
    cast(e.first);
    for (const ast::BinaryRest& r : e.rest) cast(r.operand);
  }

  void cast(const ast::Cast& c) {
    const ast::Postfix& p = c.operand.operand;
    primary(p.base);
    for (const ast::Suffix& s : p.suffixes)
      ast::visit(
          s,
          [&](const ast::IndexSuffix& i) { at(i.index.get(), "index expression", Place::Value); },
          [&](const ast::MethodSuffix& m) { arguments(m.args, "method argument"); },
          [](const ast::FieldSuffix&) {});
  }

  void arguments(const std::vector<ast::Expr>& args, const char* what) {
    for (const ast::Expr& a : args) at(a, what, Place::Value);
  }

  void primary(const ast::Primary& p) {
    ast::visit(
        p, [](const ast::FloatLit&) {}, [](const ast::IntLit&) {}, [](const ast::BoolLit&) {},
        [](const ast::StringLit&) {}, [](const ast::CharLit&) {},
        [&](const ast::TensorCtor& t) { arguments(t.args, "function argument"); },
        [&](const ast::MacroCall& m) {
          for (const ast::Expr& a : m.args) expr(a);  // a macro's arguments are its own
        },
        [&](const ast::PathExpr& pe) {
          if (pe.call_args) arguments(*pe.call_args, "function argument");
        },
        [&](const ast::ArrayLit& a) {
          for (const ast::Expr& e : a.elems) expr(e);
        },
        [&](const ast::StructLit& s) {
          for (const ast::FieldInit& f : s.fields)
            if (f.value) expr(f.value->get());
        },
        [](const ast::UnitLit&) {},
        [&](const ast::Paren& par) {
          expr(par.inner.get());
          for (const ast::Expr& e : par.rest) expr(e);
        },
        [&](const ast::UnsafeBlock& u) { block(u.body.get()); },
        [&](const ast::LoopExpr& l) { block(l.body.get()); },
        [&](const ast::x3::forward_ast<ast::IfExpr>& i) { if_expr(i.get()); },
        [&](const ast::x3::forward_ast<ast::MatchExpr>& m) { match(m.get()); },
        [&](const ast::x3::forward_ast<ast::Block>& b) { block(b.get()); });
  }

  void if_expr(const ast::IfExpr& i) {
    at(i.cond, "`if` condition", Place::Head);
    block(i.then_block.get());
    for (const ast::ElseIf& e : i.else_ifs) {
      at(e.cond, "`if` condition", Place::Head);
      block(e.body.get());
    }
    if (i.else_block) block(i.else_block->get());
  }

  void match(const ast::MatchExpr& m) {
    at(m.scrutinee, "`match` scrutinee expression", Place::Head);
    for (const ast::MatchArm& arm : m.arms) {
      if (arm.guard) expr(*arm.guard);
      if (arm.body.assign) {
        expr(arm.body.expr);  // the place assigned
        at(arm.body.assign->value, "assigned value", Place::Value);
      } else {
        at(arm.body.expr, "match arm expression", Place::Value);
      }
    }
  }

  void block(const ast::Block& b) {
    for (size_t k = 0; k < b.stmts.size(); ++k) stmt(b.stmts[k], k + 1 == b.stmts.size());
  }

  void stmt(const ast::Stmt& s, bool last) {
    ast::visit(
        s,
        [&](const ast::LetStmt& l) {
          if (l.init) at(*l.init, "assigned value", Place::Value);
        },
        [&](const ast::LetTupleStmt& l) {
          if (l.init) at(*l.init, "assigned value", Place::Value);
        },
        [&](const ast::ReturnStmt& r) {
          if (r.value) at(*r.value, "`return` value", Place::Value);
        },
        [&](const ast::BreakStmt& b) {
          if (b.value) at(*b.value, "`break` value", Place::Value);
        },
        [](const ast::ContinueStmt&) {},
        [&](const ast::WhileStmt& w) {
          at(w.cond, "`while` condition", Place::Head);
          block(w.body.get());
        },
        [&](const ast::ForStmt& f) {
          for_range(f.range);
          block(f.body.get());
        },
        [&](const ast::SpawnStmt& sp) { block(sp.body.get()); },
        [&](const ast::ExprStmt& e) {
          if (last && !e.semicolon && !e.assign)
            at(e.expr, "block return value", Place::Value);
          else
            expr(e.expr);
          if (e.assign) at(e.assign->value, "assigned value", Place::Value);
        });
  }

  // `for i in (a..b) {`: the range in parentheses of its own (spec/grammar.md §3), which
  // `(a)..b`'s are not, and without adapters, which need them.
  void for_range(const ast::ForRange& r) {
    const Span s = parsed_.span(r), start = parsed_.span(r.start);
    if (r.adapters.empty() && s.begin < text_.size() && text_[s.begin] == '(' &&
        start.begin > s.begin)
      report(s, "`for` iterator expression", Place::Head);
    expr(r.start);
    expr(r.end);
    for (const ast::MethodSuffix& m : r.adapters) arguments(m.args, "method argument");
  }

  const ParsedProgram& parsed_;
  std::string_view text_;
  std::vector<UnusedParens>& out_;
};

}  // namespace

std::vector<UnusedParens> unused_parens(const ParsedProgram& parsed, const SourceFile& file) {
  std::vector<UnusedParens> out;
  Walk walk(parsed, file, out);
  for (const ast::Item& it : parsed.program.items) walk.item(it);
  return out;
}

}  // namespace vx::lint
