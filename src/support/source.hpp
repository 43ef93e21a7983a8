// A source file held in memory, with byte-offset spans and line/column lookup.
// Every later pass reports positions as Spans into one SourceFile.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace vx {

struct Span {
  uint32_t begin = 0;
  uint32_t end = 0;  // one past the last byte
  bool empty() const { return begin == end; }
};

struct LineCol {
  int line = 1;  // 1-based
  int col = 1;   // 1-based, in characters (UTF-8 code points) on the line
};

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  LineCol line_col(uint32_t offset) const;
  // The text of a 1-based line, without its newline.
  std::string_view line_text(int line) const;
  int line_count() const { return static_cast<int>(line_starts_.size()); }

 private:
  std::string path_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
};

// Reads a whole file; returns nullptr and sets `error` when it cannot.
std::shared_ptr<SourceFile> read_source_file(const std::string& path, std::string& error);

}  // namespace vx
