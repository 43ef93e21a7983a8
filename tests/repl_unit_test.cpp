// Unit tests of the REPL's pieces: when an input goes on to the next line, what TAB offers, the
// codes `vx explain` knows, and a session driven in-process. Whole sessions are tested through
// `vx repl` itself by repl_test.py.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>

#include "repl/explain_text.hpp"
#include "repl/repl.hpp"
#include "repl/save.hpp"
#include "repl/tensor_text.hpp"
#include "repl/uir_session.hpp"
#include "support/error_index.hpp"

using vx::repl::completions;
using vx::repl::input_is_open;

// A session whose regions run on the host, with what it prints kept in `out` and `err`.
struct OffloadOffSession {
  static vx::repl::SessionOptions options() {
    vx::repl::SessionOptions opts;
    opts.offload = "off";
    return opts;
  }
  std::ostringstream out, err;
  vx::repl::Session s{options(), out, err};
};

TEST_CASE("an input goes on while a delimiter, string or block comment is open") {
  CHECK(input_is_open("spawn on(Topology::Device) {\n"));
  CHECK(input_is_open("let t = (1 +\n"));
  CHECK(input_is_open("let a = [1, 2\n"));
  CHECK(input_is_open("println!(\"a {\n"));
  CHECK(input_is_open("/* a /* nested */ comment\n"));
  CHECK_FALSE(input_is_open("fn f() -> i32 { 1 }\n"));
  CHECK_FALSE(input_is_open("println!(\"{{ }\");\n"));  // braces in a string
  CHECK_FALSE(input_is_open("let x = 1; // an open ( in a comment\n"));
  CHECK_FALSE(input_is_open("1 + 2 }\n"));  // a stray closer: the parser reports it
}

TEST_CASE("an input goes on while it ends where it cannot") {
  using vx::repl::input_end;
  using vx::repl::InputEnd;
  CHECK(input_end("let y = 3 +\n") == InputEnd::Unfinished);  // an operator wants an operand
  CHECK(input_end("let y = 3 + // more below\n") == InputEnd::Unfinished);
  CHECK(input_end("let x =\n") == InputEnd::Unfinished);
  CHECK(input_end("if x > 3\n") == InputEnd::Unfinished);  // the parse fails at the end
  CHECK(input_end("fn f(x: i32) -> i32\n") == InputEnd::Unfinished);
  CHECK(input_end("let r = v.\n") == InputEnd::Unfinished);
  CHECK(input_end("let c = k as\n") == InputEnd::Unfinished);
  CHECK(input_end("let t = (1 +\n") == InputEnd::Open);
  CHECK(input_end("let x = 3\n") == InputEnd::Complete);  // only `;` is missing: refused at once
  CHECK(input_end("let t: Tensor<f32, [4]>\n") == InputEnd::Complete);  // `>` closes a type
  CHECK(input_end("return\n") == InputEnd::Complete);
  CHECK(input_end("x * 2\n") == InputEnd::Complete);
  CHECK(input_end("let 5 = 3;\n") == InputEnd::Complete);  // wrong before the end: refused
  CHECK(input_end("// only a comment\n") == InputEnd::Complete);
}

TEST_CASE("a .uir input goes on while a range has no end") {
  CHECK(vx::repl::uir_input_is_open("%b = range 4 axis=global\n"));
  CHECK(
      vx::repl::uir_input_is_open("%b = range 4\n%t = range 2 # a comment: end\n%e = end %t %t\n"));
  CHECK_FALSE(vx::repl::uir_input_is_open("%b = range 4\n%e = end %b %b\n"));
  CHECK_FALSE(vx::repl::uir_input_is_open("buffer %x i32[64] iota\n"));
  CHECK(vx::repl::uir_has_range("# a kernel\n%b = range 4\n"));
  CHECK_FALSE(vx::repl::uir_has_range("print %y # range\n"));
}

TEST_CASE(":explain's Markdown, rendered for a terminal") {
  const std::string md =
      "E0999 — a heading\n\nA [link text](grammar.md) and `code`, and **bold** words filled "
      "to the width of the terminal, as a paragraph is.\n\n- an item\n  that goes on\n\n"
      "```vx\nfn main() {\n    x = 2; //~ ERROR E0999\n}\n```\n";
  CHECK(vx::repl::terminal_text(md, false, 40) ==
        "E0999 — a heading\n\nA link text and `code`, and bold words\nfilled to the width of "
        "the terminal, as\na paragraph is.\n\n- an item that goes on\n\n    fn main() {\n"
        "        x = 2; // error[E0999]\n    }\n");
  const std::string coloured = vx::repl::terminal_text(md, true, 40);
  CHECK(coloured.find("\x1b[36mcode\x1b[0m") != std::string::npos);
  CHECK(coloured.find('`') == std::string::npos);
}

TEST_CASE(":save writes the items, then main with the inputs indented") {
  CHECK(
      vx::repl::saved_program({"fn f() -> i32 { 1 }"}, {"let x = f();\n", "x;  // = 1 : i32\n"}) ==
      "// Saved by `vx repl` (:save): the session's items, then its inputs in order.\n\n"
      "fn f() -> i32 { 1 }\n\nfn main() {\n    let x = f();\n    x;  // = 1 : i32\n}\n");
  // A string over two lines is left as it was.
  CHECK(vx::repl::saved_program({}, {"println!(\"a\nb\");\n"}).find("\nprintln!(\"a\nb\");\n") !=
        std::string::npos);
}

TEST_CASE("TAB offers built-ins, methods after a dot, commands and names in scope") {
  using V = std::vector<std::string>;
  CHECK(completions("lanes::s", "lanes::s", {}) ==
        V{"lanes::sort", "lanes::sum", "lanes::sum_unordered"});
  CHECK(completions("atomic_fetch_add_u", "let o = atomic_fetch_add_u", {}) ==
        V{"atomic_fetch_add_u32", "atomic_fetch_add_u64"});
  CHECK(completions("sq", "let r = x.sq", {}) == V{"sqrt"});
  CHECK(completions("sq", "let r = sq", {"square"}) == V{"square"});  // no free `sqrt`
  CHECK(completions(":ch", ":ch", {}) == V{":check"});
  CHECK(completions("Memory::H", "transfer(t, Memory::H", {}) == V{"Memory::HBM"});
  CHECK(completions("gr", "gr", {"grid", "back"}) == V{"grid"});
}

TEST_CASE("vx explain knows every code of the error index") {
  const auto codes = vx::error_codes();
  REQUIRE(codes.size() >= 35);  // E0001–E0005 … E6036; explain_examples checks each one
  CHECK(codes.front() == "E0001");
  CHECK(std::find(codes.begin(), codes.end(), "E6036") != codes.end());
  std::ostringstream out, err;
  CHECK(vx::explain_code("6032", out, err) == 0);
  CHECK(out.str().rfind("E6032 — kernel rule\n", 0) == 0);
  CHECK(vx::explain_code("E0999", out, err) == 2);
  CHECK(err.str().find("no error code `E0999`") != std::string::npos);
}

TEST_CASE_FIXTURE(OffloadOffSession,
                  "the REPL shows warnings about the input with its errors, not unused bindings") {
  CHECK(s.eval("let kept = 1;"));  // unused so far: later inputs may read it
  CHECK(err.str().empty());
  // Refused by the kernel rules (after the checker's lints): the input's own unreachable
  // statement is shown, the unused bindings `kept` and `t` are not.
  CHECK_FALSE(
      s.eval("let mut t = transfer(Tensor<i32, [4]>::fill(0), Memory::HBM);\n"
             "spawn on(Topology::Device) { for b in 0..2 across blocks { t[0] = 1; } }\n"
             "loop { break; let w = 2; }"));
  CHECK(err.str().find("error[E6032]") != std::string::npos);
  CHECK(err.str().find("warning: unreachable statement") != std::string::npos);
  CHECK(err.str().find("unused variable") == std::string::npos);
  CHECK(err.str().find("does not need to be mutable") == std::string::npos);
  // Functions are for the inputs that follow: nothing calls `later` or `racy` yet, and the
  // input's refusal does not say that they are never used.
  err.str("");
  CHECK_FALSE(
      s.eval("fn later() -> i32 { 2 }\n"
             "fn racy() { let mut t = transfer(Tensor<i32, [4]>::fill(0), Memory::HBM);\n"
             "spawn on(Topology::Device) { for b in 0..2 across blocks { t[0] = 1; } } }"));
  CHECK(err.str().find("error[E6032]") != std::string::npos);
  CHECK(err.str().find("is never used") == std::string::npos);
  // A value stored into a binding is for the inputs that follow too: no unused_assignments.
  // But a function that cannot return without recursing is the input's own.
  err.str("");
  CHECK_FALSE(
      s.eval("let mut acc = 1;\nprintln!(\"{}\", acc);\nacc = 2;\n"
             "let mut t = transfer(Tensor<i32, [4]>::fill(0), Memory::HBM);\n"
             "spawn on(Topology::Device) { for b in 0..2 across blocks { t[0] = 1; } }"));
  CHECK(err.str().find("error[E6032]") != std::string::npos);
  CHECK(err.str().find("is never read") == std::string::npos);
  err.str("");
  CHECK_FALSE(
      s.eval("fn spin(n: i32) -> i32 { spin(n + 1) }\n"
             "fn racy() { let mut t = transfer(Tensor<i32, [4]>::fill(0), Memory::HBM);\n"
             "spawn on(Topology::Device) { for b in 0..2 across blocks { t[0] = 1; } } }"));
  CHECK(err.str().find("error[E6032]") != std::string::npos);
  CHECK(err.str().find("warning: function cannot return without recursing") != std::string::npos);
}

TEST_CASE_FIXTURE(OffloadOffSession,
                  "a session keeps bindings and items, and a failed input changes nothing") {
  CHECK(s.eval("let mut n = 40;"));
  CHECK(s.eval("fn twice(v: i32) -> i32 { v * 2 }"));
  CHECK_FALSE(s.eval("n = twice(n); let bad: i64 = n;"));  // refused: n is still 40
  CHECK_FALSE(s.eval("n = 7; let z = 1 / (n - 7);"));      // runtime error: n is still 40
  CHECK(s.eval("twice(n) + 4"));
  CHECK(out.str() == "defined fn twice\n= 84 : i32\n");
  CHECK(s.names() == std::vector<std::string>{"n", "twice"});
  s.reset();
  CHECK(s.names().empty());
}

TEST_CASE_FIXTURE(OffloadOffSession,
                  "a `let` without a value is E0001 in the REPL too; the session's own are not") {
  // The wrapper declares the session's bindings without a value (session.cpp): only those.
  CHECK(s.eval("let mut g = Tensor<f32, [4]>::fill(1.5); let n = 3;"));
  CHECK_FALSE(s.eval("let x: i32;"));
  CHECK(err.str().find("error[E0001]: Vx has no `let` without a value\n --> <repl>:1:1") !=
        std::string::npos);
  CHECK(s.eval("g[1] = 2.0;"));
  CHECK(s.eval("g[1] + n as f32"));
  CHECK(out.str() == "= 5 : f32\n");
  CHECK(s.names() == std::vector<std::string>{"g", "n"});
}

TEST_CASE_FIXTURE(OffloadOffSession,
                  "tuple and struct bindings are kept between inputs and show as `{:?}` does") {
  CHECK(s.eval("let t = (1, 2.5); let (a, b) = t;"));
  CHECK(err.str().empty());
  CHECK(s.eval("t"));
  CHECK(s.eval("b + t.1"));
  CHECK(s.eval("(7u8,)"));
  CHECK(out.str() == "= (1, 2.5) : (i32, f64)\n= 5 : f64\n= (7,) : (u8,)\n");
  out.str("");
  CHECK(s.eval("struct P { x: f32, n: i32, a: [i32; 2] }"));
  CHECK(s.eval("let mut p = P { x: 1.5, n: 2, a: [3, 4] }; let q = (p, 'c', (true,));"));
  CHECK(s.eval("p.n += 40; p.a[0] = 9;"));                    // a write to the binding stays
  CHECK_FALSE(s.eval("p.n = 0; p.a[1] = 1 / (p.n - p.n);"));  // runtime error: p is as it was
  CHECK(s.eval("p"));
  CHECK(s.eval("q"));  // a copy, made before the writes
  CHECK(out.str() ==
        "defined struct P\n= P { x: 1.5, n: 42, a: [9, 4] } : P\n"
        "= (P { x: 1.5, n: 2, a: [3, 4] }, 'c', (true,)) : (P, char, (bool,))\n");
  out.str("");
  CHECK(s.show("q"));
  CHECK(out.str() == "= (P { x: 1.5, n: 2, a: [3, 4] }, 'c', (true,)) : (P, char, (bool,))\n");
  CHECK(s.names() == std::vector<std::string>{"a", "b", "t", "p", "q", "P"});
  out.str("");
  err.str("");
  CHECK(s.eval("let t = 3;"));  // shadowed by a scalar: the tuple goes
  // A struct entered again may have other fields: the bindings that hold the old one go.
  CHECK(s.eval("struct P { y: f64 }"));
  CHECK(out.str() == "redefined struct P\n");
  CHECK(err.str() ==
        "note: `p` held a `P` as it was before this input: the binding is gone\n"
        "note: `q` held a `P` as it was before this input: the binding is gone\n");
  CHECK(s.names() == std::vector<std::string>{"a", "b", "t", "P"});
  out.str("");
  CHECK(s.eval("t + a"));
  CHECK(out.str() == "= 4 : i32\n");
}

TEST_CASE_FIXTURE(OffloadOffSession,
                  "a struct holding a tensor lasts for its input only, with a note") {
  // spec/cli.md §7: its tensor is not kept as a session's copy of a struct would be.
  CHECK(s.eval("struct M { w: Tensor<f32, [2]>, k: f32 }"));
  CHECK(
      s.eval("let mut m = M { w: Tensor<f32, [2]>::fill(1.5), k: 2.0 }; m.w[1] += m.k; "
             "m.w[1]"));
  CHECK(out.str() == "defined struct M\n= 3.5 : f32\n");
  CHECK(err.str() ==
        "note: `m` is a `M`, a struct holding a tensor: the session does not keep it after "
        "this input\n");
  CHECK(s.names() == std::vector<std::string>{"M"});
  err.str("");
  CHECK_FALSE(s.eval("m.k"));  // gone: E0100, no crash
  CHECK(err.str().find("error[E0100]") != std::string::npos);
  CHECK_FALSE(s.eval("println!(\"{:?}\", M { w: Tensor<f32, [2]>::fill(0.0), k: 1.0 });"));
  CHECK(err.str().find("error[E0501]") != std::string::npos);
}

TEST_CASE_FIXTURE(OffloadOffSession,
                  "`main()` is E0101 in the REPL, and nothing points into the wrapping") {
  CHECK_FALSE(s.eval("main()"));
  CHECK(err.str().find("error[E0101]: cannot find function `main`") != std::string::npos);
  CHECK_FALSE(s.eval("fn g() { main(); }"));  // an item that calls it: the same
  CHECK(s.eval("fn main() { println!(\"ran\"); }"));
  CHECK(out.str() == "ran\n");
  CHECK_FALSE(s.eval("main()"));  // a `fn main` entered runs once: it is not kept
  CHECK(err.str().find("<session>") == std::string::npos);
  CHECK_FALSE(s.last_interrupted());
}

TEST_CASE("a tensor prints as numpy lays it out, its elements as given") {
  using vx::repl::grid_text;
  using vx::repl::row_major;
  auto number = [](int64_t at) { return std::to_string(at); };
  CHECK(grid_text(row_major({0, 3}), number, 2) == "[]");
  CHECK(grid_text(row_major({2, 2}), number, 2) == "[[0, 1],\n   [2, 3]]");
  // After six columns and the `[`, ten elements of five reach column 77 with their `, `; the
  // eleventh would end at 82, past 80 less the `,` or `]` after it: it starts the next line.
  auto wide = [](int64_t) { return std::string(5, 'x'); };
  const std::string nine = "xxxxx, xxxxx, xxxxx, xxxxx, xxxxx, xxxxx, xxxxx, xxxxx, xxxxx, ";
  CHECK(grid_text(row_major({12}), wide, 6) == "[" + nine + "xxxxx,\n       xxxxx, xxxxx]");
}

TEST_CASE("`:show`'s parts: indices drop a dimension, ranges narrow it") {
  using vx::repl::Layout;
  using vx::repl::Part;
  std::string why;
  Part part;
  REQUIRE(vx::repl::parse_part("t[1][ 2..=3 ]", part, why));
  Layout l = vx::repl::row_major({4, 6});
  REQUIRE(vx::repl::select_part(part, l, why));
  CHECK(l.dims == std::vector<int64_t>{2});
  CHECK(l.origin == 8);
  CHECK_FALSE(vx::repl::parse_part("t[1", part, why));
  CHECK_FALSE(vx::repl::parse_part("t[-1]", part, why));
  REQUIRE(vx::repl::parse_part("t[0..7]", part, why));
  l = vx::repl::row_major({4, 6});
  CHECK_FALSE(vx::repl::select_part(part, l, why));
  CHECK(why == "range 0..7 goes past the end of dimension 0 of `t`, whose size is 4");
}
