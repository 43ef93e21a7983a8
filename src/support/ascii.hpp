// The ASCII character classes of Vx's source text, the same in every locale (std::isalnum's depend
// on it): shared by the parser's messages, the CUDA emitter's names and the readers of text files
// (machine files, the REPL's input, the conformance runner's expectations and spec headings).
#pragma once
#include <string_view>

namespace vx {

// A character of a name: an ASCII letter, a digit or `_` (spec/grammar.md).
inline bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// `s` without the spaces, tabs, carriage returns and newlines at its ends.
inline std::string_view trimmed(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

}  // namespace vx
