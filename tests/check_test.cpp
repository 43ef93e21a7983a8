// Unit tests of the parser and checker internals: spans, precedence, literal inference, the
// typed program's shape. Language behaviour as a whole is tested by the conformance corpus.
#include <doctest/doctest.h>

#include <sstream>

#include "check/checker.hpp"
#include "check/flat_tuples.hpp"
#include "check/tir_walk.hpp"
#include "parse/parser.hpp"
#include "pipeline/pipeline.hpp"
#include "support/suggest.hpp"

namespace {

struct Checked {
  std::shared_ptr<vx::SourceFile> file;
  std::unique_ptr<vx::Diagnostics> diags;
  std::unique_ptr<vx::ParsedProgram> parsed;
  std::unique_ptr<vx::tir::Program> program;
};

// The program checked and lowered (through Check: as the checker typed it, `match` kept).
Checked check(const std::string& text, vx::pipeline::Step through = vx::pipeline::Step::Lower) {
  vx::pipeline::Options front;
  front.through = through;
  vx::pipeline::Compiled p =
      vx::pipeline::compile(std::make_shared<vx::SourceFile>("t.vx", text), front);
  Checked c;
  c.file = std::move(p.file);
  c.diags = std::move(p.diags);
  c.parsed = std::move(p.parsed);
  c.program = std::move(p.program);
  return c;
}

// The value of `let` number `k` in main.
const vx::tir::Expr* let_init(const Checked& c, size_t k) {
  const auto& f = c.program->functions[c.program->main_index];
  size_t seen = 0;
  for (const auto* s : f.body->stmts)
    if (s->kind == vx::tir::StmtKind::Let && seen++ == k) return s->value;
  return nullptr;
}

}  // namespace

TEST_CASE("binary operators fold by Rust's precedence") {
  auto c = check("fn main() { let x = 1 + 2 * 3 << 1 & 7; }");
  REQUIRE(c.program);
  const auto* e = let_init(c, 0);
  // ((1 + (2 * 3)) << 1) & 7
  REQUIRE(e->kind == vx::tir::ExprKind::Binary);
  CHECK(e->bop == vx::tir::BinOp::BitAnd);
  CHECK(e->args[0]->bop == vx::tir::BinOp::Shl);
  CHECK(e->args[0]->args[0]->bop == vx::tir::BinOp::Add);
  CHECK(e->args[0]->args[0]->args[1]->bop == vx::tir::BinOp::Mul);
}

TEST_CASE("unsuffixed literals take their type from context") {
  auto c = check(
      "fn main() { let a: f32 = 1.5; let b = 2.0 * a; let c = 7; let d: u8 = 200; "
      "let e = 3.0; }");
  REQUIRE(c.program);
  CHECK(let_init(c, 1)->type == vx::Type::of(vx::Scalar::F32));
  CHECK(let_init(c, 1)->args[0]->type == vx::Type::of(vx::Scalar::F32));
  CHECK(let_init(c, 2)->type == vx::Type::of(vx::Scalar::I32));
  CHECK(let_init(c, 3)->lit.i == 200);
  CHECK(let_init(c, 4)->type == vx::Type::of(vx::Scalar::F64));
}

TEST_CASE("diagnostics point at the token at fault") {
  auto c = check("fn main() {\n    let y = 2;\n    y = 3;\n}\n");
  CHECK_FALSE(c.program);
  REQUIRE(c.diags->list().size() == 1);
  const auto& d = c.diags->list()[0];
  CHECK(d.code == "E0300");
  auto at = c.file->line_col(d.span.begin);
  CHECK(at.line == 3);
  CHECK(at.col == 5);
  REQUIRE(d.secondary.size() == 1);
  auto decl = c.file->line_col(d.secondary[0].span.begin);
  CHECK(decl.line == 2);
  CHECK(decl.col == 9);
  CHECK(d.secondary[0].span.end - d.secondary[0].span.begin == 1);
}

TEST_CASE("a parse error says what was expected and what was found") {
  auto c = check("fn main() {\n  let x = 1 + 2\n  foo();\n}\n");
  REQUIRE(c.diags->list().size() == 1);
  CHECK(c.diags->list()[0].code == "E0001");
  CHECK(c.diags->list()[0].message == "expected `;`, found `foo`");
}

TEST_CASE("a missing `;` is reported at the end of the line that lacks it") {
  auto c = check("fn main() {\n  let x = 1 + 2 // three\n\n  let y = x;\n}\n");
  REQUIRE(c.diags->list().size() == 1);
  const auto& d = c.diags->list()[0];
  CHECK(d.message == "expected `;`, found `let`");
  CHECK(d.label == "add `;` here");
  CHECK(c.file->line_col(d.span.begin).line == 2);
  CHECK(c.file->line_col(d.span.begin).col == 16);  // just after the `2`, before the comment
  REQUIRE(d.secondary.size() == 1);
  CHECK(c.file->line_col(d.secondary[0].span.begin).line == 4);
  CHECK(d.secondary[0].span.end - d.secondary[0].span.begin == 3);  // `let`
  // On one line the grammar's place is the right one.
  auto same = check("fn main() { let x = 1 let y = 2; }");
  REQUIRE(same.diags->list().size() == 1);
  CHECK(same.file->line_col(same.diags->list()[0].span.begin).col == 23);
  CHECK(same.diags->list()[0].secondary.empty());
}

// The first diagnostic of a program: "CODE message @line:col+length | help | help".
static std::string first(const std::string& text, bool only = false) {
  auto c = check(text);
  REQUIRE(!c.diags->list().empty());
  if (only) REQUIRE(c.diags->list().size() == 1);
  const auto& d = c.diags->list()[0];
  const auto at = c.file->line_col(d.span.begin);
  std::string helps;
  for (const auto& h : d.helps) helps += " | " + h;
  return d.code + " " + d.message + " @" + std::to_string(at.line) + ":" + std::to_string(at.col) +
         "+" + std::to_string(d.span.end - d.span.begin) + helps;
}
static std::string only_diagnostic(const std::string& text) { return first(text, true); }

// `vec![…]`, `println!{…}`: a macro with brackets or braces (spec/grammar.md §4.2), which the
// grammar reads as a name and a `!`, is named for what it is, at the macro.
TEST_CASE("a macro called with brackets or braces") {
  const std::string vec_help =
      " | Vx has no vectors: write an array (`[1, 2, 3]`, `[0.0; 8]`) or a tensor "
      "(`Tensor<f32, [8]>::fill(0.0)`)";
  CHECK(only_diagnostic("fn main() {\n  let v = vec![1, 2, 3];\n}") ==
        "E0502 unknown macro `vec!` @2:11+3" + vec_help);
  CHECK(only_diagnostic("fn main() {\n  let v = vec!(1, 2, 3);\n}") ==
        "E0502 unknown macro `vec!` @2:11+3" + vec_help);  // the checker's, alike
  CHECK(only_diagnostic("fn f(x: i32) {}\nfn main() { f(format!{\"{}\", 1}); }") ==
        "E0502 unknown macro `format!` @2:15+6 | the macros are println!, print!, assert! and "
        "assert_eq!");
  CHECK(only_diagnostic("fn main() { println! [\"x\"]; }") ==
        "E0001 `println!` takes its arguments in `( … )`, found `[` @1:22+1 | write `println!(…)`");
  CHECK(only_diagnostic("fn main() { assert_eq!{1, 1}; }") ==
        "E0001 `assert_eq!` takes its arguments in `( … )`, found `{` @1:23+1 | write "
        "`assert_eq!(…)`");
  // `!` after a name, not before a bracket, stays the grammar's error.
  CHECK(only_diagnostic("fn main() { let x = 1; let y = x !true; }") ==
        "E0001 expected `;`, found `!` @1:34+1");
}

// ast::must_get, the last case of an if-chain over a variant's alternatives: the alternative, or
// an internal error that names this file and line (a reference boost::get threw bad_get from an
// inlined noexcept function, so the release build ended in std::terminate with no message).
TEST_CASE("must_get returns the alternative, or names the broken invariant") {
  vx::ast::Suffix s;
  s = vx::ast::FieldSuffix{{}, "x"};
  CHECK(vx::ast::must_get<vx::ast::FieldSuffix>(s).name == "x");
  const int line = __LINE__ + 2;
  try {
    (void)vx::ast::must_get<vx::ast::IndexSuffix>(s);
    FAIL("no internal error");
  } catch (const vx::InternalError& e) {
    CHECK(std::string(e.what()).find("check_test.cpp:" + std::to_string(line)) !=
          std::string::npos);
    CHECK(std::string(e.what()).find("this is a bug in vx") != std::string::npos);
  }
}

// Other habits from Rust and C: `i++`, `usize`, a `for` over `t.iter()`.
TEST_CASE("an increment, usize and a loop over an iterator get a help saying what to write") {
  CHECK(first("fn main() {\n  let mut i = 0;\n  i++;\n}") ==
        "E0001 Vx has no postfix increment operator @3:4+2 | write `i += 1;`");
  CHECK(first("fn main() {\n  let mut i = 0;\n  ++i;\n}") ==
        "E0001 Vx has no prefix increment operator @3:3+2 | write `i += 1;`");
  CHECK(first("fn main() {\n  let mut t = [1, 2];\n  t[0]++;\n}") ==
        "E0001 Vx has no postfix increment operator @3:7+2 | write `… += 1;`");
  CHECK(first("fn main() { let n: usize = 3; }") ==
        "E0104 unknown type `usize` @1:20+5 | Vx has no `usize`: an index may be of any integer "
        "type, and a length is `i32` (`t.len()`); write `i32` or `i64`");
  for (const char* over : {"t.iter()", "&t", "&mut t", "t.into_iter()"})
    CHECK(first("fn main() {\n  let t = [1, 2];\n  for x in " + std::string(over) + " {}\n}")
              .ends_with(" | loop over the indices and index the array: `for i in 0..t.len() { … "
                         "t[i] … }`"));
}

TEST_CASE("a Rust form Vx leaves out is named, at the form") {
  auto absent = [](const std::string& text) {
    auto c = check(text);
    REQUIRE(c.diags->list().size() == 1);
    const auto& d = c.diags->list()[0];
    CHECK(d.code == "E0001");
    const auto at = c.file->line_col(d.span.begin);
    return d.message + " @" + std::to_string(at.line) + ":" + std::to_string(at.col) + "+" +
           std::to_string(d.span.end - d.span.begin);
  };
  CHECK(absent("struct P(i32);\nfn main() {}") == "Vx has no tuple structs @1:9+1");
  CHECK(absent("pub struct P;\nfn main() {}") == "Vx has no unit structs @1:13+1");
  CHECK(absent("struct P<T> { x: T }\nfn main() {}") == "Vx has no generic structs @1:9+1");
  CHECK(absent("pub enum E { A }\nfn main() {}") == "Vx has no enums @1:5+4");
  CHECK(absent("fn main() {}\nimpl P {}") == "Vx has no `impl` blocks or methods @2:1+4");
  CHECK(absent("fn main() {\n  trait T {}\n}") == "Vx has no traits @2:3+5");
  CHECK(absent("fn main() {\n  let f = |a, b| a + b;\n}") == "Vx has no closures @2:11+6");
  CHECK(absent("fn main() {\n  let f = || 1;\n}") == "Vx has no closures @2:11+2");
  CHECK(absent("fn main() {\n  let f = move |a, b| a;\n}") == "Vx has no closures @2:11+11");
  // `move |a| a` is `move` or'd with `a`, twice: the unknown `move` says what it likely was.
  auto moved = check("fn main() {\n  let f = move |a| a;\n}");
  REQUIRE(!moved.diags->list().empty());
  CHECK(moved.diags->list()[0].message == "cannot find value `move` in this scope");
  CHECK(moved.diags->list()[0].notes ==
        std::vector<std::string>{"Vx has no closures (spec/grammar.md §7); write a `fn` and pass "
                                 "it what it needs as parameters"});
  CHECK(absent("fn id<T>(x: T) -> T { x }\nfn main() {}") == "Vx has no generic functions @1:6+3");
  CHECK(absent("fn main() {\n  let x = 5;\n  if let 5 = x {}\n}") ==
        "Vx has no `if let` or `while let` @3:3+6");
  CHECK(absent("fn main() {\n  let mut x = 5;\n  while  let 5 = x { x = 1; }\n}") ==
        "Vx has no `if let` or `while let` @3:3+10");
  CHECK(absent("use std::io;\nfn main() {}") == "Vx has no `use` declarations @1:1+3");
  // The words are names where the program means them as names; other errors stay as they were.
  CHECK(check("fn main() { let match = 1; let r = match | 2; println!(\"{}\", r); }")
            .diags->list()
            .empty());
  CHECK(absent("fn main() {\n  let x = 1\n  match\n}") == "expected `;`, found `match` @2:12+0");
}

TEST_CASE("a non-exhaustive match names the values not covered, as rustc writes them") {
  auto missing = [](const std::string& type, const std::string& arms) {
    auto c = check("fn main() {\n  let n: " + type + " = " + (type == "bool" ? "false" : "0") +
                   ";\n  let _k = match n {\n" + arms + "  };\n}");
    REQUIRE(c.diags->list().size() == 1);
    const auto& d = c.diags->list()[0];
    CHECK(d.code == "E0208");
    CHECK(c.file->line_col(d.span.begin).line == 3);
    return d.message;
  };
  CHECK(missing("i32", "0 => 1, 1 | 2 => 2,\n") ==
        "non-exhaustive patterns: `i32::MIN..=-1_i32` and `3_i32..=i32::MAX` not covered");
  CHECK(missing("u64", "0..=9223372036854775807 => 1,\n") ==
        "non-exhaustive patterns: `9223372036854775808_u64..=u64::MAX` not covered");
  CHECK(missing("u8", "1 => 1, 3 => 2, 5 => 3, 7 => 4,\n") ==
        "non-exhaustive patterns: `0_u8`, `2_u8`, `4_u8` and 2 more not covered");
  CHECK(missing("i8", "i8::MIN..-1 => 1, 0..=i8::MAX => 2,\n") ==
        "non-exhaustive patterns: `-1_i8` not covered");
  CHECK(missing("bool", "") == "non-exhaustive patterns: type `bool` is non-empty");
  // Exhaustive: the cover is complete at the last arm, whatever the order of the ranges.
  CHECK(check("fn main() {\n  let n = 3u8;\n  let _k = match n { 200..=255 => 1, 0..100 => 2, "
              "100..=199 => 3 };\n}")
            .diags->list()
            .empty());
}

TEST_CASE("a match becomes a block of ifs that tests the scrutinee once") {
  auto c = check(
      "fn g() -> i32 { 4 }\nfn main() {\n  let _k = match g() { 0 => 1, x if x > 2 => x, "
      "_ => 3 };\n}");
  REQUIRE(c.diags->list().empty());
  const vx::tir::Expr* m = let_init(c, 0);
  REQUIRE(m);
  CHECK(m->kind == vx::tir::ExprKind::BlockExpr);
  CHECK(m->from_match);
  REQUIRE(m->block->stmts.size() == 1);  // the hidden local holding `g()`
  CHECK(m->block->stmts[0]->kind == vx::tir::StmtKind::Let);
  REQUIRE(m->block->tail);
  CHECK(m->block->tail->kind == vx::tir::ExprKind::If);
  const vx::tir::Expr* second = m->block->tail->else_block->tail;
  REQUIRE(second);
  CHECK(second->kind == vx::tir::ExprKind::If);
  CHECK(second->else_block->tail->kind == vx::tir::ExprKind::Literal);  // `_ => 3`: no test
}

TEST_CASE("the typed program keeps a match, with its patterns; the lowering makes it the ifs") {
  using vx::tir::Pattern;
  const std::string text =
      "fn g() -> i32 { 4 }\nfn main() {\n  let _k = match g() { 0 | 7..=9 => 1, x if x > 2 => x, "
      "_ => 3, 5 => 4 };\n}";
  auto typed = check(text, vx::pipeline::Step::Check);
  REQUIRE(typed.program);
  const vx::tir::Expr* e = let_init(typed, 0);
  REQUIRE(e);
  REQUIRE(e->kind == vx::tir::ExprKind::Match);
  const vx::tir::Match& m = *e->match;
  REQUIRE(m.arms.size() == 4);  // `5 => 4`, after the arm that covers the rest, is kept here
  CHECK(m.last == 2);
  CHECK(m.taken() == 3);
  REQUIRE(m.setup->stmts.size() == 1);  // the hidden local holding `g()`
  REQUIRE(m.slots.size() == 1);
  CHECK(m.setup->stmts[0]->slot == m.slots[0]);
  // Arm 1: an or-pattern of the value 0 and the range 7..=9, each testing that local.
  const Pattern& first = m.arms[0].pattern;
  REQUIRE(first.kind == Pattern::Kind::Or);
  REQUIRE(first.subs.size() == 2);
  CHECK(first.subs[0].kind == Pattern::Kind::Value);
  CHECK((first.subs[0].lo == 0 && first.subs[0].hi == 0));
  CHECK((first.subs[1].lo == 7 && first.subs[1].hi == 9));
  CHECK(first.subs[1].var->slot == m.slots[0]);
  CHECK(vx::tir::has_test(first));
  CHECK(!m.arms[0].guard);
  // Arm 2: a name (no test) and a guard; arms 3 and 4: `_` and 5.
  CHECK(!vx::tir::has_test(m.arms[1].pattern));
  CHECK(m.arms[1].guard);
  CHECK(!vx::tir::has_test(m.arms[2].pattern));
  CHECK(vx::tir::has_test(m.arms[3].pattern));

  auto lowered = check(text);
  REQUIRE(lowered.program);
  const vx::tir::Expr* b = let_init(lowered, 0);
  REQUIRE(b->kind == vx::tir::ExprKind::BlockExpr);
  CHECK(b->from_match);
  CHECK(!b->match);
  // `if t == 0 || (t >= 7 && t <= 9) { 1 } else { if x > 2 { x } else { 3 } }`: arm 4 is gone.
  const vx::tir::Expr* top = b->block->tail;
  REQUIRE(top->kind == vx::tir::ExprKind::If);
  CHECK(top->args[0]->bop == vx::tir::BinOp::Or);
  CHECK(top->args[0]->args[0]->bop == vx::tir::BinOp::Eq);
  CHECK(top->args[0]->args[1]->bop == vx::tir::BinOp::And);
  const vx::tir::Expr* second = top->else_block->tail;
  REQUIRE(second->kind == vx::tir::ExprKind::If);
  CHECK(second->args[0]->bop == vx::tir::BinOp::Gt);  // the guard alone: a name has no test
  CHECK(second->else_block->tail->kind == vx::tir::ExprKind::Literal);
  CHECK(second->else_block->tail->lit.i == 3);
  // What the lowering left out is not in the program the back ends read: no literal 4.
  CHECK(!vx::tir::expr_has(b, [](const vx::tir::Stmt*, const vx::tir::Expr* x) {
    return x && x->kind == vx::tir::ExprKind::Literal && x->lit.i == 4;
  }));
}

TEST_CASE("the typed program keeps tuple ==, {:?} and assert_eq!; the lowering takes them apart") {
  using vx::tir::ExprKind;
  const std::string text =
      "fn main() {\n  let t = (1, 2.5);\n  let _e = t != (1, 3.5);\n"
      "  println!(\"{:?}\", t);\n  assert_eq!(t, (1, 2.5));\n}";
  auto typed = check(text, vx::pipeline::Step::Check);
  REQUIRE(typed.program);
  const auto& f = typed.program->functions[typed.program->main_index];
  // `let t` is a statement of the flat tuple that declares t's two locals (t.0, t.1), which the
  // lowering makes two lets; `_e` is the first let: a `!=` of two flat tuples.
  const vx::tir::Expr* t = f.body->stmts[0]->value;
  REQUIRE(vx::tir::is_flat(t));
  CHECK(t->declares);
  CHECK(t->into_slots == std::vector<int>{0, 1});
  const vx::tir::Expr* ne = let_init(typed, 0);
  REQUIRE(ne);
  REQUIRE(ne->kind == ExprKind::Binary);
  CHECK(ne->bop == vx::tir::BinOp::Ne);
  REQUIRE(ne->args.size() == 2);
  CHECK(vx::tir::is_flat(ne->args[0]));
  CHECK(vx::tir::is_flat(ne->args[1]));
  CHECK(ne->args[1]->args[1]->lit.f == 3.5);
  // The print: one argument, the tuple, with one piece; the assert_eq!: the two tuples.
  const vx::tir::Expr* print = f.body->stmts[2]->value;
  REQUIRE(print->kind == ExprKind::Print);
  REQUIRE(print->args.size() == 1);
  CHECK(print->args[0]->type.is_tuple());
  CHECK(print->format.size() == 1);
  const vx::tir::Expr* eq = f.body->stmts[3]->value;
  REQUIRE(eq->kind == ExprKind::Assert);
  CHECK(eq->is_assert_eq);
  CHECK(eq->args[0]->type.is_tuple());

  auto lowered = check(text);
  REQUIRE(lowered.program);
  const auto& g = lowered.program->functions[lowered.program->main_index];
  // `t.0 != 1 || t.1 != 3.5`: both sides are plain reads and literals, so nothing runs first.
  const vx::tir::Expr* any = let_init(lowered, 2);
  REQUIRE(any->kind == ExprKind::Binary);
  CHECK(any->bop == vx::tir::BinOp::Or);
  CHECK(any->args[0]->bop == vx::tir::BinOp::Ne);
  CHECK(any->args[1]->bop == vx::tir::BinOp::Ne);
  CHECK(any->args[1]->args[1]->lit.f == 3.5);
  // No tuple-typed value is left anywhere for the back ends.
  for (const auto* s : g.body->stmts)
    CHECK(!vx::tir::expr_has(s->value, [](const vx::tir::Stmt*, const vx::tir::Expr* x) {
      return x && x->type.is_tuple();
    }));
  // The print's pieces: `(`, `, `, `)` around its two scalars.
  const vx::tir::Expr* printed = g.body->stmts[3]->value;
  REQUIRE(printed->kind == ExprKind::Print);
  REQUIRE(printed->args.size() == 2);
  REQUIRE(printed->format.size() == 3);
  CHECK(printed->format[0].literal == "(");
  CHECK(printed->format[1].literal == ", ");
  CHECK(printed->format[2].literal == ")");
  CHECK(printed->format[0].spec.kind == '?');
  // assert_eq! is an assert! of the `&&` of the elements' `==`, with assert_eq!'s message.
  const vx::tir::Expr* lowered_eq = g.body->stmts[4]->value;
  REQUIRE(lowered_eq->kind == ExprKind::BlockExpr);  // t's scalars read into locals first
  const vx::tir::Expr* assert_ = lowered_eq->block->stmts.back()->value;
  REQUIRE(assert_->kind == ExprKind::Assert);
  CHECK(!assert_->is_assert_eq);
  CHECK(assert_->args[0]->bop == vx::tir::BinOp::And);
  CHECK(assert_->format[0].literal == "assertion `left == right` failed\n  left: (");
}

TEST_CASE("a call keeps its tuple arguments; the lowering passes their scalars in order") {
  using vx::tir::ExprKind;
  const std::string text =
      "fn f(p: (i32, f64), k: i32) -> i32 {\n  p.0 + k\n}\n"
      "fn main() {\n  let mut n = 1;\n  let r = f(({ n += 1; n }, 2.5), n);\n"
      "  println!(\"{}\", r);\n}";
  auto typed = check(text, vx::pipeline::Step::Check);
  REQUIRE(typed.program);
  // `let r`: the call, its first argument the flat tuple, whose first scalar is the block.
  const vx::tir::Expr* call = let_init(typed, 1);
  REQUIRE(call);
  REQUIRE(call->kind == ExprKind::Call);
  REQUIRE(call->args.size() == 2);
  REQUIRE(vx::tir::is_flat(call->args[0]));
  CHECK(call->args[0]->args[0]->kind == ExprKind::BlockExpr);
  CHECK(call->args[1]->kind == ExprKind::Var);

  auto lowered = check(text);
  REQUIRE(lowered.program);
  // The block runs into a hidden local first (n, read after it, is the third argument), then the
  // call of three scalars: that local, 2.5 and n.
  const vx::tir::Expr* v = let_init(lowered, 1);
  REQUIRE(v);
  REQUIRE(v->kind == ExprKind::BlockExpr);
  REQUIRE(v->block->stmts.size() == 1);
  const vx::tir::Stmt* hidden = v->block->stmts[0];
  CHECK(hidden->kind == vx::tir::StmtKind::Let);
  CHECK(hidden->value->kind == ExprKind::BlockExpr);
  const vx::tir::Expr* c = v->block->tail;
  REQUIRE(c);
  REQUIRE(c->kind == ExprKind::Call);
  REQUIRE(c->args.size() == 3);
  CHECK(c->args[0]->kind == ExprKind::Var);
  CHECK(c->args[0]->slot == hidden->slot);
  CHECK(c->args[1]->lit.f == 2.5);
  CHECK(c->args[2]->kind == ExprKind::Var);
  CHECK(c->args[2]->text == "n");
}

TEST_CASE(
    "an if whose value is a tuple names its locals; the lowering has each branch assign them") {
  using vx::tir::ExprKind;
  const std::string text =
      "fn main() {\n  let c = true;\n  let p = if c { (1, 2.5) } else { (3, 4.5) };\n"
      "  println!(\"{}\", p.1);\n}";
  auto typed = check(text, vx::pipeline::Step::Check);
  REQUIRE(typed.program);
  // `let c`, then `let p`: the flat tuple of the `if`'s value, which declares p's locals; what
  // runs first is the `if` as a statement that declares two hidden locals (as a call's value),
  // and the value reads them.
  const auto& f = typed.program->functions[typed.program->main_index];
  const vx::tir::Expr* p = f.body->stmts[1]->value;
  REQUIRE(vx::tir::is_flat(p));
  CHECK(p->declares);
  const vx::tir::Block* pre = p->block;
  REQUIRE(pre->stmts.size() == 1);
  const vx::tir::Expr* branch = pre->stmts[0]->value;
  REQUIRE(branch->kind == ExprKind::If);
  CHECK(branch->type.is_tuple());
  CHECK(branch->declares);
  REQUIRE(branch->into_slots.size() == 2);
  CHECK(p->args[0]->slot == branch->into_slots[0]);
  CHECK(p->args[1]->slot == branch->into_slots[1]);
  CHECK(vx::tir::is_flat(branch->block->tail));
  CHECK(branch->else_block->tail->args[1]->lit.f == 4.5);

  // Lowered: `let c`, the hidden locals' lets with their zeros, then the `if` as a statement.
  auto lowered = check(text);
  REQUIRE(lowered.program);
  const auto& g = lowered.program->functions[lowered.program->main_index];
  for (size_t k = 0; k < 2; ++k) {
    const vx::tir::Stmt* let = g.body->stmts[1 + k];
    REQUIRE(let->kind == vx::tir::StmtKind::Let);
    CHECK(let->slot == branch->into_slots[k]);
    REQUIRE(let->value);
    CHECK(let->value->kind == ExprKind::Literal);
  }
  CHECK(g.body->stmts[1]->value->lit.i == 0);
  CHECK(g.body->stmts[2]->value->lit.f == 0.0);
  const vx::tir::Expr* routed = g.body->stmts[3]->value;
  REQUIRE(routed->kind == ExprKind::If);
  CHECK(routed->type.is_unit());
  CHECK(routed->into_slots.empty());
  // `else { _tuple.0 = 3; _tuple.1 = 4.5; }`
  const vx::tir::Block* other = routed->else_block;
  CHECK(!other->tail);
  REQUIRE(other->stmts.size() == 2);
  CHECK(other->stmts[0]->kind == vx::tir::StmtKind::Assign);
  CHECK(other->stmts[0]->target->slot == branch->into_slots[0]);
  CHECK(other->stmts[1]->target->slot == branch->into_slots[1]);
  CHECK(other->stmts[1]->value->lit.f == 4.5);

  // A function's tuple value goes into its return locals: kept as one statement naming them,
  // made one assignment a scalar by the lowering.
  const std::string fn_text = "fn two(a: i32) -> (i32, i32) {\n  (a, a + 1)\n}\nfn main() {}";
  auto two = check(fn_text, vx::pipeline::Step::Check);
  REQUIRE(two.program);
  const vx::tir::Function& t = two.program->functions[0];
  REQUIRE(t.body->stmts.size() == 1);
  const vx::tir::Expr* stored = t.body->stmts[0]->value;
  CHECK(vx::tir::is_flat(stored));
  CHECK(stored->into_slots == t.ret_slots);
  auto two_lowered = check(fn_text);
  REQUIRE(two_lowered.program);
  const vx::tir::Function& u = two_lowered.program->functions[0];
  // `a` is read into a local first, since `a + 1` after it could change what it reads.
  REQUIRE(u.body->stmts.size() == 3);
  CHECK(u.body->stmts[0]->kind == vx::tir::StmtKind::Let);
  CHECK(u.body->stmts[0]->value->slot == u.param_slots[0]);
  for (size_t k = 0; k < 2; ++k) {
    CHECK(u.body->stmts[k + 1]->kind == vx::tir::StmtKind::Assign);
    CHECK(u.body->stmts[k + 1]->target->slot == u.ret_slots[k]);
  }
  CHECK(u.body->stmts[1]->value->slot == u.body->stmts[0]->slot);
  CHECK(u.body->stmts[2]->value->bop == vx::tir::BinOp::Add);
}

TEST_CASE("a parse error names a keyword or a list it expected in words, never a C++ type") {
  auto c = check("fn main() {\n  spawn x {}\n}\n");
  REQUIRE(c.diags->list().size() == 1);
  CHECK(c.diags->list()[0].message == "expected `on`, found `x`");
  auto d = check("fn main() {\n  let t = Tensor<f32, [@ROWS@]>::fill(0.0);\n}\n");
  REQUIRE(d.diags->list().size() == 1);
  CHECK(d.diags->list()[0].message ==
        "expected dimension (a number, a const name or `?`), found `@`");
  auto e = check("fn main() {\n  for i on 0..3 {}\n}\n");
  REQUIRE(e.diags->list().size() == 1);
  CHECK(e.diags->list()[0].message == "expected `in`, found `on`");
}

TEST_CASE("an unclosed delimiter names where it opened") {
  auto c = check("fn main() {\n  let x = (1 + 2;\n");
  REQUIRE(c.diags->list().size() == 1);
  const auto& d = c.diags->list()[0];
  CHECK(d.code == "E0002");
  CHECK(c.file->line_col(d.span.begin).line == 2);  // the innermost one
  CHECK(d.message == "unclosed delimiter `(`");
  REQUIRE(d.secondary.size() == 1);
  CHECK(c.file->line_col(d.secondary[0].span.begin).line == 1);  // the `{` of main
}

TEST_CASE("a bad string escape says what is wrong with it") {
  auto only = [](const std::string& literal) {
    auto c = check("fn main() {\n  println!(\"" + literal + "\");\n}\n");
    REQUIRE(c.diags->list().size() == 1);
    const auto& d = c.diags->list()[0];
    CHECK(d.code == "E0004");
    CHECK(c.file->line_col(d.span.begin).line == 2);
    CHECK(c.file->line_col(d.span.begin).col == 13);  // the backslash
    return d.message + " | " + d.label;
  };
  CHECK(only("\\q") == "unknown character escape `\\q` | unknown escape");
  CHECK(only("\\a") == "unknown character escape `\\a` | unknown escape");
  CHECK(only("\\x80") ==
        "out of range hex escape | must be a character in the range [\\x00-\\x7f]");
  CHECK(only("\\x4") == "numeric character escape is too short | expected two hex digits");
  CHECK(only("\\u{D800}") == "`\\u{D800}` is not a Unicode scalar value | a surrogate code point");
  CHECK(only("\\u{110000}") == "`\\u{110000}` is not a Unicode scalar value | past U+10FFFF");
  CHECK(only("\\u{0000041}") == "`\\u{…}` with more than six hex digits | 7 digits");
  CHECK(only("\\u41") == "malformed `\\u` escape | expected `\\u{` hex digits `}`");
  CHECK(only("\\u{}") == "malformed `\\u` escape | expected `\\u{` hex digits `}`");
}

TEST_CASE("string literals keep their bytes and resolve their escapes, at any length") {
  auto printed = [](const std::string& literal) {
    auto c = check("fn main() {\n  println!(\"" + literal + "\");\n}\n");
    REQUIRE(c.diags->list().empty());
    const auto& f = c.program->functions[c.program->main_index];
    REQUIRE(f.body->stmts.size() == 1);
    const vx::tir::Expr* print = f.body->stmts[0]->value;
    REQUIRE(print);
    std::string text;
    for (const auto& piece : print->format) text += piece.literal;
    return text;
  };
  CHECK(printed("a \\t\\n\\\\\\\"\\r|\\u{e9}\\u{10FFFF} \xc3\xa9") ==
        "a \t\n\\\"\r|\xc3\xa9\xf4\x8f\xbf\xbf \xc3\xa9");
  CHECK(printed("it\\'s \\x41\\x7f\\x00") == std::string("it's A\x7f\0", 8));
  CHECK(printed(std::string(1 << 20, 'x')) == std::string(1 << 20, 'x'));
}

TEST_CASE("consts fold with the language's arithmetic") {
  auto c =
      check("const A: u8 = 250 + 10; const B: i32 = -7 / 2; fn main() { let a = A; let b = B; }");
  REQUIRE(c.program);
  CHECK(let_init(c, 0)->lit.i == 4);  // wraps
  CHECK(let_init(c, 1)->lit.i == -3);
}

TEST_CASE("deep nesting is refused, not a stack overflow") {
  std::string text =
      "fn main() { let x = " + std::string(300, '(') + "1" + std::string(300, ')') + "; }";
  auto c = check(text);
  REQUIRE(!c.diags->list().empty());
  CHECK(c.diags->list()[0].code == "E0003");
}

// Did-you-mean (support/suggest.hpp): the help a typo gets names what was likely meant, and
// nothing when no name in reach is close.
static std::vector<std::string> helps_of(const Checked& c, const std::string& code) {
  for (const auto& d : c.diags->list())
    if (d.code == code) return d.helps;
  return {{"no " + code}};
}

// A local made f64 (or i32) by an unsuffixed literal, used where an f32 (or u8, …) is wanted: the
// error points at the literal and says which `let` to write (spec/errors.md E0200).
TEST_CASE("a type that came from an unsuffixed literal gets a help naming its let") {
  using V = std::vector<std::string>;
  const std::string sum =
      "fn main() {\n"
      "    let t = Tensor<f32, [4]>::fill(1.0);\n"
      "    let mut s = 0.0;\n"
      "    for i in 0..4 {\n"
      "        s += t[i];\n"
      "    }\n"
      "}\n";
  auto c = check(sum);
  REQUIRE(!c.diags->list().empty());
  const auto& d = c.diags->list()[0];
  CHECK(d.code == "E0200");
  CHECK(c.file->line_col(d.span.begin).line == 5);
  CHECK(d.helps ==
        V{"convert it with `as f64`", "give `s` the type `f32`: `let mut s: f32 = 0.0;`"});
  REQUIRE(d.secondary.size() == 1);
  CHECK(c.file->line_col(d.secondary[0].span.begin).line == 3);
  CHECK(c.file->line_col(d.secondary[0].span.begin).col == 17);
  CHECK(d.secondary[0].span.end - d.secondary[0].span.begin == 3);  // `0.0`
  CHECK(d.secondary[0].text == "`s` is `f64`: this literal has no suffix, and its `let` no type");

  // Either operand of an operator; a call's argument; arithmetic of literals; an integer.
  CHECK(
      helps_of(check("fn main() { let x = 2.5f32; let k = 1.0 / 3.0; let y = x * k; }"), "E0200") ==
      V{"convert one side with `as`", "give `k` the type `f32`: `let k: f32 = 1.0 / 3.0;`"});
  CHECK(helps_of(check("fn f(v: u8) -> u8 { v }\nfn main() { let n = 200; let y = f(n); }"),
                 "E0200") == V{"give `n` the type `u8`: `let n: u8 = 200;`"});
  CHECK(helps_of(check("fn f(v: i8) -> i8 { v }\nfn main() { let n = -128; let y = f(n); }"),
                 "E0200") == V{"give `n` the type `i8`: `let n: i8 = -128;`"});
  // No help where the literal's kind cannot be the wanted type, where the suggested `let` would be
  // refused in turn (300 is no u8, -1 no u32, 1e39 no f32; a sum is not checked), where the `let`
  // has a type, or where the value is not a literal.
  for (const char* init : {"300", "-1", "100 + 100"})
    CHECK(helps_of(check("fn f(v: u8) -> u8 { v }\nfn main() { let n = " + std::string(init) +
                         "; let y = f(n); }"),
                   "E0200")
              .empty());
  CHECK(helps_of(check("fn main() { let x = 2.5f32; let k = 1e39; let y = x * k; }"), "E0200") ==
        V{"convert one side with `as`"});
  CHECK(helps_of(check("fn main() { let x = 2.5f32; let k = 1e38; let y = x * k; }"), "E0200") ==
        V{"convert one side with `as`", "give `k` the type `f32`: `let k: f32 = 1e38;`"});
  CHECK(helps_of(check("fn main() { let x = 2.5f16; let k = 65504.0; let y = x * k; }"), "E0200") ==
        V{"convert one side with `as`", "give `k` the type `f16`: `let k: f16 = 65504.0;`"});
  CHECK(helps_of(check("fn main() { let x = 2.5f16; let k = 70000.0; let y = x * k; }"), "E0200") ==
        V{"convert one side with `as`"});
  CHECK(helps_of(check("fn main() { let x = 2.5f32; let n = 2; let y = x * n; }"), "E0200") ==
        V{"convert one side with `as`"});
  CHECK(helps_of(check("fn main() { let x = 2.5f32; let k: f64 = 1.0; let y = x * k; }"),
                 "E0200") == V{"convert one side with `as`"});
  CHECK(helps_of(check("fn main() { let x = 2.5f32; let k = 1.0f64.sqrt(); let y = x * k; }"),
                 "E0200") == V{"convert one side with `as`"});
}

TEST_CASE("edit distance counts insertions, deletions, substitutions and swaps") {
  CHECK(vx::edit_distance("kitten", "sitting") == 3);
  CHECK(vx::edit_distance("sqrtt", "sqrt") == 1);
  CHECK(vx::edit_distance("mxa", "max") == 1);  // one swap
  CHECK(vx::edit_distance("", "abc") == 3);
  CHECK(vx::closest_name("powf", {"pow", "exp", "log"}) == std::optional<std::string>("pow"));
  CHECK(vx::closest_name("Total", {"total"}) == std::optional<std::string>("total"));
  CHECK(vx::closest_name("ab", {"xy"}) == std::nullopt);  // 2 edits: more than max(1, 2/3)
  CHECK(vx::closest_name("same", {"same"}) == std::nullopt);
  // Names further apart in length than the edits allowed are not measured; a typo of more than
  // 256 bytes is matched only in case (issue 35: two names of 60,000 took seconds).
  CHECK(vx::closest_name("abcdef", {"abcdefghij", "abcdeg"}) ==
        std::optional<std::string>("abcdeg"));
  const std::string long_name(300, 'a');
  CHECK(vx::closest_name(long_name + "b", {long_name + "c"}) == std::nullopt);
  CHECK(vx::closest_name(long_name + "B", {long_name + "b"}) ==
        std::optional<std::string>(long_name + "b"));
  CHECK(vx::closest_name(std::string(200, 'a') + "b", {std::string(200, 'a') + "c"}) ==
        std::optional<std::string>(std::string(200, 'a') + "c"));
}

TEST_CASE("typos get a did-you-mean help") {
  using V = std::vector<std::string>;
  CHECK(helps_of(check("fn main() { let x = 2.0f32; let y = x.sqrtt(); }"), "E0105") ==
        V{"there is a method `sqrt` with a similar name"});
  CHECK(helps_of(check("fn main() { let x = 2.0f64; let y = x.powf(3.0); }"), "E0105") ==
        V{"there is a method `pow` with a similar name"});
  CHECK(helps_of(check("fn main() { let n = 2i32; let y = n.mx(3); }"), "E0105") ==
        V{"there is a method `max` with a similar name"});
  CHECK(helps_of(check("fn main() { let n = 2u32; let y = n.sqrt(); }"), "E0105").empty());
  CHECK(helps_of(check("fn main() { let total = 1; println!(\"{}\", totl); }"), "E0100") ==
        V{"a local variable with a similar name exists: `total`"});
  CHECK(helps_of(check("const LIMIT: i32 = 4;\nfn main() { println!(\"{}\", LIMT); }"), "E0100") ==
        V{"a constant with a similar name exists: `LIMIT`"});
  CHECK(helps_of(check("fn main() { let count = 3; println!(\"{}\", total); }"), "E0100").empty());
  CHECK(helps_of(check("fn clamp(x: i32) -> i32 { x }\nfn main() { let y = clmp(3); }"), "E0101") ==
        V{"a function with a similar name exists: `clamp`"});
  CHECK(helps_of(check("fn main() { let y = sqrt(2.0); }"), "E0101") ==
        V{"`sqrt` is a method: write `x.sqrt(…)`"});
  CHECK(helps_of(check("fn main() { let x: f23 = 1.0; }"), "E0104") ==
        V{"a type with a similar name exists: `f32`"});
  CHECK(helps_of(check("fn main() { let x: Tokn = 1; }"), "E0104") ==
        V{"a type with a similar name exists: `Token`"});
}

TEST_CASE("an unknown lanes:: routine lists the table's routines and the closest") {
  auto c = check(
      "fn main() { spawn on(Topology::Device) { for b in 0..1 across blocks {\n"
      "  let t = Tensor<f32, [4], Memory::SMEM>::fill(0.0); let m = lanes::mx(&t, 4); } } }");
  REQUIRE(c.diags->list().size() >= 1);
  const auto& d = c.diags->list()[0];
  CHECK(d.code == "E0101");
  CHECK(d.label ==
        "the `lanes::` routines are sum, max, argmax, sum_unordered, sort and copy_async");
  CHECK(d.helps == std::vector<std::string>{"a routine with a similar name exists: `lanes::max`"});
}

TEST_CASE("a struct's tensor field is lent to a `&mut` call, not copied back, and not zeroed") {
  // spec/types.md §9, "Tensor fields": the callee gets the caller's tensor as a view; only the
  // other fields come back through the write-back slots.
  auto c = check(
      "struct M { w: Tensor<f32, [4]>, n: i32 }\n"
      "fn bump(m: &mut M) { m.w[0] = 1.0; m.n += 1; }\n"
      "fn make() -> M { M { w: Tensor<f32, [4]>::fill(0.0), n: 0 } }\n"
      "fn main() { let mut m = make(); bump(&mut m); println!(\"{}\", m.w[0]); }");
  REQUIRE(c.program);
  REQUIRE_FALSE(c.diags->has_errors());
  const vx::tir::Function* bump = nullptr;
  for (const auto& f : c.program->functions)
    if (f.name == "bump") bump = &f;
  REQUIRE(bump);
  REQUIRE(bump->write_back_from.size() == 1);  // `n`, not `w`
  CHECK(bump->slot_names[static_cast<size_t>(bump->write_back_from[0])] == "m.n");
  const auto& main_fn = c.program->functions[c.program->main_index];
  int views = 0, tensor_lets = 0;
  vx::tir::walk_block(main_fn.body, [&](const vx::tir::Stmt* s, const vx::tir::Expr* e) {
    if (s && s->kind == vx::tir::StmtKind::Let &&
        main_fn.slot_types[static_cast<size_t>(s->slot)].kind == vx::TypeKind::Tensor) {
      ++tensor_lets;
      // The call's result slot for `w` waits for the call: no literal stands for a tensor.
      CHECK((!s->value || s->value->kind != vx::tir::ExprKind::Literal));
    }
    // The call's argument (through a temporary, as every argument that is not a plain read).
    if (e && e->kind == vx::tir::ExprKind::Ref && e->args[0]->text == "m.w") ++views;
  });
  CHECK(tensor_lets >= 2);  // make()'s result slot and `m.w`
  CHECK(views == 1);        // `m.w` passed as a view of the caller's tensor
}

// Issue 34: 50 warnings filled the one cap that errors shared, and the kernel's E6032 was dropped:
// the racy program ran. Each severity has its own cap, and every count includes what is dropped.
TEST_CASE("no number of warnings hides an error, before or after them") {
  const size_t cap = vx::Diagnostics::kMaxKept;
  const std::string kernel =
      "    let mut out = transfer(Tensor<i32, [8]>::fill(0), Memory::HBM);\n"
      "    spawn on(Topology::Device) {\n"
      "        for _b in 0..1 across blocks { for l in 0..8 across lanes { out[l * 0] = l; } }\n"
      "    }\n";
  for (size_t n : {size_t{0}, size_t{1}, cap - 2, cap - 1, cap, cap + 1, cap + 2, 2 * cap - 1,
                   2 * cap, 2 * cap + 1, 3 * cap}) {
    for (bool error_first : {false, true}) {
      std::string lets;
      for (size_t i = 0; i < n; ++i) lets += "    let u" + std::to_string(i) + " = 1;\n";
      const std::string text =
          "fn main() {\n" + (error_first ? kernel + lets : lets + kernel) + "}\n";
      vx::pipeline::Options options;  // through the kernel rules
      vx::pipeline::Compiled c =
          vx::pipeline::compile(std::make_shared<vx::SourceFile>("t.vx", text), options);
      CAPTURE(n);
      CAPTURE(error_first);
      CHECK_FALSE(c.ok());
      CHECK(c.diags->error_count() == 1);
      CHECK(c.diags->warning_count() == n);
      size_t shown_errors = 0, shown_warnings = 0;
      for (const vx::Diagnostic& d : c.diags->list()) {
        if (d.severity == vx::Severity::Error) {
          ++shown_errors;
          CHECK(d.code == "E6032");
        }
        if (d.severity == vx::Severity::Warning) ++shown_warnings;
      }
      CHECK(shown_errors == 1);  // the error is printed, whatever the warnings
      CHECK(shown_warnings == std::min(n, cap));
      std::ostringstream out;
      vx::emit_diagnostics(out, *c.diags, vx::ErrorFormat::Human);
      CHECK(out.str().find("aborting due to 1 previous error") != std::string::npos);
      CHECK((out.str().find("more diagnostics not shown") != std::string::npos) == (n > cap));
    }
  }
}

TEST_CASE("errors past the cap are counted, and the program is still refused") {
  const size_t cap = vx::Diagnostics::kMaxKept;
  for (size_t n : {cap - 1, cap, cap + 1, 2 * cap}) {
    std::string text = "fn main() {\n";
    for (size_t i = 0; i < n; ++i) text += "    let x" + std::to_string(i) + ": i32 = true;\n";
    text += "}\n";
    Checked c = check(text);
    CAPTURE(n);
    CHECK(c.program == nullptr);
    // The checker stops at the cap's last kept error: every error is counted, none is lost.
    CHECK(c.diags->error_count() == std::min(n, cap));
    CHECK(c.diags->list().size() <= cap);
  }
}

TEST_CASE("a constant zero divisor or a constant shift too far is E0220, with rustc's labels") {
  // spec/errors.md E0220: the right-hand side's value decides, where it is constant (a literal,
  // or literals, consts, operators and casts: `1 - 1`); the dividend is named when it is a
  // constant (`-7_i32`, `7_i32` for `2 + 5`, and as rustc's ConstInt names the ends of a type,
  // `u64::MAX`), `_` otherwise; the span is the operation or the whole compound assignment. A
  // divisor that itself divides by zero has its own E0220, and the operation around it none.
  const std::string text =
      "fn main() {\n"
      "    let x = 5;\n"
      "    let mut y: u16 = 3;\n"
      "    let a = x / 0;\n"
      "    let b = -7 % 0i32;\n"
      "    y %= 0;\n"
      "    let c = 1u8 << 8;\n"
      "    let d = x >> -1i64;\n"
      "    y <<= 16u64;\n"
      "    let e = 18446744073709551615u64 / 0;\n"
      "    let f = x / (1 - 1);\n"
      "    let g = 1u8 << 7;\n"
      "    let h = 7.0 / 0.0;\n"
      "    let i = (2 + 5) % (3 - 3);\n"
      "    let j = 1u8 << (4 + 4);\n"
      "    let k = x / (1 / 0);\n"
      "    let m = [1, 2, 3];\n"
      "    let l = x / (1 - 2) + m[1 + 1] + m[(1 - 1) * 7];\n"
      "    let n = m[1 + 2] + m[0 - 1];\n"
      "    println!(\"{} {} {} {} {} {} {} {} {}\", a, b, y, c, d, e, f, g, h);\n"
      "    println!(\"{} {} {} {} {}\", i, j, k, l, n);\n"
      "}\n";
  auto c = check(text);
  struct Want {
    int line;
    std::string code, message, label, spanned;
  };
  const std::vector<Want> want = {
      {4, "E0220", "this operation will panic at runtime", "attempt to divide `_` by zero",
       "x / 0"},
      {5, "E0220", "this operation will panic at runtime",
       "attempt to calculate the remainder of `-7_i32` with a divisor of zero", "-7 % 0i32"},
      {6, "E0220", "this operation will panic at runtime",
       "attempt to calculate the remainder of `_` with a divisor of zero", "y %= 0"},
      {7, "E0220", "this arithmetic operation will overflow",
       "attempt to shift left by `8_i32`, which would overflow", "1u8 << 8"},
      {8, "E0220", "this arithmetic operation will overflow",
       "attempt to shift right by `-1_i64`, which would overflow", "x >> -1i64"},
      {9, "E0220", "this arithmetic operation will overflow",
       "attempt to shift left by `16_u64`, which would overflow", "y <<= 16u64"},
      {10, "E0220", "this operation will panic at runtime", "attempt to divide `u64::MAX` by zero",
       "18446744073709551615u64 / 0"},
      {11, "E0220", "this operation will panic at runtime", "attempt to divide `_` by zero",
       "x / (1 - 1)"},
      {14, "E0220", "this operation will panic at runtime",
       "attempt to calculate the remainder of `7_i32` with a divisor of zero", "(2 + 5) % (3 - 3)"},
      {15, "E0220", "this arithmetic operation will overflow",
       "attempt to shift left by `8_i32`, which would overflow", "1u8 << (4 + 4)"},
      {16, "E0220", "this operation will panic at runtime", "attempt to divide `1_i32` by zero",
       "1 / 0"},
      {19, "E0220", "this operation will panic at runtime",
       "index out of bounds: the length is 3 but the index is 3", "m[1 + 2]"},
      {19, "E0220", "this operation will panic at runtime",
       "index out of bounds: the length is 3 but the index is -1", "m[0 - 1]"},
  };
  const auto& got = c.diags->list();
  REQUIRE(got.size() == want.size());
  for (size_t k = 0; k < want.size(); ++k) {
    CAPTURE(k);
    CHECK(got[k].code == want[k].code);
    CHECK(c.file->line_col(got[k].span.begin).line == want[k].line);
    CHECK(got[k].message == want[k].message);
    CHECK(got[k].label == want[k].label);
    CHECK(text.substr(got[k].span.begin, got[k].span.end - got[k].span.begin) == want[k].spanned);
  }
}
