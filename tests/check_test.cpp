// Unit tests of the parser and checker internals: spans, precedence, literal inference, the
// typed program's shape. Language behaviour as a whole is tested by the conformance corpus.
#include <doctest/doctest.h>

#include "check/checker.hpp"
#include "driver/pipeline.hpp"
#include "parse/parser.hpp"

namespace {

struct Checked {
  std::shared_ptr<vx::SourceFile> file;
  std::unique_ptr<vx::Diagnostics> diags;
  std::unique_ptr<vx::ParsedProgram> parsed;
  std::unique_ptr<vx::tir::Program> program;
};

Checked check(const std::string& text) {
  vx::pipeline::Options front;
  front.through = vx::pipeline::Step::Check;
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
