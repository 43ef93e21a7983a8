#include "support/source.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace vx {

namespace {

constexpr uint32_t kBlock = 64;

bool starts_code_point(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

}  // namespace

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  block_code_points_.reserve(text_.size() / kBlock + 1);
  uint32_t points = 0;
  for (uint32_t i = 0; i < text_.size(); ++i) {
    if (i % kBlock == 0) block_code_points_.push_back(points);
    if (starts_code_point(text_[i])) ++points;
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
  block_code_points_.push_back(points);  // an offset at the end of a full last block
}

uint32_t SourceFile::code_points_before(uint32_t offset) const {
  const uint32_t block = offset / kBlock;
  uint32_t points = block_code_points_[block];
  for (uint32_t i = block * kBlock; i < offset; ++i)
    if (starts_code_point(text_[i])) ++points;
  return points;
}

LineCol SourceFile::line_col(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  int line = static_cast<int>(it - line_starts_.begin());
  uint32_t start = line_starts_[line - 1];
  return {line, static_cast<int>(code_points_before(offset) - code_points_before(start)) + 1};
}

std::string_view SourceFile::line_text(int line) const {
  if (line < 1 || line > line_count()) return {};
  uint32_t start = line_starts_[line - 1];
  uint32_t end = line < line_count() ? line_starts_[line] : static_cast<uint32_t>(text_.size());
  while (end > start && (text_[end - 1] == '\n' || text_[end - 1] == '\r')) --end;
  return std::string_view(text_).substr(start, end - start);
}

std::string source_too_large_message() {
  return "the file is larger than 16 MiB (" + std::to_string(kMaxSourceBytes) + " bytes)";
}

bool read_at_most(const std::string& path, size_t limit, std::string& text, std::string& error) {
  const bool stdin_ = path == "-";
  const int fd = stdin_ ? 0 : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot read `" + path + "`: " + std::strerror(errno);
    return false;
  }
  // One byte past the limit is enough to know the file is too large.
  text.clear();
  size_t size = 0;
  bool failed = false;
  int why = 0;
  while (size <= limit) {
    const size_t want = std::min<size_t>(size_t{1} << 20, limit + 1 - size);
    text.resize(size + want);
    const ssize_t got = ::read(fd, text.data() + size, want);
    if (got < 0) {
      if (errno == EINTR) continue;
      failed = true;
      why = errno;
      break;
    }
    if (got == 0) break;
    size += static_cast<size_t>(got);
  }
  if (!stdin_) ::close(fd);
  text.resize(size);
  if (failed) {
    error = "cannot read `" + path + "`: " + std::strerror(why);
    return false;
  }
  return true;
}

std::shared_ptr<SourceFile> read_source_file(const std::string& path, std::string& error,
                                             ReadStatus* status) {
  if (status) *status = ReadStatus::Unreadable;
  std::string text;
  if (!read_at_most(path, kMaxSourceBytes, text, error)) return nullptr;
  const size_t size = text.size();
  if (size > kMaxSourceBytes) {
    if (status) *status = ReadStatus::TooLarge;
    error = "`" + path + "`: " + source_too_large_message();
    return nullptr;
  }
  // A UTF-8 byte order mark at the start, as editors on Windows write, is not part of the text
  // (spec/grammar.md §1, as rustc does): lines and columns count from after it.
  if (text.starts_with(kByteOrderMark)) text.erase(0, kByteOrderMark.size());
  if (status) *status = ReadStatus::Ok;
  return std::make_shared<SourceFile>(path, std::move(text));
}

}  // namespace vx
