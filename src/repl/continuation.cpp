// When an input typed line by line goes on (spec/cli.md §7.2): while a bracket, string or block
// comment is open, and while the text ends where it clearly cannot (a binary operator, `let x =`,
// `if x > 3`): that is, its last token wants an operand, or its parse fails at its very end and
// would still fail there with a `;` after it. (`let x = 3` lacks only its `;`: the parser says
// so at once instead of waiting.)
#include <algorithm>
#include <cctype>
#include <memory>

#include "pipeline/pipeline.hpp"
#include "repl/repl.hpp"
#include "repl/wrapped.hpp"

namespace vx::repl {

namespace {

// The bracket, string and comment state of `t`, and where its code ends (past its last
// character outside comments and blanks).
struct Scan {
  bool open = false;
  bool stray = false;  // a closer without its opener
  size_t code_end = 0;
};

Scan scan(const std::string& t) {
  Scan s;
  int depth = 0, comment = 0;
  bool in_string = false;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    const char next = i + 1 < t.size() ? t[i + 1] : '\0';
    if (comment > 0) {
      if (c == '*' && next == '/')
        --comment, ++i;
      else if (c == '/' && next == '*')
        ++comment, ++i;
      continue;
    }
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      s.code_end = i + 1;
      continue;
    }
    if (c == '/' && next == '/') {
      while (i < t.size() && t[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && next == '*') {
      ++comment, ++i;
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(c))) s.code_end = i + 1;
    if (c == '"') {
      in_string = true;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0) {
        s.stray = true;
        return s;
      }
    }
  }
  s.open = depth > 0 || comment > 0 || in_string;
  return s;
}

// Tokens after which an operand must come. (`>` alone is not one: it closes `Tensor<…>`.)
const char* const kWantsMore[] = {"<<=", ">>=", "..=", "&&", "||", "==", "!=", "<=", ">=", "<<",
                                  ">>",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "->",
                                  "=>",  "::",  "..",  "+",  "-",  "*",  "/",  "%",  "=",  "<",
                                  "&",   "|",   "^",   "!",  ".",  ",",  ":"};

bool ends_wanting_more(const std::string& t, size_t end) {
  const std::string code = t.substr(0, end);
  for (const char* op : kWantsMore) {
    const std::string o = op;
    if (code.size() >= o.size() && code.compare(code.size() - o.size(), o.size(), o) == 0)
      return true;
  }
  // `x as`: a word `as` at the end.
  return code.size() >= 2 && code.compare(code.size() - 2, 2, "as") == 0 &&
         (code.size() == 2 || !(std::isalnum(static_cast<unsigned char>(code[code.size() - 3])) ||
                                code[code.size() - 3] == '_'));
}

// Parses `t` (with `extra` after it) as the REPL does; true when it fails at or past `end`,
// the end of the text's code.
bool fails_at_end(const std::string& t, size_t end, const std::string& extra, bool& failed) {
  const bool items = is_items_input(t);  // items parse as a file, statements as a body
  const std::string head = items ? "" : "fn main() {\n";
  const std::string text = head + t + extra + (items ? "\n" : "\n}\n");
  pipeline::Options options;
  options.through = pipeline::Step::Parse;
  const pipeline::Compiled c =
      pipeline::compile(std::make_shared<SourceFile>("<repl>", text), options);
  failed = !c.ok();
  for (const Diagnostic& d : c.diags->list())
    if (d.severity == Severity::Error) return d.span.begin >= head.size() + end;
  return false;
}

}  // namespace

InputEnd input_end(const std::string& text) {
  const Scan s = scan(text);
  if (s.open) return InputEnd::Open;
  if (s.stray || s.code_end == 0) return InputEnd::Complete;  // a stray closer: the parser says so
  if (ends_wanting_more(text, s.code_end)) return InputEnd::Unfinished;
  bool failed = false;
  if (!fails_at_end(text, s.code_end, "", failed) || !failed) return InputEnd::Complete;
  return fails_at_end(text, s.code_end, "\n;", failed) ? InputEnd::Unfinished : InputEnd::Complete;
}

bool input_is_open(const std::string& text) { return input_end(text) != InputEnd::Complete; }

}  // namespace vx::repl
