// The ASCII character classes of Vx's source text, the same in every locale (std::isalnum's depend
// on it): shared by the parser's messages and the CUDA emitter's names.
#pragma once

namespace vx {

// A character of a name: an ASCII letter, a digit or `_` (spec/grammar.md).
inline bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace vx
