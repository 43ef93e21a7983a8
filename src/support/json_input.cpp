#include "support/json_input.hpp"

#include <nlohmann/json.hpp>

namespace vx {

namespace {

// The byte where the nesting of `text` first goes deeper than kMaxJsonDepth, or npos. One pass,
// no recursion: brackets inside strings (after a `"`, up to the `"` that no backslash escapes)
// do not count, and whatever else is not JSON is left to the parser.
size_t too_deep_at(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;  // the escaped character, a `"` or a `\` among them
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::string_view::npos;
}

}  // namespace

std::optional<nlohmann::json> parse_json(std::string_view text, size_t max_bytes,
                                         std::string& why) {
  if (text.size() > max_bytes) {
    why = "longer than " + std::to_string(max_bytes) + " bytes";
    return std::nullopt;
  }
  if (const size_t at = too_deep_at(text); at != std::string_view::npos) {
    why = "nested deeper than " + std::to_string(kMaxJsonDepth) +
          " arrays and objects (at byte offset " + std::to_string(at) + ")";
    return std::nullopt;
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    why = std::string("not JSON: ") + e.what();
    return std::nullopt;
  }
}

}  // namespace vx
