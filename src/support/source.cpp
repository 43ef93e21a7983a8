#include "support/source.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace vx {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (uint32_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
}

LineCol SourceFile::line_col(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  int line = static_cast<int>(it - line_starts_.begin());
  uint32_t start = line_starts_[line - 1];
  int col = 1;
  for (uint32_t i = start; i < offset; ++i)
    if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++col;  // count code points
  return {line, col};
}

std::string_view SourceFile::line_text(int line) const {
  if (line < 1 || line > line_count()) return {};
  uint32_t start = line_starts_[line - 1];
  uint32_t end = line < line_count() ? line_starts_[line] : static_cast<uint32_t>(text_.size());
  while (end > start && (text_[end - 1] == '\n' || text_[end - 1] == '\r')) --end;
  return std::string_view(text_).substr(start, end - start);
}

std::shared_ptr<SourceFile> read_source_file(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read `" + path + "`";
    return nullptr;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    error = "cannot read `" + path + "`";
    return nullptr;
  }
  std::string text = ss.str();
  if (text.size() > 0xFFFFFFF0u) {
    error = "`" + path + "` is larger than 4 GiB";
    return nullptr;
  }
  return std::make_shared<SourceFile>(path, std::move(text));
}

}  // namespace vx
