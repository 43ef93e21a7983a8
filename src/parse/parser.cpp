#include "parse/parser.hpp"

#include <sstream>

#include "parse/grammar.hpp"

namespace vx {

struct ParsedProgram::Positions {
  std::ostringstream sink;  // X3's handler wants a stream; we render our own diagnostics
  grammar::error_handler_type handler;
  Positions(grammar::iterator_type first, grammar::iterator_type last)
      : handler(first, last, sink) {}
};

ParsedProgram::ParsedProgram() = default;
ParsedProgram::~ParsedProgram() = default;

Span ParsedProgram::span(const ast::position_tagged& node) const {
  if (node.id_first < 0 || node.id_last < 0 || !positions_) return {};
  auto range = positions_->handler.position_of(node);
  return {static_cast<uint32_t>(&*range.begin() - base_),
          static_cast<uint32_t>(&*range.begin() - base_ + (range.end() - range.begin()))};
}

namespace {

bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// A short description of the text at `offset`, for "expected …, found …".
std::string describe_found(const std::string& text, size_t offset) {
  while (offset < text.size() && (text[offset] == ' ' || text[offset] == '\t' ||
                                  text[offset] == '\n' || text[offset] == '\r'))
    ++offset;
  if (offset >= text.size()) return "end of file";
  size_t end = offset;
  if (ident_char(text[offset])) {
    while (end < text.size() && ident_char(text[end]) && end - offset < 40) ++end;
  } else if (text[offset] == '"') {
    return "a string literal";
  } else {
    static const char* ops[] = {"<<=", ">>=", "..=", "::", "->", "==", "!=", "<=", ">=", "&&",
                                "||",  "<<",  ">>",  "+=", "-=", "*=", "/=", "%=", "..", "&=",
                                "|=",  "^="};
    for (const char* op : ops)
      if (text.compare(offset, std::char_traits<char>::length(op), op) == 0)
        return std::string("`") + op + "`";
    end = offset + 1;
  }
  return "`" + text.substr(offset, end - offset) + "`";
}

// Refuses what the grammar should never see: bytes that are not text, non-ASCII outside strings
// and comments, unbalanced or too deeply nested delimiters, unterminated strings and comments.
bool prescan(const SourceFile& file, Diagnostics& diags) {
  const std::string& s = file.text();
  struct Open {
    char c;
    uint32_t at;
  };
  std::vector<Open> stack;
  auto closer_of = [](char c) { return c == '(' ? ')' : c == '[' ? ']' : '}'; };
  size_t i = 0, n = s.size();
  auto bad_byte = [&](size_t at, const std::string& what) {
    diags.error("E0005", {static_cast<uint32_t>(at), static_cast<uint32_t>(at + 1)}, what,
                "not allowed here");
    return false;
  };
  // Validates one UTF-8 sequence at i (inside strings and comments); returns its length or 0.
  auto utf8_len = [&](size_t at) -> size_t {
    unsigned char c = static_cast<unsigned char>(s[at]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || at + len > n) return 0;
    for (size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[at + k]) & 0xC0) != 0x80) return 0;
    return len;
  };
  while (i < n) {
    char c = s[i];
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') {
        size_t len = utf8_len(i);
        if (len == 0 || (static_cast<unsigned char>(s[i]) < 0x20 && s[i] != '\t' && s[i] != '\r'))
          return bad_byte(i, "invalid byte in a comment (the source must be UTF-8 text)");
        i += len;
      }
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      size_t start = i;
      i += 2;
      int depth = 1;  // block comments nest
      while (i < n) {
        if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
          ++depth;
          i += 2;
          continue;
        }
        if (s[i] == '*' && i + 1 < n && s[i + 1] == '/') {
          if (--depth == 0) break;
          i += 2;
          continue;
        }
        size_t len = utf8_len(i);
        if (len == 0 || (static_cast<unsigned char>(s[i]) < 0x20 && s[i] != '\t' &&
                         s[i] != '\r' && s[i] != '\n'))
          return bad_byte(i, "invalid byte in a comment (the source must be UTF-8 text)");
        i += len;
      }
      if (i >= n) {
        auto& d = diags.error("E0002", {static_cast<uint32_t>(start), static_cast<uint32_t>(start + 2)},
                              "unterminated block comment", "the comment starts here");
        d.notes.push_back("the file ends before `*/`");
        return false;
      }
      i += 2;
      continue;
    }
    if (c == '"') {
      size_t start = i++;
      while (i < n && s[i] != '"') {
        if (s[i] == '\\' && i + 1 < n) {
          i += 2;
          continue;
        }
        size_t len = utf8_len(i);
        if (len == 0 || (static_cast<unsigned char>(s[i]) < 0x20 && s[i] != '\t' &&
                         s[i] != '\n' && s[i] != '\r'))
          return bad_byte(i, "invalid byte in a string literal (the source must be UTF-8 text)");
        i += len;
      }
      if (i >= n) {
        auto& d = diags.error("E0002", {static_cast<uint32_t>(start), static_cast<uint32_t>(start + 1)},
                              "unterminated string literal", "the string starts here");
        d.notes.push_back("the file ends before the closing `\"`");
        return false;
      }
      ++i;
      continue;
    }
    if (u >= 0x80) return bad_byte(i, "non-ASCII character outside a string or comment");
    if (u < 0x20 && c != '\n' && c != '\t' && c != '\r')
      return bad_byte(i, "control character in the source");
    if (u == 0x7f) return bad_byte(i, "control character in the source");
    if (c == '(' || c == '[' || c == '{') {
      if (stack.size() >= static_cast<size_t>(kMaxNesting)) {
        auto& d = diags.error("E0003", {static_cast<uint32_t>(i), static_cast<uint32_t>(i + 1)},
                              "delimiters nested too deeply", "this is level " +
                                  std::to_string(kMaxNesting + 1));
        d.notes.push_back("at most " + std::to_string(kMaxNesting) +
                          " levels of `(`, `[` and `{` may be open at once");
        return false;
      }
      stack.push_back({c, static_cast<uint32_t>(i)});
    } else if (c == ')' || c == ']' || c == '}') {
      if (stack.empty()) {
        diags.error("E0002", {static_cast<uint32_t>(i), static_cast<uint32_t>(i + 1)},
                    std::string("unexpected closing delimiter `") + c + "`",
                    "no delimiter is open here");
        return false;
      }
      Open open = stack.back();
      if (closer_of(open.c) != c) {
        auto& d = diags.error("E0002", {static_cast<uint32_t>(i), static_cast<uint32_t>(i + 1)},
                              std::string("mismatched closing delimiter `") + c + "`",
                              std::string("expected `") + closer_of(open.c) + "`");
        d.secondary.push_back({{open.at, open.at + 1}, std::string("`") + open.c + "` opened here"});
        return false;
      }
      stack.pop_back();
    }
    ++i;
  }
  if (!stack.empty()) {
    Open open = stack.back();
    auto& d = diags.error("E0002", {open.at, open.at + 1},
                          std::string("unclosed delimiter `") + open.c + "`",
                          "unclosed delimiter");
    LineCol lc = file.line_col(open.at);
    d.notes.push_back(std::string("the file ends before the `") + closer_of(open.c) +
                      "` that closes the `" + open.c + "` opened at line " +
                      std::to_string(lc.line) + ", column " + std::to_string(lc.col));
    for (size_t k = stack.size() - 1; k-- > 0 && stack.size() - k <= 4;)
      d.secondary.push_back({{stack[k].at, stack[k].at + 1},
                             std::string("`") + stack[k].c + "` is not closed either"});
    return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<ParsedProgram> parse_program(const SourceFile& file, Diagnostics& diags) {
  if (!prescan(file, diags)) return nullptr;
  namespace x3 = boost::spirit::x3;
  auto result = std::make_unique<ParsedProgram>();
  const std::string& text = file.text();
  result->base_ = text.data();
  result->positions_ = std::make_unique<ParsedProgram::Positions>(text.begin(), text.end());
  auto& handler = result->positions_->handler;
  grammar::iterator_type first = text.begin(), last = text.end();
  auto parser = x3::with<x3::error_handler_tag>(std::ref(handler))[grammar::program()];
  try {
    bool ok = x3::phrase_parse(first, last, parser, grammar::skipper, result->program);
    // Skip trailing white space and comments; anything left is not an item.
    x3::skip_over(first, last, x3::make_context<x3::skipper_tag>(grammar::skipper));
    if (!ok || first != last) {
      uint32_t at = static_cast<uint32_t>(first - text.begin());
      auto& d = diags.error("E0001", {at, at + 1},
                            "expected an item (`fn`, `const`, `import` or an attribute), found " +
                                describe_found(text, at),
                            "expected an item");
      d.notes.push_back("a Vx file is a list of items; statements go inside a `fn`");
      return nullptr;
    }
  } catch (const x3::expectation_failure<grammar::iterator_type>& e) {
    uint32_t at = static_cast<uint32_t>(e.where() - text.begin());
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
    std::string which = e.which();
    if (which == "too_long") {
      auto& d = diags.error("E0003", {at, std::min<uint32_t>(at + 1, static_cast<uint32_t>(text.size()))},
                            "expression has more than " + std::to_string(kMaxOperators) +
                                " binary operators",
                            "the operator past the limit");
      d.helps.push_back("split it into several `let` statements");
      return nullptr;
    }
    if (which == "escape") {
      auto& d = diags.error("E0004", {at, std::min<uint32_t>(at + 2, static_cast<uint32_t>(text.size()))},
                            "unknown character escape `" + text.substr(at, 2) + "`",
                            "unknown escape");
      d.helps.push_back("the escapes are \\n \\t \\r \\0 \\\\ \\\" \\' and \\u{…}");
      return nullptr;
    }
    // A parser without a name of its own (X3 gives its C++ type): say only what was found.
    if (which.find("boost") != std::string::npos || which.find("spirit") != std::string::npos) {
      diags.error("E0001", {at, std::min<uint32_t>(at + 1, static_cast<uint32_t>(text.size()))},
                  "unexpected " + describe_found(text, at), "not expected here");
      return nullptr;
    }
    // X3 names literal characters as 'x'; show them as `x`.
    if (which.size() == 3 && which.front() == '\'' && which.back() == '\'')
      which = "`" + which.substr(1, 1) + "`";
    else if (which.size() >= 2 && which.front() == '"' && which.back() == '"')
      which = "`" + which.substr(1, which.size() - 2) + "`";
    diags.error("E0001", {at, std::min<uint32_t>(at + 1, static_cast<uint32_t>(text.size()))},
                "expected " + which + ", found " + describe_found(text, at),
                "expected " + which);
    return nullptr;
  }
  return result;
}

}  // namespace vx
