// The conformance runner's pieces: marker parsing, diagnostic scraping, command templates,
// judging, and whole runs over a small corpus made on the spot with shell-script implementations.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/conformance.hpp"

using namespace vx;
using namespace vx::conformance;
namespace fs = std::filesystem;

namespace {

// The words of a test's own shell snippets (the runner itself runs no shell).
std::vector<std::string> sh(const std::string& script) { return {"/bin/sh", "-c", script}; }

// A path as one word of an --impl template (single-quoted, as a user would type it).
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::vector<std::string> words(std::string_view text, bool operators = false) {
  std::vector<std::string> out;
  const std::string why = split_words(text, out, operators);
  REQUIRE_MESSAGE(why.empty(), why);
  return out;
}

std::string split_error(std::string_view text, bool operators) {
  std::vector<std::string> out;
  return split_words(text, out, operators);
}

using Words = std::vector<std::string>;

}  // namespace

TEST_CASE("header directives are read from the leading comments only") {
  const auto e = parse_expectations(
      "// A test.\n"
      "// run-flags: --machine fleet/l4.vx\n"
      "\n"
      "// env: VX_HOST_THREADS=1 VX_FOO=a=b\n"
      "// check-only\n"
      "fn main() {}\n"
      "// run-flags: --ignored\n");
  CHECK(e.run_flags == "--machine fleet/l4.vx");
  CHECK(e.run_flag_words == Words{"--machine", "fleet/l4.vx"});
  REQUIRE(e.env.size() == 2);
  CHECK(e.env[0] == std::pair<std::string, std::string>{"VX_HOST_THREADS", "1"});
  CHECK(e.env[1] == std::pair<std::string, std::string>{"VX_FOO", "a=b"});
  CHECK(e.check_only);
  CHECK(e.errors.empty());
  CHECK(e.problems.empty());

  const auto plain = parse_expectations("fn main() {}\n// check-only\n");
  CHECK_FALSE(plain.check_only);
  CHECK(parse_expectations("// env: NOEQUALS\n").problems.size() == 1);

  // A byte order mark before the first line is not part of it (spec/grammar.md §1); elsewhere
  // it is text, and a header line that starts with one is not a comment.
  const auto bom = parse_expectations(
      "\xEF\xBB\xBF// spec: grammar.md §1\n// check-only\n"
      "fn main() { x } //~ ERROR E0100\n");
  CHECK(bom.spec == "grammar.md §1");
  CHECK(bom.check_only);
  REQUIRE(bom.errors.size() == 1);
  CHECK(bom.errors[0].line == 3);
  CHECK_FALSE(parse_expectations("// spec: a\n\xEF\xBB\xBF// check-only\n").check_only);
}

TEST_CASE("a test's environment may set only VX_ names that load no code") {
  for (const char* bad :
       {"LD_PRELOAD=/tmp/x.so", "PATH=.", "BASH_ENV=x", "IFS=x", "ENV=x",
        "VX_CUDA_DRIVER=./evil.so", "VX_CACHE_DIR=.", "VX_=1", "vx_a=1", "VX_A-B=1"}) {
    const auto e = parse_expectations(std::string("// env: ") + bad + "\n");
    CHECK_MESSAGE(e.problems.size() == 1, bad);
    CHECK(e.env.empty());
  }
  CHECK(env_name_allowed("VX_HOST_THREADS"));
  CHECK_FALSE(env_name_allowed("LD_LIBRARY_PATH"));
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
  REQUIRE(e.error_texts.size() == 1);
  CHECK(e.error_texts[0].at == ExpectedDiagnostic{"E0300", 3});
  CHECK(e.error_texts[0].text == "a message");
}

TEST_CASE("duplicate markers are one (code, line) pair, and so are duplicate diagnostics") {
  const auto e = parse_expectations("a //~ ERROR E0200\n//~| ERROR E0200\n");
  REQUIRE(e.errors.size() == 2);
  CHECK(e.errors[0] == e.errors[1]);
  RunResult refused;
  refused.started = true;
  refused.exit_status = 1;
  refused.err = "error[E0200]: a\n --> t.vx:1:1\n";
  CHECK(judge(e, std::nullopt, std::nullopt, refused, "t.vx").empty());
  refused.err += "error[E0200]: b\n --> t.vx:1:5\n";
  CHECK(judge(e, std::nullopt, std::nullopt, refused, "t.vx").empty());
  const auto once = parse_expectations("a //~ ERROR E0200\n");
  CHECK(judge(once, std::nullopt, std::nullopt, refused, "t.vx").empty());
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

TEST_CASE("warning markers: the line and the text of the message") {
  const auto e = parse_expectations(
      "let x = 1; //~ WARNING unused variable: `x`\nf();\n//~^ WARN unused return value\n");
  REQUIRE(e.warnings.size() == 2);
  CHECK(e.warnings[0].at.line == 1);
  CHECK(e.warnings[0].text == "unused variable: `x`");
  CHECK(e.warnings[1].at.line == 2);
  CHECK(e.warnings[1].text == "unused return value");
  CHECK(e.problems.empty());
  CHECK(e.errors.empty());
}

TEST_CASE("warnings are scraped with their location, the summary line is not one") {
  const std::string err =
      "warning: unused variable: `x`\n"
      " --> t.vx:2:9\n"
      "  |\n"
      "2 |     let x = 1;\n"
      "  |         ^ if this is intentional, name it `_x`\n"
      "error[E0200]: mismatched types\n"
      " --> t.vx:3:1\n"
      "warning: 1 warning emitted\n"
      "error: runtime error: boom\n"
      " --> t.vx:4:1\n";
  const auto ws = scrape_warnings(err);
  REQUIRE(ws.size() == 1);
  CHECK(ws[0].code.empty());
  CHECK(ws[0].message == "unused variable: `x`");
  CHECK(ws[0].line == 2);
  REQUIRE(scrape_diagnostics(err).size() == 1);  // the errors alone
}

TEST_CASE("malformed markers are corpus errors") {
  CHECK(parse_expectations("x //~ ERROR\n").problems.size() == 1);
  CHECK(parse_expectations("x //~ ERROR mismatched\n").problems.size() == 1);
  CHECK(parse_expectations("//~^ ERROR E0001\n").problems.size() == 1);
  CHECK(parse_expectations("x //~ WARNING\n").problems.size() == 1);  // a warning needs its text
  CHECK(parse_expectations("x //~ NOTE E0001\n").problems.size() == 1);
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
  CHECK(ds[1].message == "unknown name `y`");
  CHECK(ds[1].path == "C:/odd:path/bad.vx");
  CHECK(ds[1].line == 12);
  CHECK(ds[2].code == "E0005");
  CHECK(ds[2].line == 1);

  const auto locs = scrape_locations(err);
  CHECK(locs.size() == 5);
  CHECK(locs[2] == std::pair<std::string, int>{"conformance/types/bad.vx", 10});
}

TEST_CASE("--impl-format=json reads vx's JSON diagnostics (spec/cli.md §5)") {
  const std::string err =
      R"({"level":"error","code":"E0200","message":"mismatched types","spans":[)"
      R"({"file":"t.vx","line_start":9,"is_primary":false},)"
      R"({"file":"t.vx","byte_start":40,"byte_end":41,"line_start":3,"column_start":18,)"
      R"("line_end":3,"column_end":19,"is_primary":true,"label":"x"}],"notes":[],"helps":[],)"
      R"("rendered":"error[E0200]: mismatched types"})"
      "\n"
      R"({"level":"warning","code":null,"message":"unused variable: `i`","spans":[)"
      R"({"file":"t.vx","line_start":4,"is_primary":true}]})"
      "\n"
      R"({"level":"error","code":null,"message":"runtime error: divide by zero","spans":[)"
      R"({"file":"t.vx","line_start":7,"is_primary":true}],"rendered":"error: runtime error"})"
      "\n"
      "not json: a program's own line\n"
      R"({"level":"error","code":null,"message":"cannot read","spans":[]})"
      "\n"
      R"({"level":"error","code":"E0100","message":7})"  // not the schema: skipped
      "\n"
      R"({"level":"error","code":"E0101","message":"m","spans":[{"file":1,"line_start":"x"}]})"
      "\n[1, 2]\n{\"unclosed\": \n";
  const Reported r = read_reported(err, DiagnosticFormat::Json);
  CHECK(r.json_objects == 5);
  REQUIRE(r.errors.size() == 1);  // E0101 has no line: not at a place in the program
  CHECK(r.errors[0].code == "E0200");
  CHECK(r.errors[0].path == "t.vx");
  CHECK(r.errors[0].line == 3);  // the primary span, not the first
  CHECK(r.errors[0].message == "mismatched types");
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0].line == 4);
  CHECK(r.warnings[0].message == "unused variable: `i`");
  CHECK(r.locations == std::vector<std::pair<std::string, int>>{{"t.vx", 7}});
  CHECK(r.text.find("runtime error: divide by zero") != std::string::npos);
  // The human reader finds none of it, and the JSON reader nothing in human text.
  CHECK(read_reported(err, DiagnosticFormat::Human).errors.empty());
  const Reported none =
      read_reported("error[E0200]: mismatched types\n --> t.vx:3:1\n", DiagnosticFormat::Json);
  CHECK(none.errors.empty());
  CHECK(none.json_objects == 0);

  // Judged in JSON: refusals, warnings and runtime errors as in the human form.
  RunResult refused;
  refused.exit_status = 1;
  refused.err = err;
  const auto e = parse_expectations("\n\nlet x: i32 = 1.5; //~ ERROR E0200\n");
  CHECK(judge(e, std::nullopt, std::nullopt, refused, "dir/t.vx", DiagnosticFormat::Json) == "");
  CHECK(judge(e, std::nullopt, std::nullopt, refused, "dir/t.vx")
            .find("missing diagnostics E0200:3 (stderr holds JSON diagnostics") == 0);
  RunResult human = refused;
  human.err = "error[E0200]: mismatched types\n --> t.vx:3:1\n";
  CHECK(judge(e, std::nullopt, std::nullopt, human, "dir/t.vx", DiagnosticFormat::Json) ==
        "missing diagnostics E0200:3 (stderr holds human diagnostics; --impl-format=json reads "
        "one JSON object a line)");
  RunResult panicked;
  panicked.exit_status = 101;
  panicked.err = err;
  const auto p = parse_expectations(
      "\n\n\nlet i = 0; //~ WARNING unused variable\n\n\nx / 0; //~ RUNTIME-ERROR divide by "
      "zero\n");
  CHECK(judge(p, std::nullopt, std::nullopt, panicked, "dir/t.vx", DiagnosticFormat::Json) == "");
  panicked.err = "";
  CHECK(judge(p, std::nullopt, std::nullopt, panicked, "dir/t.vx", DiagnosticFormat::Json) ==
        "missing warning `unused variable` at line 4; stderr has no JSON error without a code "
        "whose primary span is at line 7; stderr lacks `divide by zero`");
}

TEST_CASE("a printed path names the program by path or file name") {
  CHECK(same_program("conformance/a/x.vx", "conformance/a/x.vx"));
  CHECK(same_program("x.vx", "conformance/a/x.vx"));
  CHECK(same_program("/somewhere/else/x.vx", "conformance/a/x.vx"));  // does not exist: trusted
  CHECK_FALSE(same_program("conformance/a/y.vx", "conformance/a/x.vx"));
  CHECK_FALSE(same_program("ax.vx", "conformance/a/x.vx"));
}

TEST_CASE("templates are split into words like a shell, with nothing expanded") {
  CHECK(words("mycc {file}") == Words{"mycc", "{file}"});
  CHECK(words("  a\tb\n c  ") == Words{"a", "b", "c"});
  CHECK(words("'it''s' \"a b\" c\\ d") == Words{"its", "a b", "c d"});
  CHECK(words("'$HOME `x` \\n'") == Words{"$HOME `x` \\n"});
  CHECK(words("\"\\\" \\$ \\x\"") == Words{"\" $ \\x"});  // only \" \\ \$ \` \n lose the \\ in "…"
  CHECK(words("''") == Words{""});
  CHECK(words("a'b'\"c\"d") == Words{"abcd"});
  CHECK(words("").empty());
  CHECK(split_error("'open", false) == "a `'` is not closed");
  CHECK(split_error("\"open", false) == "a `\"` is not closed");
  CHECK(split_error("end\\", false) == "a `\\` ends the text");
  // In a template the user typed, an operator outside quotes is an error: no shell runs it.
  for (const char* op :
       {"a | b", "a; b", "a && b", "a > f", "a < f", "$(x)", "`x`", "$HOME", "(a)"})
    CHECK_MESSAGE(split_error(op, true).find("is not quoted") != std::string::npos, op);
  CHECK(words("a '|' \";\" \\&", true) == Words{"a", "|", ";", "&"});
  // In a test's run flags they are ordinary characters.
  CHECK(words("; touch X $(y) `z` | w", false) ==
        Words{";", "touch", "X", "$(y)", "`z`", "|", "w"});
}

TEST_CASE("command templates become argument vectors") {
  CHECK(command_words({"mycc", "{file}"}, "a.vx", {}, false) == Words{"mycc", "a.vx"});
  CHECK(command_words({"mycc", "{file}"}, "a.vx", {"--machine", "m.vx"}, false) ==
        Words{"mycc", "--machine", "m.vx", "a.vx"});
  CHECK(command_words({"mycc", "{file}", "{flags}"}, "a b.vx", {"-x"}, false) ==
        Words{"mycc", "a b.vx", "-x"});
  CHECK(command_words({"mycc"}, "a.vx", {"-x"}, false) == Words{"mycc", "-x", "a.vx"});
  CHECK(command_words({"vx", "{mode}", "{flags}", "{file}"}, "a.vx", {}, true) ==
        Words{"vx", "check", "a.vx"});
  CHECK(command_words({"vx", "{mode}", "{flags}", "{file}"}, "a.vx", {"-q"}, false) ==
        Words{"vx", "run", "-q", "a.vx"});
  CHECK(command_words({"cc", "--in={file}", "--{mode}"}, "x.vx", {}, false) ==
        Words{"cc", "--in=x.vx", "--run"});
  // A path that itself holds a placeholder is not substituted again, nor quoted.
  CHECK(command_words({"cc", "{file}"}, "it's {mode} $(x).vx", {}, false) ==
        Words{"cc", "it's {mode} $(x).vx"});
}

TEST_CASE("run_command captures output, status, signals and timeouts") {
  auto r = run_command(sh("echo out; echo err >&2; exit 3"), {}, 5);
  CHECK(r.started);
  CHECK(r.out == "out\n");
  CHECK(r.err == "err\n");
  CHECK(r.exit_status == 3);
  CHECK_FALSE(r.timed_out);

  r = run_command(sh("printf %s \"$GREETING\""), {{"GREETING", "hi there"}}, 5);
  CHECK(r.out == "hi there");

  // The words reach the program as they are: no shell splits or expands them.
  r = run_command({"printf", "[%s]", "a b", "$(echo x)", "`y`", ";", "*"}, {}, 5);
  CHECK(r.out == "[a b][$(echo x)][`y`][;][*]");

  r = run_command({"cat"}, {}, 5);  // stdin is /dev/null: no hang
  CHECK(r.exit_status == 0);
  CHECK(r.out.empty());

  r = run_command(sh("kill -SEGV $$"), {}, 5);
  CHECK(r.signal == 11);

  r = run_command({"/nonexistent/vx-impl"}, {}, 5);
  CHECK_FALSE(r.started);
  CHECK(r.err == "cannot run `/nonexistent/vx-impl`: No such file or directory");
  r = run_command({"no-such-vx-implementation-here"}, {}, 5);
  CHECK_FALSE(r.started);
  CHECK(r.err == "cannot run `no-such-vx-implementation-here`: not found in PATH");
  r = run_command({"/"}, {}, 5);
  CHECK(r.err == "cannot run `/`: it is a directory");

  // A file that is there but cannot be executed: no permission, a `#!` naming nothing, not a
  // program at all.
  const fs::path dir = fs::temp_directory_path() / ("vx_run_command_" + std::to_string(getpid()));
  fs::create_directories(dir);
  auto script = [&](const char* name, const char* text, fs::perms perms) {
    std::ofstream(dir / name) << text;
    fs::permissions(dir / name, perms);
    return (dir / name).string();
  };
  const std::string no_x = script("no_x.sh", "#!/bin/sh\necho hi\n", fs::perms::owner_read);
  r = run_command({no_x}, {}, 5);
  CHECK_FALSE(r.started);
  CHECK(r.err == "cannot run `" + no_x + "`: Permission denied");
  std::string found;
  CHECK(find_program(no_x, found) == "Permission denied");
  CHECK(found.empty());
  const std::string bad_interpreter =
      script("bad.sh", "#!/nonexistent/shell\necho hi\n", fs::perms::owner_all);
  CHECK(find_program(bad_interpreter, found).empty());  // a file it can execute, so it says
  CHECK(found == bad_interpreter);
  r = run_command({bad_interpreter}, {}, 5);
  CHECK_FALSE(r.started);
  CHECK(r.err == "cannot run `" + bad_interpreter +
                     "`: No such file or directory (the interpreter its `#!` line names?)");
  const std::string garbage = script("garbage", "\x7f\x01\x02 not a program", fs::perms::owner_all);
  r = run_command({garbage}, {}, 5);
  CHECK_FALSE(r.started);
  CHECK(r.err == "cannot run `" + garbage + "`: Exec format error");
  CHECK(find_program("sh", found).empty());
  CHECK(found.ends_with("/sh"));
  fs::remove_all(dir);

  r = run_command(sh("sleep 30 & sleep 30; echo never"), {}, 1);
  CHECK(r.timed_out);
  CHECK(r.duration_ms < 5000);
  CHECK(r.out.empty());

  r = run_command({"head", "-c", "3000000", "/dev/zero"}, {}, 10);  // more than a pipe holds
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
  // Text after the code must be in that diagnostic's message.
  Expectations worded = parse_expectations("x //~ ERROR E0200 mismatched types\n");
  no.err = "error[E0200]: mismatched types: expected `i32`\n --> t.vx:1:3\n";
  CHECK(judge(worded, std::nullopt, std::nullopt, no, "t.vx").empty());
  no.err = "error[E0200]: wrong kind\n --> t.vx:1:3\nerror[E0200]: other\n --> t.vx:1:9\n";
  CHECK(judge(worded, std::nullopt, std::nullopt, no, "t.vx") ==
        "E0200:1: expected `mismatched types` in the message, got `wrong kind`, `other`");
  no.err = "error[E0200]: mismatched types\n --> elsewhere.vx:1:3\n";
  CHECK(judge(worded, std::nullopt, std::nullopt, no, "t.vx") ==
        "missing diagnostics E0200:1; diagnostics in other files: E0200 at elsewhere.vx:1");
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
  // A file with warning markers expects exactly its marked warnings; one without any, whatever.
  Expectations warns = parse_expectations("a //~ WARNING unused variable\nb\n");
  RunResult warned = ok;
  warned.err = "warning: unused variable: `a`\n --> t.vx:1:5\n";
  CHECK(judge(warns, std::string("a\nb\n"), std::nullopt, warned, "t.vx").empty());
  CHECK(judge(plain, std::string("a\nb\n"), std::nullopt, warned, "t.vx").empty());
  warned.err += "warning: unused comparison\n --> t.vx:2:1\n";
  CHECK(judge(warns, std::string("a\nb\n"), std::nullopt, warned, "t.vx") ==
        "unexpected warning at line 2: `unused comparison`");
  warned.err = "warning: unreachable statement\n --> t.vx:1:5\n";
  CHECK(judge(warns, std::string("a\nb\n"), std::nullopt, warned, "t.vx") ==
        "missing warning `unused variable` at line 1, got `unreachable statement`; unexpected "
        "warning at line 1: `unreachable statement`");
  warned.err = "warning: unused variable: `a`\n --> other.vx:1:5\n";
  CHECK(judge(warns, std::string("a\nb\n"), std::nullopt, warned, "t.vx") ==
        "missing warning `unused variable` at line 1");
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
  c.write("a_prints.vx", "// env: VX_WORD=hello\nprint\n");
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
      "  print) echo \"$VX_WORD\" ;;\n"
      "  refuse) printf 'error[E0200]: mismatched types\\n --> %s:2:9\\n' \"$f\" >&2; exit 1 ;;\n"
      "  panic) printf 'error: runtime error: boom\\n --> %s:2:1\\n' \"$f\" >&2; exit 101 ;;\n"
      "  exit7) exit 7 ;;\n"
      "  *) echo \"$flags\" ;;\n"
      "esac\n");
  const std::string impl = "sh " + quoted((c.dir / "impl.sh").string()) + " {file}";

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
  o.impl_template = "sh " + quoted((c.dir / "wrong.sh").string()) + " {flags} {file}";
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
  CHECK(xml.str().find("<?xml") == 0);  // the file's name picks its format (spec/cli.md §6.4)
  CHECK(xml.str().find("tests=\"5\" failures=\"4\"") != std::string::npos);

  o.format = "junit";
  o.output_file = (c.dir / "report.json").string();
  std::ostringstream out4, err4;
  CHECK(run_conformance(o, out4, err4) == 1);
  std::ifstream report_json(c.dir / "report.json");
  std::stringstream json;
  json << report_json.rdbuf();
  CHECK(json.str().find("\"passed\": 1") != std::string::npos);
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
  t.impl_template = "sh " + quoted((c.dir / "slow.sh").string()) + " {file}";
  t.timeout_seconds = 1;
  std::ostringstream out5, err5;
  CHECK(run_conformance(t, out5, err5) == 1);
  CHECK(out5.str().find("corpus error: no .stdout file and no //~ markers") != std::string::npos);
  CHECK(out5.str().find("timed out after 1 s") != std::string::npos);
  CHECK(out5.str().find("0 passed, 2 failed\n") != std::string::npos);
}

TEST_CASE("--filter, --exclude and --xfail choose and excuse programs") {
  Corpus c;
  // An implementation that prints the program's first line: `right` passes, `wrong` fails.
  for (const char* name : {"a_right", "b_wrong", "sub/c_right", "sub/d_wrong"}) {
    const bool right = std::string(name).find("right") != std::string::npos;
    c.write(std::string(name) + ".vx", right ? "same\n" : "other\n");
    c.write(std::string(name) + ".stdout", "same\n");
  }
  c.write("impl.sh", "#!/bin/sh\nhead -n 1 \"$1\"\n");
  ConformanceOptions o;
  o.dirs = {c.dir.string()};
  o.impl_template = "sh " + quoted((c.dir / "impl.sh").string()) + " {file}";
  auto run = [&](std::string& text) {
    std::ostringstream out, err;
    const int status = run_conformance(o, out, err);
    text = out.str() + err.str();
    return status;
  };
  std::string text;
  o.filters = {"*/sub/*"};
  CHECK(run(text) == 1);
  CHECK(text.find("FAIL " + (c.dir / "sub/d_wrong.vx").string()) != std::string::npos);
  CHECK(text.find("b_wrong") == std::string::npos);
  CHECK(text.substr(text.rfind('\n', text.size() - 2) + 1) == "1 passed, 1 failed\n");
  o.excludes = {"*wrong*"};
  CHECK(run(text) == 0);
  CHECK(text == "1 passed, 0 failed\n");
  o.filters = {"*/nothing/*"};
  CHECK(run(text) == 2);
  CHECK(text.find("(after --filter/--exclude)") != std::string::npos);

  // The two wrong ones listed: they fail as expected; a right one listed is an XPASS, a failure.
  o.filters.clear();
  o.excludes.clear();
  c.write("xfail.txt",
          "# known failures\n*/b_wrong.vx\n\n" + (c.dir / "sub/d_wrong.vx").string() + "\n");
  o.xfail_file = (c.dir / "xfail.txt").string();
  CHECK(run(text) == 0);
  CHECK(text == "2 passed, 0 failed, 2 expected failures\n");
  o.verbose = true;
  CHECK(run(text) == 0);
  CHECK(text.find("XFAIL " + (c.dir / "b_wrong.vx").string() +
                  ": stdout line 1: expected `same`, got `other`") != std::string::npos);
  o.verbose = false;
  c.write("xfail.txt", "*wrong*\n*/a_right.vx\n");
  CHECK(run(text) == 1);
  CHECK(text.find("XPASS " + (c.dir / "a_right.vx").string() + ": passed, but listed in `" +
                  o.xfail_file + "`") != std::string::npos);
  CHECK(text.substr(text.rfind('\n', text.size() - 2) + 1) ==
        "1 passed, 1 failed, 2 expected failures\n");
  o.format = "json";
  CHECK(run(text) == 1);
  CHECK(text.find("\"status\": \"xpass\"") != std::string::npos);
  CHECK(text.find("\"status\": \"xfail\"") != std::string::npos);
  CHECK(text.find("\"xfailed\": 2") != std::string::npos);
  o.format = "junit";
  CHECK(run(text) == 1);
  CHECK(text.find("tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"2\"") != std::string::npos);
  CHECK(text.find("<skipped message=\"expected failure: stdout line 1") != std::string::npos);
  CHECK(text.find("type=\"xpass\"") != std::string::npos);
  o.format = "text";
  o.xfail_file = (c.dir / "missing.txt").string();
  CHECK(run(text) == 2);
  CHECK(text.find("cannot read the --xfail file") != std::string::npos);
}

TEST_CASE("reports say what happened: diffs, crashes, diagnostics elsewhere, output left open") {
  Corpus c;
  c.write("a_diff.vx", "diff\n");
  c.write("a_diff.stdout", "1\n2\n3\n4\n5\n6\n7\n8\n");
  c.write("b_crash.vx", "crash\n");
  c.write("b_crash.stdout", "");
  c.write("c_on_stdout.vx", "stdout\nlet x = 1; //~ ERROR E0200\n");
  c.write("d_as_json.vx", "json\nlet x = 1; //~ ERROR E0200\n");
  c.write("e_left_open.vx", "open\n");
  c.write("e_left_open.stdout", "started\n");
  c.write("f_spec.vx", "// spec: memory.md §1\nok\n");
  c.write("f_spec.stdout", "fine\n");
  c.write("impl.sh",
          "#!/bin/sh\n"
          "f=\"$1\"\n"
          "case \"$(grep -v '^//' \"$f\" | head -n 1)\" in\n"
          "  diff) printf '1\\n2\\n3\\nfour\\n5\\n6\\n7\\n8\\n' ;;\n"
          "  crash) kill -SEGV $$ ;;\n"
          "  stdout) printf 'error[E0200]: mismatched types\\n --> %s:2:9\\n' \"$f\"; exit 1 ;;\n"
          "  json) echo '{\"code\":\"E0200\",\"level\":\"error\"}' >&2; exit 1 ;;\n"
          "  open) echo started; sleep 30 & exit 0 ;;\n"
          "  ok) echo fine ;;\n"
          "esac\n");
  ConformanceOptions o;
  o.dirs = {c.dir.string()};
  o.impl_template = "sh " + quoted((c.dir / "impl.sh").string()) + " {file}";
  o.timeout_seconds = 20;
  o.jobs = 6;
  std::ostringstream out, err;
  CHECK(run_conformance(o, out, err) == 1);
  const std::string text = out.str();
  // The whole output's difference as a unified diff, three lines of context around it.
  CHECK(text.find("stdout line 4: expected `4`, got `four`\n"
                  "    --- expected\n    +++ actual\n    @@ -1,7 +1,7 @@\n     1\n     2\n     3\n"
                  "    -4\n    +four\n     5\n     6\n     7\n") != std::string::npos);
  CHECK(text.find("killed by signal 11") != std::string::npos);
  CHECK(text.find("missing diagnostics E0200:2 (the implementation printed diagnostics on "
                  "stdout; the runner reads stderr)") != std::string::npos);
  CHECK(text.find("missing diagnostics E0200:2 (stderr holds JSON diagnostics") !=
        std::string::npos);
  CHECK(text.find("exited with status 0, but a process it started still held its stdout or "
                  "stderr open 2 s later") != std::string::npos);
  CHECK(text.find("timed out") == std::string::npos);
  CHECK(text.find("1 passed, 5 failed\n") != std::string::npos);

  o.format = "json";
  std::ostringstream jout, jerr;
  CHECK(run_conformance(o, jout, jerr) == 1);
  const std::string json = jout.str();
  CHECK(json.find("\"failure\": \"crash\"") != std::string::npos);
  CHECK(json.find("\"signal\": 11") != std::string::npos);
  CHECK(json.find("\"failure\": \"mismatch\"") != std::string::npos);
  CHECK(json.find("\"expected_stdout\": \"1\\n2\\n3\\n4\\n5\\n6\\n7\\n8\\n\"") !=
        std::string::npos);
  CHECK(json.find("\"stdout\": \"1\\n2\\n3\\nfour\\n5\\n6\\n7\\n8\\n\"") != std::string::npos);
  CHECK(json.find("\"expected_diagnostics\": [\n        \"E0200:2\"\n      ]") !=
        std::string::npos);
  CHECK(json.find("\"spec\": \"memory.md §1\"") != std::string::npos);
  CHECK(json.find("\"exit_status\": 1") != std::string::npos);

  o.format = "junit";
  std::ostringstream xout, xerr;
  CHECK(run_conformance(o, xout, xerr) == 1);
  const std::string xml = xout.str();
  CHECK(xml.find("tests=\"6\" failures=\"4\" errors=\"1\" skipped=\"0\"") != std::string::npos);
  CHECK(xml.find("<error message=\"killed by signal 11, expected 0\" type=\"crash\">") !=
        std::string::npos);
  CHECK(xml.find("type=\"mismatch\"") != std::string::npos);
  CHECK(xml.find("<system-out>1&#10;2&#10;3&#10;four") != std::string::npos);
}

TEST_CASE("--bless writes the output of this vx into NAME.stdout") {
  Corpus c;
  c.write("a_new.vx", "hello\n");  // no .stdout yet
  c.write("b_stale.vx", "world\n");
  c.write("b_stale.stdout", "old\n");
  c.write("c_same.vx", "same\n");
  c.write("c_same.stdout", "same\n");
  c.write("d_refused.vx", "x //~ ERROR E0200\n");  // not an output test: left alone
  c.write("vx.sh", "#!/bin/sh\n[ \"$1\" = run ] || exit 9\nhead -n 1 \"$2\"\n");
  fs::permissions(c.dir / "vx.sh", fs::perms::owner_all);
  ConformanceOptions o;
  o.dirs = {c.dir.string()};
  o.self_exe = (c.dir / "vx.sh").string();
  o.bless = true;
  std::ostringstream out, err;
  CHECK(run_conformance(o, out, err) == 1);  // d_refused still fails
  const std::string text = out.str();
  CHECK(text.find("BLESSED " + (c.dir / "a_new.stdout").string() + "\n") != std::string::npos);
  CHECK(text.find("BLESSED " + (c.dir / "b_stale.stdout").string() + "\n") != std::string::npos);
  CHECK(text.find("c_same") == std::string::npos);
  CHECK(text.find("FAIL " + (c.dir / "d_refused.vx").string()) != std::string::npos);
  CHECK(text.find("3 passed, 1 failed") != std::string::npos);
  auto read = [&](const char* name) {
    std::ifstream f(c.dir / name);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  };
  CHECK(read("a_new.stdout") == "hello\n");
  CHECK(read("b_stale.stdout") == "world\n");
  CHECK_FALSE(fs::exists(c.dir / "d_refused.stdout"));
  o.impl_template = "other {file}";
  std::ostringstream out2, err2;
  CHECK(run_conformance(o, out2, err2) == 2);
  CHECK(err2.str().find("cannot be used with --impl") != std::string::npos);
}

TEST_CASE("--coverage lists every section of spec/ with its tests (spec/cli.md §6.5)") {
  Corpus c;
  fs::create_directories(c.dir / "spec");
  fs::create_directories(c.dir / "corpus");
  fs::create_directories(c.dir / "tests");
  c.write("spec/README.md", "# Index\n## Not a section\n");
  c.write("spec/lang.md",
          "# Lang\n## 1. Words\n### 1.1 Letters\n```\n## 9. inside a fence\n```\n"
          "## 2. Sums\n## Loose ends\n#### a deeper heading: not a section\n");
  c.write("spec/errors.md", "# Errors\n### E0200 — mismatched types\n### E0300 — immutable\n");
  c.write("spec/tool.md",
          "# Tool\n## 1. The shell\n<!-- tests: tests/shell_test.py, tests/more.py -->\n");
  c.write("tests/shell_test.py", "");
  c.write("tests/more.py", "");
  c.write("corpus/a.vx", "// spec: lang.md §1.1; errors.md E0200\nx //~ ERROR E0200\n");
  c.write("corpus/b.vx", "// about sums\n// spec: lang.md §2\nfn main() {}\n");
  c.write("corpus/c.uir", "# spec: lang.md \"Loose ends\"\n");
  ConformanceOptions o;
  o.dirs = {(c.dir / "corpus").string()};  // spec/ is found above it
  o.coverage = true;
  {
    std::ostringstream out, err;
    CHECK(run_conformance(o, out, err) == 1);  // E0300 has no test
    const std::string text = out.str();
    INFO(text << err.str());
    CHECK(text.find("lang.md §1 Words: 1 program\n") != std::string::npos);  // by §1.1
    CHECK(text.find("lang.md §1.1 Letters: 1 program\n") != std::string::npos);
    CHECK(text.find("§9") == std::string::npos);
    CHECK(text.find("lang.md §2 Sums: 1 program\n") != std::string::npos);
    CHECK(text.find("lang.md \"Loose ends\" Loose ends: 1 program\n") != std::string::npos);
    CHECK(text.find("deeper") == std::string::npos);
    CHECK(text.find("Not a section") == std::string::npos);
    CHECK(text.find("errors.md E0200 mismatched types: 1 program\n") != std::string::npos);
    CHECK(text.find("errors.md E0300 immutable: NO TEST\n") != std::string::npos);
    CHECK(text.find("tool.md §1 The shell: vx's tests tests/shell_test.py, tests/more.py\n") !=
          std::string::npos);
    CHECK(text.find("7 sections, 6 tested, 1 without a test; 3 of 3 programs name their "
                    "sections\n") != std::string::npos);
  }
  // Tested everywhere: exit 0; -v lists the programs; JSON has the same.
  c.write("corpus/d.vx", "// spec: errors.md E0300\n");
  {
    std::ostringstream out, err;
    o.verbose = true;
    CHECK(run_conformance(o, out, err) == 0);
    CHECK(out.str().find("errors.md E0200 mismatched types: 1 program\n    " +
                         (c.dir / "corpus" / "a.vx").string() + "\n") != std::string::npos);
    o.verbose = false;
  }
  {
    std::ostringstream out, err;
    o.format = "json";
    CHECK(run_conformance(o, out, err) == 0);
    const auto doc = nlohmann::json::parse(out.str());
    REQUIRE(doc["sections"].size() == 7);
    CHECK(doc["sections"][0]["section"] == "errors.md E0200");
    CHECK(doc["sections"][0]["programs"][0] == (c.dir / "corpus" / "a.vx").string());
    CHECK(doc["sections"].back()["tests"][1] == "tests/more.py");
    CHECK(doc["unknown"].empty());
    o.format = "text";
  }
  // A header naming no section, a program without a header, a tests file that is not there.
  c.write("corpus/e.vx", "// spec: lang.md §7\n");
  c.write("corpus/f.vx", "fn main() {}\n");
  fs::remove(c.dir / "tests" / "more.py");
  {
    std::ostringstream out, err;
    CHECK(run_conformance(o, out, err) == 1);
    const std::string text = out.str();
    INFO(text);
    CHECK(text.find((c.dir / "corpus" / "e.vx").string() +
                    ": `// spec: lang.md §7` names no section of ") != std::string::npos);
    CHECK(text.find((c.dir / "corpus" / "f.vx").string() + ": no `// spec:` header\n") !=
          std::string::npos);
    CHECK(text.find("(tests/more.py does not exist); NO TEST\n") != std::string::npos);
  }
  // No spec/ to be found: a usage error; --spec names one; junit is not a coverage format.
  {
    std::ostringstream out, err;
    o.spec_dir = (c.dir / "nowhere").string();
    CHECK(run_conformance(o, out, err) == 2);
    CHECK(err.str().find("no chapters (*.md) in") != std::string::npos);
    o.spec_dir.clear();
    o.format = "junit";
    CHECK(run_conformance(o, out, err) == 2);
    CHECK(err.str().find("`--coverage` prints text or json, not junit") != std::string::npos);
  }
  CHECK(spec_keys(" memory.md §2;kernel-rules.md §4 ; ") ==
        std::vector<std::string>{"memory.md §2", "kernel-rules.md §4"});
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
  o.format = "text";
  for (int bad : {0, -1}) {  // not silently taken as 1 s
    o.timeout_seconds = bad;
    std::ostringstream e;
    CHECK(run_conformance(o, out, e) == 2);
    CHECK(e.str() == "vx conformance: `--timeout` must be at least 1 second, not " +
                         std::to_string(bad) + "\n");
  }
}

TEST_CASE("a corpus cannot make the runner run anything but the implementation") {
  Corpus c;
  // Each payload would create `pwned` (relative: in the runner's directory or the corpus's) or
  // the absolute `marker` if any shell read it.
  const fs::path marker = c.dir / "marker";
  const std::string m = marker.string();
  const std::vector<std::string> flag_lines = {
      "; touch pwned; touch " + m,
      "$(touch pwned) $(touch " + m + ")",
      "`touch pwned` `touch " + m + "`",
      "| touch " + m,
      "&& touch " + m + " || touch " + m,
      "> " + m,
      "\"$(touch " + m + ")\" '`touch " + m + "`'",
      "a\rtouch " + m,
  };
  // The implementation prints every argument it gets on a line of its own, then the variable.
  c.write("record.sh",
          "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n"
          "printf 'env=%s\\n' \"$VX_PAYLOAD\"\n");
  for (size_t i = 0; i < flag_lines.size(); ++i) {
    const std::string name = "t" + std::to_string(i);
    const fs::path program = c.dir / (name + ".vx");
    c.write(name + ".vx", "// run-flags: " + flag_lines[i] + "\n// env: VX_PAYLOAD=$(touch" +
                              "${IFS}" + m + ");`touch${IFS}" + m + "`\nfn main() {}\n");
    // The expected words, split by hand: blanks separate, quotes group, nothing expands.
    std::vector<std::string> expected;
    switch (i) {
      case 0:
        expected = {";", "touch", "pwned;", "touch", m};
        break;
      case 1:
        expected = {"$(touch", "pwned)", "$(touch", m + ")"};
        break;
      case 2:
        expected = {"`touch", "pwned`", "`touch", m + "`"};
        break;
      case 3:
        expected = {"|", "touch", m};
        break;
      case 4:
        expected = {"&&", "touch", m, "||", "touch", m};
        break;
      case 5:
        expected = {">", m};
        break;
      case 6:
        expected = {"$(touch " + m + ")", "`touch " + m + "`"};
        break;
      case 7:
        expected = {"a", "touch", m};
        break;
    }
    std::string out;
    for (const auto& w : expected) out += w + "\n";
    out += program.string() + "\n";
    out += "env=$(touch${IFS}" + m + ");`touch${IFS}" + m + "`\n";
    c.write(name + ".stdout", out);
  }
  // A header line may not go on past its newline: the second line is only a comment.
  c.write("u_newline.vx", "// run-flags: -x\n// ; touch " + m + "\nfn main() {}\n");
  c.write("u_newline.stdout", "-x\n" + (c.dir / "u_newline.vx").string() + "\nenv=\n");
  // An unclosed quote is a corpus error: the test is not run at all.
  c.write("v_unclosed.vx", "// run-flags: 'x\n// touch " + m + "'\nfn main() {}\n");
  c.write("v_unclosed.stdout", "");
  // An environment that would load code into the implementation is a corpus error too.
  c.write("w_preload.vx", "// env: LD_PRELOAD=" + m + ".so\nfn main() {}\n");
  c.write("w_preload.stdout", "");

  ConformanceOptions o;
  o.dirs = {c.dir.string()};
  o.impl_template = "sh " + quoted((c.dir / "record.sh").string()) + " {flags} {file}";
  o.verbose = true;
  std::ostringstream out, err;
  CHECK(run_conformance(o, out, err) == 1);
  const std::string text = out.str();
  INFO(text);
  for (size_t i = 0; i < flag_lines.size(); ++i)
    CHECK(text.find("PASS " + (c.dir / ("t" + std::to_string(i) + ".vx")).string()) !=
          std::string::npos);
  CHECK(text.find("PASS " + (c.dir / "u_newline.vx").string()) != std::string::npos);
  CHECK(text.find("FAIL " + (c.dir / "v_unclosed.vx").string() +
                  ": corpus error: malformed `// run-flags:` line: a `'` is not closed") !=
        std::string::npos);
  CHECK(text.find("FAIL " + (c.dir / "w_preload.vx").string() +
                  ": corpus error: `// env:` may not set `LD_PRELOAD`") != std::string::npos);
  CHECK(text.find("9 passed, 2 failed\n") != std::string::npos);
  CHECK_FALSE(fs::exists(marker));
  CHECK_FALSE(fs::exists("pwned"));
  CHECK_FALSE(fs::exists(c.dir / "pwned"));
  CHECK_FALSE(fs::exists(">"));

  // A template the user typed with shell syntax outside quotes is refused before anything runs.
  ConformanceOptions bad = o;
  bad.impl_template = "sh " + quoted((c.dir / "record.sh").string()) + " {file}; touch " + m;
  std::ostringstream out2, err2;
  CHECK(run_conformance(bad, out2, err2) == 2);
  CHECK(err2.str().find("`;` is not quoted: the command is not run by a shell") !=
        std::string::npos);
  bad.impl_template = "sh x.sh --x{flags}";
  CHECK(run_conformance(bad, out2, err2) == 2);
  CHECK(err2.str().find("`{flags}` must be a word of its own") != std::string::npos);
  CHECK_FALSE(fs::exists(marker));
}

TEST_CASE("progress as programs finish: lines for a log, a bar for a terminal") {
  Corpus c;
  for (const char* name : {"a_ok", "b_ok", "c_bad"}) {
    c.write(std::string(name) + ".vx", name[2] == 'o' ? "same\n" : "other\n");
    c.write(std::string(name) + ".stdout", "same\n");
  }
  c.write("impl.sh", "#!/bin/sh\nhead -n 1 \"$1\"\n");
  ConformanceOptions o;
  o.dirs = {c.dir.string()};
  o.impl_template = "sh " + quoted((c.dir / "impl.sh").string()) + " {file}";
  o.jobs = 1;
  o.progress = "lines";
  std::ostringstream out, err;
  CHECK(run_conformance(o, out, err) == 1);
  // The report on stdout is what it was without progress; the progress is on stderr.
  CHECK(out.str().find("FAIL " + (c.dir / "c_bad.vx").string()) == 0);
  CHECK(out.str().ends_with("2 passed, 1 failed\n"));
  const std::string lines = err.str();
  INFO(lines);
  CHECK(lines.find("[1/3] PASS " + (c.dir / "a_ok.vx").string() + " (") == 0);
  CHECK(lines.find("\n[2/3] PASS " + (c.dir / "b_ok.vx").string()) != std::string::npos);
  CHECK(lines.find("\n[3/3] FAIL " + (c.dir / "c_bad.vx").string() +
                   ": stdout line 1: expected `same`, got `other`\n") != std::string::npos);
  CHECK(lines.find("\nran 3 programs in ") != std::string::npos);

  o.progress = "bar";
  std::ostringstream out2, err2;
  CHECK(run_conformance(o, out2, err2) == 1);
  CHECK(out2.str() == out.str());
  const std::string bar = err2.str();
  INFO(bar);
  CHECK(bar.find("\r[") == 0);
  CHECK(bar.find("] 3/3  2 passed  1 failed") != std::string::npos);
  CHECK(bar.find(" left\x1b[K") != std::string::npos);
  CHECK(bar.find("\r\x1b[KFAIL " + (c.dir / "c_bad.vx").string()) != std::string::npos);
  CHECK(bar.find("\r\x1b[Kran 3 programs in ") != std::string::npos);
  CHECK(bar.ends_with(" s\n"));
  CHECK(bar.find("PASS") == std::string::npos);  // passes only count on the bar

  o.progress = "sideways";
  std::ostringstream out3, err3;
  CHECK(run_conformance(o, out3, err3) == 2);
  CHECK(err3.str() ==
        "vx conformance: unknown --progress `sideways` (expected auto, bar, lines or "
        "off)\n");
}

TEST_CASE("an implementation that cannot start is one usage error") {
  Corpus c;
  for (const char* name : {"a", "b", "c"}) {
    c.write(std::string(name) + ".vx", "x\n");
    c.write(std::string(name) + ".stdout", "x\n");
  }
  c.write("no_x.sh", "#!/bin/sh\nhead -n 1 \"$1\"\n");
  fs::permissions(c.dir / "no_x.sh", fs::perms::owner_read | fs::perms::owner_write);
  c.write("bad_interpreter.sh", "#!/nonexistent/interpreter\n");
  fs::permissions(c.dir / "bad_interpreter.sh", fs::perms::owner_all);
  ConformanceOptions o;
  o.dirs = {c.dir.string()};
  o.progress = "lines";
  auto run = [&](const std::string& impl, std::string& text) {
    o.impl_template = impl;
    std::ostringstream out, err;
    const int status = run_conformance(o, out, err);
    CHECK(out.str().empty() == (status == 2));  // a usage error prints no report
    text = err.str();
    return status;
  };
  std::string text;
  CHECK(run("/nonexistent/my-vx run {file}", text) == 2);
  CHECK(text ==
        "vx conformance: cannot run the implementation `/nonexistent/my-vx`: No such file or "
        "directory\n");
  CHECK(run("my-vx-that-is-not-installed {file}", text) == 2);
  CHECK(text ==
        "vx conformance: cannot run the implementation `my-vx-that-is-not-installed`: not found "
        "in PATH\n");
  const std::string no_x = (c.dir / "no_x.sh").string();
  CHECK(run(quoted(no_x) + " {file}", text) == 2);
  CHECK(text ==
        "vx conformance: cannot run the implementation `" + no_x + "`: Permission denied\n");
  // Found, but its interpreter is not there: found out by the first run, which stops the rest.
  const std::string bad = (c.dir / "bad_interpreter.sh").string();
  CHECK(run(quoted(bad) + " {file}", text) == 2);
  CHECK(text == "ran 0 programs in " + text.substr(18, text.find('\n') - 18) +
                    "\nvx conformance: could not start the implementation: cannot run `" + bad +
                    "`: No such file or directory (the interpreter its `#!` line names?)\n");
  // A first word that depends on the program is not checked: each program fails by itself.
  CHECK(run("{file}", text) == 1);
  CHECK(text.find("[3/3] FAIL") != std::string::npos);
}

TEST_CASE("what a failure's report shows: its section, diff, stderr; JUnit carries them too") {
  Corpus c;
  c.write("a_out.vx", "// spec: memory.md §1\nout\n");
  c.write("a_out.stdout", "1\n2\n3\n");
  c.write("b_panic.vx",
          "// spec: semantics.md §4.2\npanic\n\nx //~ RUNTIME-ERROR divide by zero\n");
  c.write("c_fine.vx", "// spec: memory.md §2\nfine\n");
  c.write("c_fine.stdout", "fine\n");
  c.write("d_refuse.vx", "// spec: errors.md E0200; memory.md §1\nrefuse\nx //~ ERROR E0200\n");
  c.write("e_none.vx", "fine\n");
  c.write("e_none.stdout", "fine\n");
  c.write(
      "impl.sh",
      "#!/bin/sh\n"
      "f=\"$1\"\n"
      "case \"$(grep -v '^//' \"$f\" | head -n 1)\" in\n"
      "  out) printf '1\\ntwo\\n3\\n' ;;\n"
      "  panic) printf 'error: runtime error: divide by zero\\n --> %s:2:1\\n' \"$f\" >&2;"
      " exit 101 ;;\n"
      "  fine) echo fine ;;\n"
      "  refuse) printf 'error[E0200]: mismatched types\\n --> %s:3:1\\n' \"$f\" >&2; exit 1 ;;\n"
      "esac\n");
  ConformanceOptions o;
  o.dirs = {c.dir.string()};
  o.impl_template = "sh " + quoted((c.dir / "impl.sh").string()) + " {file}";
  o.by_section = true;
  std::ostringstream out, err;
  CHECK(run_conformance(o, out, err) == 1);
  const std::string text = out.str();
  INFO(text);
  CHECK(text.find("FAIL " + (c.dir / "a_out.vx").string() +
                  ": stdout line 2: expected `2`, got `two`\n"
                  "    spec: memory.md §1\n"
                  "    --- expected\n") != std::string::npos);
  // The runtime error at the wrong line: what the implementation printed is shown.
  CHECK(text.find("FAIL " + (c.dir / "b_panic.vx").string() +
                  ": stderr does not point at line 4 (` --> " + (c.dir / "b_panic.vx").string() +
                  ":4:…`)\n"
                  "    spec: semantics.md §4.2\n"
                  "    stderr:\n"
                  "    | error: runtime error: divide by zero\n"
                  "    |  --> " +
                  (c.dir / "b_panic.vx").string() + ":2:1\n") != std::string::npos);
  // A program counts once in each section and chapter it names; those without a header last.
  CHECK(
      text.ends_with("pass rates by spec section:\n"
                     "  errors.md: 1 of 1 passed (100%)\n"
                     "    errors.md E0200: 1 of 1 passed (100%)\n"
                     "  memory.md: 2 of 3 passed (66%), 1 failed\n"
                     "    memory.md §1: 1 of 2 passed (50%), 1 failed\n"
                     "    memory.md §2: 1 of 1 passed (100%)\n"
                     "  semantics.md: 0 of 1 passed (0%), 1 failed\n"
                     "    semantics.md §4.2: 0 of 1 passed (0%), 1 failed\n"
                     "  (no spec header): 1 of 1 passed (100%)\n"
                     "3 passed, 2 failed\n"));

  o.format = "json";
  std::ostringstream jout, jerr;
  CHECK(run_conformance(o, jout, jerr) == 1);
  const auto doc = nlohmann::json::parse(jout.str());
  CHECK(doc["chapters"][1] == nlohmann::json{{"section", "memory.md"},
                                             {"passed", 2},
                                             {"failed", 1},
                                             {"xfailed", 0},
                                             {"total", 3},
                                             {"pass_rate", 2.0 / 3}});
  CHECK(doc["chapters"][3]["section"] == "(no spec header)");
  CHECK(doc["sections"][2]["section"] == "memory.md §2");
  CHECK(doc["sections"][2]["pass_rate"] == 1.0);
  CHECK(jerr.str().starts_with("pass rates by spec section:\n"));

  o.format = "junit";
  o.by_section = false;
  std::ostringstream xout, xerr;
  CHECK(run_conformance(o, xout, xerr) == 1);
  const std::string xml = xout.str();
  INFO(xml);
  // The failure's text: its reason, section, diff, both outputs, and the stderr that matters.
  CHECK(xml.find("<failure message=\"stdout line 2: expected `2`, got `two`\" type=\"mismatch\">"
                 "stdout line 2: expected `2`, got `two`&#10;&#10;spec: memory.md §1&#10;"
                 "--- expected&#10;+++ actual&#10;@@ -1,3 +1,3 @@&#10; 1&#10;-2&#10;+two&#10; 3"
                 "&#10;expected stdout:&#10;| 1&#10;| 2&#10;| 3&#10;stdout:&#10;| 1&#10;| two&#10;"
                 "| 3&#10;</failure>") != std::string::npos);
  CHECK(xml.find("stderr:&#10;| error: runtime error: divide by zero&#10;") != std::string::npos);
}

TEST_CASE("--xfail globs that match nothing are warned of; --write-xfail writes the list") {
  Corpus c;
  for (const char* name : {"a_right", "b_wrong", "sub/c_wrong[1]", "sub/d_right"}) {
    const bool right = std::string(name).find("right") != std::string::npos;
    c.write(std::string(name) + ".vx", right ? "same\n" : "other\n");
    c.write(std::string(name) + ".stdout", "same\n");
  }
  c.write("impl.sh", "#!/bin/sh\nhead -n 1 \"$1\"\n");
  c.write("known.txt", "# known\n*/b_wrong.vx\n\n*/typo_wrong.vx\n*/sub/*\n");
  ConformanceOptions o;
  o.dirs = {c.dir.string()};
  o.impl_template = "sh " + quoted((c.dir / "impl.sh").string()) + " {file}";
  o.xfail_file = (c.dir / "known.txt").string();
  o.write_xfail = (c.dir / "failing.txt").string();
  std::ostringstream out, err;
  CHECK(run_conformance(o, out, err) == 1);  // sub/d_right is an xpass
  CHECK(err.str() == "vx conformance: warning: " + o.xfail_file +
                         ":4: `*/typo_wrong.vx` matches no program under the given "
                         "directories\n");
  std::ifstream written(c.dir / "failing.txt");
  std::stringstream list;
  list << written.rdbuf();
  INFO(list.str());
  CHECK(list.str() ==
        "# The programs that failed in a run of `vx conformance` (--write-xfail), "
        "for --xfail.\n# 2 of 4 programs failed.\n\n"
        "# mismatch: stdout line 1: expected `same`, got `other`\n" +
            (c.dir / "b_wrong.vx").string() +
            "\n\n# mismatch: stdout line 1: expected `same`, got `other`\n" +
            (c.dir / "sub/c_wrong\\[1].vx").string() + "\n");
  // The list written is the list read: every failure excused, nothing else, no warning (a glob
  // of a filtered-out program is not one: it names a program that is there).
  o.xfail_file = o.write_xfail;
  o.write_xfail.clear();
  o.filters = {"*/sub/*"};
  std::ostringstream out2, err2;
  CHECK(run_conformance(o, out2, err2) == 0);
  CHECK(out2.str() == "1 passed, 0 failed, 1 expected failures\n");
  CHECK(err2.str().empty());
  // A list that cannot be written is a usage error.
  o.filters.clear();
  o.write_xfail = (c.dir / "no/such/dir/list.txt").string();
  std::ostringstream out3, err3;
  CHECK(run_conformance(o, out3, err3) == 2);
  CHECK(err3.str().ends_with("vx conformance: cannot write `" + o.write_xfail + "`\n"));
}

TEST_CASE("--impl-format=json runs an implementation that prints JSON diagnostics") {
  Corpus c;
  c.write("a_refused.vx", "refuse\nlet x = 1; //~ ERROR E0200\n");
  c.write("b_panics.vx", "panic\nx //~ RUNTIME-ERROR boom\n");
  c.write("c_warns.vx", "warn\nlet i = 0; //~ WARNING unused variable\n");
  c.write("c_warns.stdout", "");
  c.write(
      "impl.sh",
      "#!/bin/sh\n"
      "f=\"$1\"\n"
      "span() { printf '[{\"file\":\"%s\",\"line_start\":%d,\"is_primary\":true}]' \"$f\" $1; }\n"
      "case \"$(head -n 1 \"$f\")\" in\n"
      "  refuse) echo \"{\\\"level\\\":\\\"error\\\",\\\"code\\\":\\\"E0200\\\","
      "\\\"message\\\":\\\"mismatched types\\\",\\\"spans\\\":$(span 2)}\" >&2; exit 1 ;;\n"
      "  panic) echo \"{\\\"level\\\":\\\"error\\\",\\\"code\\\":null,"
      "\\\"message\\\":\\\"runtime error: boom\\\",\\\"spans\\\":$(span 2)}\" >&2; exit 101 ;;\n"
      "  warn) echo \"{\\\"level\\\":\\\"warning\\\",\\\"code\\\":null,"
      "\\\"message\\\":\\\"unused variable: i\\\",\\\"spans\\\":$(span 2)}\" >&2 ;;\n"
      "esac\n");
  ConformanceOptions o;
  o.dirs = {c.dir.string()};
  o.impl_template = "sh " + quoted((c.dir / "impl.sh").string()) + " {file}";
  o.impl_format = "json";
  std::ostringstream out, err;
  CHECK(run_conformance(o, out, err) == 0);
  CHECK(out.str() == "3 passed, 0 failed\n");
  // Read as the human form, none of it is found, and the reasons say why.
  o.impl_format = "human";
  std::ostringstream out2, err2;
  CHECK(run_conformance(o, out2, err2) == 1);
  INFO(out2.str());
  CHECK(out2.str().find("missing diagnostics E0200:2 (stderr holds JSON diagnostics") !=
        std::string::npos);
  CHECK(out2.str().ends_with("0 passed, 3 failed\n"));
  o.impl_format = "yaml";
  std::ostringstream out3, err3;
  CHECK(run_conformance(o, out3, err3) == 2);
  CHECK(err3.str() == "vx conformance: unknown --impl-format `yaml` (expected human or json)\n");
}
