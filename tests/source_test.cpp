// SourceFile's line and column lookup (spec/grammar.md §1: columns count code points from 1)
// against a plain scan of the text, over lines far longer than its 64-byte blocks; and the
// bounded read of read_source_file (at most 16 MiB and one byte).
#include "support/source.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

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
