// SourceFile's line and column lookup (spec/grammar.md §1: columns count code points from 1)
// against a plain scan of the text, over lines far longer than its 64-byte blocks; and the
// bounded read of read_source_file (at most 16 MiB and one byte); the rendering of diagnostics.
#include "support/source.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "support/diagnostics.hpp"

using namespace vx;

namespace {

// The definition, scanned from the start of the text for every offset.
LineCol naive(const std::string& text, uint32_t offset) {
  LineCol lc;
  for (uint32_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++lc.line;
      lc.col = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++lc.col;
    }
  }
  return lc;
}

}  // namespace

TEST_CASE("line_col agrees with a scan from the start, at every offset") {
  std::mt19937 rng(14);
  const char* pieces[] = {"a", " ", "\n", "\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9f\x98\x80", "\r\n"};
  for (int round = 0; round < 20; ++round) {
    std::string text;
    const int n = round < 10 ? 300 : 3000;  // the later ones hold lines of hundreds of blocks
    for (int i = 0; i < n; ++i) {
      const int k = std::uniform_int_distribution<int>(0, round < 10 ? 6 : 5)(rng);
      text += pieces[k == 2 && round >= 10 ? 0 : k];
    }
    const SourceFile file("t.vx", text);
    for (uint32_t off = 0; off <= text.size() + 2; ++off) {
      const LineCol want = naive(text, off), got = file.line_col(off);
      REQUIRE_MESSAGE(got.line == want.line, "offset ", off);
      REQUIRE_MESSAGE(got.col == want.col, "offset ", off);
    }
  }
  // Known by hand: "é" is one column, and a line of 130 bytes crosses two block boundaries.
  const SourceFile file("t.vx", "\xc3\xa9x\n" + std::string(130, 'a') + "b");
  CHECK(file.line_col(2).col == 2);         // x after é
  CHECK(file.line_col(4 + 130).line == 2);  // b
  CHECK(file.line_col(4 + 130).col == 131);
  CHECK(file.line_col(1000).col == 132);  // past the end: clamped
  CHECK(SourceFile("e.vx", "").line_col(0).col == 1);
}

TEST_CASE("read_source_file reads at most 16 MiB and one byte") {
  std::string error;
  ReadStatus status = ReadStatus::Ok;
  CHECK(read_source_file("/dev/zero", error, &status) == nullptr);
  CHECK(status == ReadStatus::TooLarge);
  CHECK(error.find("larger than 16 MiB") != std::string::npos);

  const auto dir = std::filesystem::temp_directory_path();
  const auto path = (dir / ("vx_source_test_" + std::to_string(::getpid()))).string();
  {
    std::ofstream f(path, std::ios::binary);
    f << std::string(kMaxSourceBytes, 'x');
  }
  auto file = read_source_file(path, error, &status);
  REQUIRE(file);
  CHECK(status == ReadStatus::Ok);
  CHECK(file->text().size() == kMaxSourceBytes);
  {
    std::ofstream f(path, std::ios::binary | std::ios::app);
    f << "y";
  }
  CHECK(read_source_file(path, error, &status) == nullptr);
  CHECK(status == ReadStatus::TooLarge);
  std::filesystem::remove(path);

  CHECK(read_source_file(path, error, &status) == nullptr);
  CHECK(status == ReadStatus::Unreadable);
  CHECK(error.find("cannot read") == 0);
}

TEST_CASE("a byte order mark at the start of a file is dropped, and only there") {
  const auto path =
      (std::filesystem::temp_directory_path() / ("vx_source_bom_" + std::to_string(::getpid())))
          .string();
  auto read = [&](const std::string& bytes) {
    {
      std::ofstream f(path, std::ios::binary | std::ios::trunc);
      f << bytes;
    }
    std::string error;
    auto file = read_source_file(path, error);
    REQUIRE(file);
    return file;
  };
  auto file = read(
      "\xEF\xBB\xBF"
      "fn main() {}\n\xEF\xBB\xBF\n");
  CHECK(file->text() == "fn main() {}\n\xEF\xBB\xBF\n");
  CHECK(file->line_col(0).col == 1);
  CHECK(file->line_text(1) == "fn main() {}");
  CHECK(read("\xEF\xBB\xBF")->text().empty());
  CHECK(read("\xEF\xBB")->text() == "\xEF\xBB");  // not a whole mark: E0005 later, at byte 0
  CHECK(read("\xEF\xBB\xBF\xEF\xBB\xBF"
             "x")
            ->text() ==
        "\xEF\xBB\xBF"
        "x");  // one only
  std::filesystem::remove(path);
}

// Rendering (spec/cli.md §5): the expected texts are written out by hand from rustc's layout.
namespace {

std::string rendered(const Diagnostics& diags, std::string_view explain = "vx explain") {
  std::ostringstream out;
  emit_diagnostics(out, diags, ErrorFormat::Human, explain);
  return out.str();
}

}  // namespace

TEST_CASE("labels on one line share one copy of it") {
  auto file = std::make_shared<SourceFile>("t.vx", "fn f() {\n    out[b][l] = out[b][l + 1];\n}\n");
  Diagnostics diags(file);
  // `out[b][l]` at column 5 (bytes 13..22), `out[b][l + 1]` at column 17 (bytes 25..38).
  auto& d = diags.error("E6032", {25, 38}, "a pass may read what another writes", "the read");
  d.secondary.push_back({{13, 22}, "the write"});
  CHECK(rendered(diags) ==
        "error[E6032]: a pass may read what another writes\n"
        " --> t.vx:2:17\n"
        "  |\n"
        "2 |     out[b][l] = out[b][l + 1];\n"
        "  |     ---------   ^^^^^^^^^^^^^ the read\n"
        "  |     |\n"
        "  |     the write\n"
        "\n"
        "error: aborting due to 1 previous error\n"
        "\n"
        "For more information about this error, try `vx explain E6032`.\n");
}

TEST_CASE("three labels on a line hang right to left; other lines keep their own") {
  auto file = std::make_shared<SourceFile>("t.vx", "let a = foo(x, y, z);\nlet b = a;\n");
  Diagnostics diags(file);
  auto& d = diags.error("E0200", {15, 16}, "m", "second");  // `y`
  d.secondary.push_back({{12, 13}, "first"});               // `x`
  d.secondary.push_back({{18, 19}, "third"});               // `z`
  d.secondary.push_back({{26, 27}, ""});                    // `b`, no text
  d.secondary.push_back({{4, 5}, ""});                      // `a`, no text
  CHECK(rendered(diags, "") ==
        "error[E0200]: m\n"
        " --> t.vx:1:16\n"
        "  |\n"
        "1 | let a = foo(x, y, z);\n"
        "  |     -       -  ^  - third\n"
        "  |             |  |\n"
        "  |             |  second\n"
        "  |             first\n"
        "2 | let b = a;\n"
        "  |     -\n"
        "\n"
        "error: aborting due to 1 previous error\n");
}

TEST_CASE("the footer names every code vx explain explains, and none it does not") {
  auto file = std::make_shared<SourceFile>("t.vx", "x\n");
  Diagnostics two(file);
  two.error("E0200", {0, 1}, "m");
  two.error("E0100", {0, 1}, "m");
  two.error("E0200", {0, 1}, "m");
  const std::string text = rendered(two);
  CHECK(text.substr(text.find("error: aborting")) ==
        "error: aborting due to 3 previous errors\n"
        "\n"
        "Some errors have detailed explanations: E0100, E0200.\n"
        "For more information about an error, try `vx explain E0100`.\n");
  CHECK(rendered(two, ":explain").find("try `:explain E0100`.") != std::string::npos);
  Diagnostics none(file);
  none.error("E9999", {0, 1}, "m");
  CHECK(rendered(none).find("For more information") == std::string::npos);
}

TEST_CASE("colour only when asked for, and never in JSON") {
  auto file = std::make_shared<SourceFile>("t.vx", "let x = 1;\n");
  Diagnostics diags(file);
  diags.error("E0200", {8, 9}, "mismatched types", "expected `bool`").notes.push_back("n");
  CHECK(rendered(diags).find('\x1b') == std::string::npos);
  set_diagnostic_color(true);
  const std::string colored = rendered(diags);
  std::ostringstream json;
  emit_diagnostics(json, diags, ErrorFormat::Json);
  set_diagnostic_color(false);
  CHECK(colored.find("\x1b[1;31merror[E0200]\x1b[0m\x1b[1m: mismatched types\x1b[0m\n") == 0);
  CHECK(colored.find("\x1b[1;31m^\x1b[0m \x1b[1;31mexpected `bool`\x1b[0m") != std::string::npos);
  CHECK(colored.find("\x1b[1;34m  = \x1b[0m\x1b[1mnote\x1b[0m: n") != std::string::npos);
  CHECK(json.str().find("\\u001b") == std::string::npos);
  CHECK(json.str().find('\x1b') == std::string::npos);
  CHECK(!color_wanted("never", 2));
  CHECK(color_wanted("always", 2));
  CHECK(!color_wanted("auto", -1));  // not a terminal
}

TEST_CASE("each lint's first warning left, and only it, says the lint is on by default") {
  // Random warnings of three lints (some with notes of their own), then a random `#[allow]`:
  // the note follows whichever warning of a lint comes first after the removal, before its own
  // notes, however many warnings were made or taken away.
  auto file = std::make_shared<SourceFile>("t.vx", std::string(64, ' '));
  std::mt19937 rng(7);
  const std::vector<std::string> lints = {"unused_parens", "dead_code", "while_true"};
  for (int round = 0; round < 500; ++round) {
    Diagnostics diags(file);
    const int count = static_cast<int>(rng() % 12);
    for (int k = 0; k < count; ++k) {
      const uint32_t at = static_cast<uint32_t>(k);
      if (rng() % 5 == 0) diags.error("E0200", {at, at + 1}, "an error");
      auto& w = diags.warning(lints[rng() % lints.size()], {at, at + 1}, "a warning");
      if (rng() % 2) w.notes.push_back("a note of its own");
    }
    const uint32_t allow_mask = static_cast<uint32_t>(rng());
    diags.remove_if([&](const Diagnostic& d) {
      return d.severity == Severity::Warning && ((allow_mask >> d.span.begin) & 1) != 0;
    });
    std::set<std::string> seen;
    for (const Diagnostic& d : diags.list()) {
      if (d.severity != Severity::Warning) {
        CHECK(d.notes.empty());
        continue;
      }
      const bool first = seen.insert(d.lint).second;
      const auto on = std::count_if(d.notes.begin(), d.notes.end(), is_on_by_default);
      CHECK(on == (first ? 1 : 0));
      if (first && !d.notes.empty())
        CHECK(d.notes.front() == "`#[warn(" + d.lint + ")]` on by default");
      CHECK(std::count(d.notes.begin(), d.notes.end(), "a note of its own") <= 1);
    }
  }
}

TEST_CASE("warnings that #[allow] silences take no place under the cap") {
  // Up to three caps' worth of warnings of two lints, one allowed (set before, as the pipeline
  // sets it before the checker runs): every warning not allowed is printed up to the cap, in
  // order, and the counts know nothing of the allowed ones.
  auto file = std::make_shared<SourceFile>("t.vx", std::string(512, ' '));
  std::mt19937 rng(11);
  for (int round = 0; round < 200; ++round) {
    Diagnostics diags(file);
    diags.set_allowed([](const Diagnostic& d) { return d.lint == "unused_parens"; });
    std::vector<uint32_t> shown;
    const int count = static_cast<int>(rng() % (3 * Diagnostics::kMaxKept));
    for (int k = 0; k < count; ++k) {
      const uint32_t at = static_cast<uint32_t>(k);
      const bool allowed = rng() % 3 != 0;
      diags.warning(allowed ? "unused_parens" : "dead_code", {at, at + 1}, "a warning");
      if (!allowed) shown.push_back(at);
    }
    CHECK(diags.warning_count() == shown.size());
    if (shown.size() > Diagnostics::kMaxKept) shown.resize(Diagnostics::kMaxKept);
    std::vector<uint32_t> printed;
    for (const Diagnostic& d : diags.list()) printed.push_back(d.span.begin);
    CHECK(printed == shown);
  }
}

TEST_CASE("a diagnostic's data is its own: copies and assignments do not share it") {
  Diagnostic a;
  CHECK(a.data.get() == nullptr);
  (*a.data)["k"] = 1;
  Diagnostic b = a;
  (*b.data)["k"] = 2;
  CHECK((*a.data)["k"] == 1);
  CHECK((*b.data)["k"] == 2);
  Diagnostic c;
  c = b;
  const Diagnostic& same = c;
  c = same;  // itself
  (*b.data)["k"] = 3;
  CHECK((*c.data)["k"] == 2);
  c = Diagnostic{};
  CHECK(c.data.get() == nullptr);
  Diagnostic d = std::move(b);
  CHECK((*d.data)["k"] == 3);
}
