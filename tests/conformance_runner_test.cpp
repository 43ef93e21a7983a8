// The conformance runner's pieces: marker parsing, diagnostic scraping, command templates,
// judging, and whole runs over a small corpus made on the spot with shell-script implementations.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/conformance.hpp"

using namespace vx;
using namespace vx::conformance;
namespace fs = std::filesystem;

TEST_CASE("header directives are read from the leading comments only") {
  const auto e = parse_expectations(
      "// A test.\n"
      "// run-flags: --machine fleet/l4.vx\n"
      "\n"
      "// env: VX_HOST_THREADS=1 FOO=a=b\n"
      "// check-only\n"
      "fn main() {}\n"
      "// run-flags: --ignored\n");
  CHECK(e.run_flags == "--machine fleet/l4.vx");
  REQUIRE(e.env.size() == 2);
  CHECK(e.env[0] == std::pair<std::string, std::string>{"VX_HOST_THREADS", "1"});
  CHECK(e.env[1] == std::pair<std::string, std::string>{"FOO", "a=b"});
  CHECK(e.check_only);
  CHECK(e.errors.empty());
  CHECK(e.problems.empty());

  const auto plain = parse_expectations("fn main() {}\n// check-only\n");
  CHECK_FALSE(plain.check_only);
  CHECK(parse_expectations("// env: NOEQUALS\n").problems.size() == 1);
}

TEST_CASE(".uir programs use `#` for the header and the markers (spec/uir.md §8)") {
  const auto e = parse_expectations(
      "# A test.\n"
      "# check-only\n"
      "%a = const 1\n"
      "%b = add %x 1 #~ ERROR E0100\n"
      "#~^ ERROR E0200\n"
      "%c = add %a 1 //~ ERROR E0001\n",
      "#");
  CHECK(e.check_only);
  CHECK(e.problems.empty());
  CHECK(e.errors == std::vector<ExpectedDiagnostic>{{"E0100", 4}, {"E0200", 4}});
  // A `//~` marker in a .uir file is not a marker, and a `#~` marker in a .vx file is not one.
  CHECK(parse_expectations("fn main() {} #~ ERROR E0100\n").errors.empty());
}

TEST_CASE("error markers: same line, ^ for lines above, | for the previous marker's line") {
  const auto e = parse_expectations(
      "fn main() {\n"                          // 1
      "  let x: i32 = 1.5; //~ ERROR E0200\n"  // 2
      "  y = 3;\n"                             // 3
      "  //~^ ERROR E0100\n"                   // 4
      "  //~| ERROR E0300 a message\n"         // 5
      "  z();\n"                               // 6
      "\n"                                     // 7
      "//~^^ ERROR E0101\n"                    // 8
      "}\n");
  REQUIRE(e.problems.empty());
  REQUIRE(e.errors.size() == 4);
  CHECK(e.errors[0] == ExpectedDiagnostic{"E0100", 3});
  CHECK(e.errors[1] == ExpectedDiagnostic{"E0101", 6});
  CHECK(e.errors[2] == ExpectedDiagnostic{"E0200", 2});
  CHECK(e.errors[3] == ExpectedDiagnostic{"E0300", 3});
}

TEST_CASE("duplicate markers make a multiset") {
  const auto e = parse_expectations("a //~ ERROR E0200\n//~| ERROR E0200\n");
  REQUIRE(e.errors.size() == 2);
  CHECK(e.errors[0] == e.errors[1]);
}

TEST_CASE("runtime error markers") {
  const auto e =
      parse_expectations("fn main() {\n  let a = 1 / 0; //~ RUNTIME-ERROR division by zero\n}\n");
  REQUIRE(e.runtime_error_lines.size() == 1);
  CHECK(e.runtime_error_lines[0] == 2);
  CHECK(e.runtime_error_text == "division by zero");
  const auto bare = parse_expectations("x\n//~^ RUNTIME-ERROR\n");
  CHECK(bare.runtime_error_lines == std::vector<int>{1});
  CHECK(bare.runtime_error_text.empty());
}

TEST_CASE("malformed markers are corpus errors") {
  CHECK(parse_expectations("x //~ ERROR\n").problems.size() == 1);
  CHECK(parse_expectations("x //~ ERROR mismatched\n").problems.size() == 1);
  CHECK(parse_expectations("//~^ ERROR E0001\n").problems.size() == 1);
  CHECK(parse_expectations("x //~ WARN E0001\n").problems.size() == 1);
  CHECK(parse_expectations("//~| ERROR E0001\n").problems.size() == 1);
  CHECK(parse_expectations("a //~ ERROR E0001\nb //~ RUNTIME-ERROR\n").problems.size() == 1);
}

TEST_CASE("diagnostics are scraped from rustc-style stderr") {
  const std::string err =
      "error[E0200]: mismatched types\n"
      " --> conformance/types/bad.vx:3:17\n"
      "  |\n"
      "3 |   let x: i32 = 1.5;\n"
      "  |                ^^^ expected i32, found f64\n"
      "\n"
      "warning[W0001]: unused\n"
      " --> conformance/types/bad.vx:9:1\n"
      "error: a message without a code\n"
      " --> conformance/types/bad.vx:10:1\n"
      "error[E0100]: unknown name `y`\n"
      "    --> C:/odd:path/bad.vx:12:5\n"
      "error[E0004]: truncated, no location\n"
      "error[E0005]: located\n"
      "  --> bad.vx:1:1\n"
      "error: aborting due to 3 previous errors\n";
  const auto ds = scrape_diagnostics(err);
  REQUIRE(ds.size() == 3);
  CHECK(ds[0].code == "E0200");
  CHECK(ds[0].path == "conformance/types/bad.vx");
  CHECK(ds[0].line == 3);
  CHECK(ds[1].code == "E0100");
  CHECK(ds[1].path == "C:/odd:path/bad.vx");
  CHECK(ds[1].line == 12);
  CHECK(ds[2].code == "E0005");
  CHECK(ds[2].line == 1);

  const auto locs = scrape_locations(err);
  CHECK(locs.size() == 5);
  CHECK(locs[2] == std::pair<std::string, int>{"conformance/types/bad.vx", 10});
}

TEST_CASE("a printed path names the program by path or file name") {
  CHECK(same_program("conformance/a/x.vx", "conformance/a/x.vx"));
  CHECK(same_program("x.vx", "conformance/a/x.vx"));
  CHECK(same_program("/somewhere/else/x.vx", "conformance/a/x.vx"));  // does not exist: trusted
  CHECK_FALSE(same_program("conformance/a/y.vx", "conformance/a/x.vx"));
  CHECK_FALSE(same_program("ax.vx", "conformance/a/x.vx"));
}

TEST_CASE("command templates") {
  CHECK(shell_quote("conformance/a_b-c.vx") == "conformance/a_b-c.vx");
  CHECK(shell_quote("it's here.vx") == "'it'\\''s here.vx'");
  CHECK(shell_quote("") == "''");
  CHECK(substitute_template("mycc {file}", "a.vx", "", false) == "mycc a.vx");
  CHECK(substitute_template("mycc {file}", "a.vx", "--machine m.vx", false) ==
        "mycc --machine m.vx a.vx");
  CHECK(substitute_template("mycc {file} {flags}", "a b.vx", "-x", false) == "mycc 'a b.vx' -x");
  CHECK(substitute_template("mycc", "a.vx", "-x", false) == "mycc -x a.vx");
  CHECK(substitute_template("vx {mode} {flags} {file}", "a.vx", "", true) == "vx check  a.vx");
  CHECK(substitute_template("vx {mode} {flags} {file}", "a.vx", "-q", false) == "vx run -q a.vx");
}

TEST_CASE("run_command captures output, status, signals and timeouts") {
  auto r = run_command("echo out; echo err >&2; exit 3", {}, 5);
  CHECK(r.started);
  CHECK(r.out == "out\n");
  CHECK(r.err == "err\n");
  CHECK(r.exit_status == 3);
  CHECK_FALSE(r.timed_out);

  r = run_command("printf %s \"$GREETING\"", {{"GREETING", "hi there"}}, 5);
  CHECK(r.out == "hi there");

  r = run_command("cat", {}, 5);  // stdin is /dev/null: no hang
  CHECK(r.exit_status == 0);
  CHECK(r.out.empty());

  r = run_command("kill -SEGV $$", {}, 5);
  CHECK(r.signal == 11);

  r = run_command("sleep 30 & sleep 30; echo never", {}, 1);
  CHECK(r.timed_out);
  CHECK(r.duration_ms < 5000);
  CHECK(r.out.empty());

  r = run_command("head -c 3000000 /dev/zero", {}, 10);  // more than a pipe holds
  CHECK(r.out.size() == 3000000);
}

TEST_CASE("judging runs") {
  RunResult ok;
  ok.exit_status = 0;
  ok.out = "a\nb\n";
  Expectations plain;
  CHECK(judge(plain, std::string("a\nb\n"), std::nullopt, ok, "t.vx").empty());
  CHECK(judge(plain, std::string("a\nc\n"), std::nullopt, ok, "t.vx") ==
        "stdout line 2: expected `c`, got `b`");
  CHECK(judge(plain, std::string("a\nb\nc\n"), std::nullopt, ok, "t.vx") ==
        "stdout line 3: expected `c`, got end of output");
  CHECK(judge(plain, std::string("a\n"), std::nullopt, ok, "t.vx") ==
        "stdout line 2: expected end of output, got `b`");
  CHECK(judge(plain, std::string("a\nb"), std::nullopt, ok, "t.vx") ==
        "stdout: unexpected final newline");
  CHECK(judge(plain, std::string("a\nb\n"), 3, ok, "t.vx").find("exit status 0, expected 3") == 0);
  CHECK(judge(plain, std::nullopt, std::nullopt, ok, "t.vx").find("corpus error") == 0);

  Expectations refused = parse_expectations("x //~ ERROR E0200\ny\nz //~ ERROR E0100\n");
  RunResult no;
  no.exit_status = 1;
  no.err = "error[E0200]: m\n --> t.vx:1:3\nerror[E0100]: m\n --> t.vx:3:1\n";
  CHECK(judge(refused, std::nullopt, std::nullopt, no, "t.vx").empty());
  no.err = "error[E0200]: m\n --> t.vx:1:3\nerror[E0101]: m\n --> t.vx:2:1\n";
  CHECK(judge(refused, std::nullopt, std::nullopt, no, "t.vx") ==
        "missing diagnostics E0100:3; unexpected diagnostics E0101:2");
  RunResult accepted = ok;
  CHECK(judge(refused, std::nullopt, std::nullopt, accepted, "t.vx") ==
        "exit status 0, expected 1 (refused); missing diagnostics E0100:3, E0200:1");

  Expectations panics = parse_expectations("a\nb //~ RUNTIME-ERROR division by zero\n");
  RunResult died;
  died.exit_status = 101;
  died.err = "error: runtime error: division by zero (7 / 0)\n --> dir/t.vx:2:9\n";
  CHECK(judge(panics, std::nullopt, std::nullopt, died, "dir/t.vx").empty());
  died.err = "error: runtime error: division by zero (7 / 0)\n --> dir/t.vx:1:9\n";
  CHECK(judge(panics, std::nullopt, std::nullopt, died, "dir/t.vx")
            .find("does not point at line 2") != std::string::npos);
  died.err = "error: runtime error: overflow\n --> dir/t.vx:2:9\n";
  CHECK(judge(panics, std::nullopt, std::nullopt, died, "dir/t.vx") ==
        "stderr lacks `division by zero`");
  RunResult crashed;
  crashed.signal = 6;
  CHECK(judge(panics, std::nullopt, std::nullopt, crashed, "dir/t.vx").find("killed by signal 6") ==
        0);
}

namespace {

struct Corpus {
  fs::path dir;
  Corpus() {
    dir = fs::temp_directory_path() / ("vx_conformance_test_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "sub");
  }
  ~Corpus() { fs::remove_all(dir); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name, std::ios::binary) << text;
  }
};

}  // namespace

TEST_CASE("whole runs against shell-script implementations") {
  Corpus c;
  // The "programs" tell the fake implementation what to do in their first line; the
  // expectations are written as a real corpus would.
  c.write("a_prints.vx", "// env: WORD=hello\nprint\n");
  c.write("a_prints.stdout", "hello\n");
  c.write("b_refused.vx", "refuse\nlet x = 1; //~ ERROR E0200\n");
  c.write("sub/c_panics.vx", "panic\nx //~ RUNTIME-ERROR boom\n");
  c.write("sub/d_exit.vx", "exit7\n");
  c.write("sub/d_exit.stdout", "");
  c.write("sub/d_exit.exitcode", "7\n");
  c.write("e_flags.vx", "// run-flags: --shout\nflags\n");
  c.write("e_flags.stdout", "--shout\n");
  c.write("notes.txt", "not a program");
  c.write(
      "impl.sh",
      "#!/bin/sh\n"
      "# A correct implementation of the tiny language above.\n"
      "flags=''\n"
      "while [ $# -gt 1 ]; do flags=\"$flags$1\"; shift; done\n"
      "f=\"$1\"\n"
      "case \"$(grep -v '^//' \"$f\" | head -n 1)\" in\n"
      "  print) echo \"$WORD\" ;;\n"
      "  refuse) printf 'error[E0200]: mismatched types\\n --> %s:2:9\\n' \"$f\" >&2; exit 1 ;;\n"
      "  panic) printf 'error: runtime error: boom\\n --> %s:2:1\\n' \"$f\" >&2; exit 101 ;;\n"
      "  exit7) exit 7 ;;\n"
      "  *) echo \"$flags\" ;;\n"
      "esac\n");
  const std::string impl = "sh " + shell_quote((c.dir / "impl.sh").string()) + " {file}";

  ConformanceOptions o;
  o.dirs = {c.dir.string()};
  o.impl_template = impl;
  std::ostringstream out, err;
  CHECK(run_conformance(o, out, err) == 0);
  CHECK(out.str() == "5 passed, 0 failed\n");

  // A wrong implementation: every answer a little off.
  c.write("wrong.sh",
          "#!/bin/sh\n"
          "sh \"$(dirname \"$0\")/impl.sh\" \"$@\" 2>/dev/null | tr 'l' 'L'\n"
          "exit 0\n");
  o.impl_template = "sh " + shell_quote((c.dir / "wrong.sh").string()) + " {flags} {file}";
  o.verbose = true;
  std::ostringstream out2, err2;
  CHECK(run_conformance(o, out2, err2) == 1);
  const std::string text = out2.str();
  CHECK(text.find("FAIL " + (c.dir / "a_prints.vx").string() +
                  ": stdout line 1: expected `hello`, got `heLLo`") != std::string::npos);
  CHECK(text.find("exit status 0, expected 1 (refused); missing diagnostics E0200:2") !=
        std::string::npos);
  CHECK(text.find("exit status 0, expected 101 (runtime error)") != std::string::npos);
  CHECK(text.find("exit status 0, expected 7") != std::string::npos);
  CHECK(text.find("PASS " + (c.dir / "e_flags.vx").string()) != std::string::npos);
  CHECK(text.substr(text.rfind('\n', text.size() - 2) + 1) == "1 passed, 4 failed\n");

  // JSON and JUnit: the summary moves to stderr, the document is the whole of stdout.
  o.verbose = false;
  o.format = "json";
  o.output_file = (c.dir / "report.xml").string();
  std::ostringstream out3, err3;
  CHECK(run_conformance(o, out3, err3) == 1);
  CHECK(out3.str().find("\"passed\": 1") != std::string::npos);
  CHECK(out3.str().find("\"status\": \"fail\"") != std::string::npos);
  CHECK(err3.str() == "1 passed, 4 failed\n");
  std::ifstream report(c.dir / "report.xml");
  std::stringstream xml;
  xml << report.rdbuf();
  CHECK(xml.str().find("\"passed\": 1") != std::string::npos);  // json: format wins

  o.format = "junit";
  std::ostringstream out4, err4;
  CHECK(run_conformance(o, out4, err4) == 1);
  CHECK(out4.str().find("<?xml") == 0);
  CHECK(out4.str().find("tests=\"5\" failures=\"4\"") != std::string::npos);
  CHECK(out4.str().find("<failure message=\"stdout line 1: expected `hello`, got `heLLo`\"") !=
        std::string::npos);

  // Corpus errors and timeouts are failures too.
  c.write("f_orphan.vx", "print\n");
  c.write("g_slow.vx", "slow\n");
  c.write("g_slow.stdout", "");
  c.write("slow.sh", "#!/bin/sh\nsleep 20\n");
  ConformanceOptions t;
  t.dirs = {(c.dir / "f_orphan.vx").string(), (c.dir / "g_slow.vx").string()};
  t.impl_template = "sh " + shell_quote((c.dir / "slow.sh").string()) + " {file}";
  t.timeout_seconds = 1;
  std::ostringstream out5, err5;
  CHECK(run_conformance(t, out5, err5) == 1);
  CHECK(out5.str().find("corpus error: no .stdout file and no //~ markers") != std::string::npos);
  CHECK(out5.str().find("timed out after 1 s") != std::string::npos);
  CHECK(out5.str().find("0 passed, 2 failed\n") != std::string::npos);
}

TEST_CASE("usage errors") {
  std::ostringstream out, err;
  ConformanceOptions o;
  CHECK(run_conformance(o, out, err) == 2);
  o.dirs = {"/nonexistent/vx/corpus"};
  CHECK(run_conformance(o, out, err) == 2);
  CHECK(err.str().find("is not a directory") != std::string::npos);
  o.format = "yaml";
  CHECK(run_conformance(o, out, err) == 2);
}
