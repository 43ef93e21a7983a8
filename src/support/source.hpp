// A source file held in memory, with byte-offset spans and line/column lookup.
// Every later pass reports positions as Spans into one SourceFile.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace vx {

// The largest source file (.vx, .uir, machine file) read (spec/grammar.md §1): larger is E0003.
inline constexpr size_t kMaxSourceBytes = size_t{16} << 20;

// U+FEFF in UTF-8. At the very start of a source file it is dropped when the file is read.
inline constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

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
  // O(log lines) for the line, a table lookup and at most 63 bytes for the column.
  LineCol line_col(uint32_t offset) const;
  // The text of a 1-based line, without its newline.
  std::string_view line_text(int line) const;
  int line_count() const { return static_cast<int>(line_starts_.size()); }

 private:
  // The code points (bytes that are not UTF-8 continuation bytes) before `offset`.
  uint32_t code_points_before(uint32_t offset) const;

  std::string path_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
  std::vector<uint32_t> block_code_points_;  // code points before byte 64·k
};

// How reading a source file ended.
enum class ReadStatus { Ok, Unreadable, TooLarge };

// Reads a file (`-`: standard input) into `text`, but never more than `limit` + 1 bytes: a text
// longer than `limit` is a file over the limit. False, with `error` set, when it cannot be read.
bool read_at_most(const std::string& path, size_t limit, std::string& text, std::string& error);

// Reads a whole file (`-`: standard input), less a byte order mark at its start, but never more
// than kMaxSourceBytes + 1 bytes, so that /dev/zero or an endless pipe is refused at once.
// Unreadable: returns nullptr with `error` set. TooLarge: returns nullptr, `error` says so, and
// `status` (when given) is TooLarge, which callers report as E0003 at the start of the file
// (source_too_large).
std::shared_ptr<SourceFile> read_source_file(const std::string& path, std::string& error,
                                             ReadStatus* status = nullptr);

// The message of the E0003 for a file over kMaxSourceBytes.
std::string source_too_large_message();

}  // namespace vx
