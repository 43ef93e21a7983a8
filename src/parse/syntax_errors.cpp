#include "parse/syntax_errors.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string_view>

#include "parse/parser.hpp"
#include "support/ascii.hpp"

namespace vx {

namespace {

uint64_t hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return static_cast<uint64_t>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<uint64_t>(c - 'a' + 10);
  return static_cast<uint64_t>(c - 'A' + 10);
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
    static const char* ops[] = {
        "<<=", ">>=", "..=", "::", "->", "==", "!=", "<=", ">=", "&&", "||",
        "<<",  ">>",  "+=",  "-=", "*=", "/=", "%=", "..", "&=", "|=", "^="};
    for (const char* op : ops)
      if (text.compare(offset, std::char_traits<char>::length(op), op) == 0)
        return std::string("`") + op + "`";
    end = offset + 1;
  }
  return "`" + text.substr(offset, end - offset) + "`";
}

// Past the white space and comments that start at byte `i`, as the grammar's skipper steps over
// them, reading no further than byte `n`.
size_t past_blank(const std::string& text, size_t i, size_t n) {
  while (i < n) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      while (i < n && text[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      int depth = 0;  // block comments nest; the pre-scan has refused an unterminated one
      do {
        if (text.compare(i, 2, "/*") == 0) {
          ++depth, i += 2;
        } else if (text.compare(i, 2, "*/") == 0) {
          --depth, i += 2;
        } else {
          ++i;
        }
      } while (depth > 0 && i < n);
    } else {
      break;
    }
  }
  return std::min(i, n);
}

// The end of the last token before byte `at` (0 if there is none): white space, comments and
// string literals are stepped over as the grammar's skipper and lexeme do.
size_t previous_token_end(const std::string& text, size_t at) {
  size_t i = 0, last = 0;
  const size_t n = std::min(at, text.size());
  while ((i = past_blank(text, i, n)) < n) {
    if (text[i] == '"') {
      for (++i; i < n && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
      last = i = std::min(i + 1, n);
    } else {
      last = ++i;
    }
  }
  return last;
}

// The start of the first token at or after byte `from`.
size_t next_token_start(const std::string& text, size_t from) {
  return past_blank(text, from, text.size());
}

// The identifier that starts at `at`, or "".
std::string_view word_at(const std::string& text, size_t at) {
  size_t end = at;
  while (end < text.size() && ident_char(text[end])) ++end;
  if (end == at || std::isdigit(static_cast<unsigned char>(text[at]))) return {};
  return std::string_view(text).substr(at, end - at);
}

// The identifier that ends at `end`, or "".
std::string_view word_before(const std::string& text, size_t end) {
  size_t start = end;
  while (start > 0 && ident_char(text[start - 1])) --start;
  return word_at(text, start).size() == end - start ? word_at(text, start) : std::string_view{};
}

struct Absent {
  const char* word;
  const char* what;
  const char* help;
  const char* where;
};
enum class AbsentId {
#define VX_ABSENT(Id, word, what, help, where) Id,
#include "parse/absent.def"
#undef VX_ABSENT
};
constexpr Absent kAbsent[] = {
#define VX_ABSENT(Id, word, what, help, where) {word, what, help, where},
#include "parse/absent.def"
#undef VX_ABSENT
};
const Absent& absent(AbsentId id) { return kAbsent[static_cast<int>(id)]; }
const Absent* absent_word(std::string_view word) {
  for (const auto& a : kAbsent)
    if (!word.empty() && word == a.word) return &a;
  return nullptr;
}

void report_absent(const Absent& a, Span span, const std::string& label, Diagnostics& diags) {
  auto& d = diags.error("E0001", span, std::string("Vx has no ") + a.what, label);
  d.helps.push_back(a.help);
  d.notes.push_back(std::string("spec/grammar.md §7 lists what Vx leaves out of Rust; ") + a.where);
}

// A Rust form that Vx leaves out, found where the grammar stopped: the word at `at` where an
// item was due (`struct P`, `pub enum E`), the word just before it (`match x {`: `match` read
// as a name, then no `;`), a `|` where an expression was due, a `<` after `fn name`.
bool report_absent_form(const std::string& text, uint32_t at, const std::string& which,
                        Diagnostics& diags) {
  const size_t prev_end = previous_token_end(text, at);
  const std::string_view prev = word_before(text, prev_end);
  const auto span_of = [](size_t begin, size_t size) {
    return Span{static_cast<uint32_t>(begin), static_cast<uint32_t>(begin + size)};
  };
  size_t word = at;  // `pub struct` where an item was due: the word after `pub`
  if (which == "item" && word_at(text, at) == "pub")
    word = text.find_first_not_of(" \t\r\n", at + 3);
  if (const Absent* a = word < text.size() ? absent_word(word_at(text, word)) : nullptr;
      a && (which == "item" || prev == "pub")) {
    report_absent(*a, span_of(word, std::string_view(a->word).size()),
                  std::string("`") + a->word + "` starts no item in Vx", diags);
    return true;
  }
  if (const Absent* a = absent_word(prev)) {
    const size_t begin = prev_end - prev.size();
    const size_t before = previous_token_end(text, begin);
    if (before == 0 || (text[before - 1] != '.' && text.compare(before - 1, 1, ":") != 0)) {
      report_absent(*a, span_of(begin, prev.size()),
                    std::string("`") + a->word + "` is not a keyword of Vx", diags);
      return true;
    }
  }
  // `move |x| …` reads as the name `move` or'd with `x`: look for it on the line before `at`.
  size_t closure = which == "expression" && at < text.size() && text[at] == '|' ? at : text.npos;
  const size_t line = at == 0 ? 0 : text.rfind('\n', at - 1) + 1;  // npos + 1 is 0
  for (size_t m = text.find("move", line); closure == text.npos && m < at;
       m = text.find("move", m + 1)) {
    const size_t after = text.find_first_not_of(" \t", m + 4);
    if (word_at(text, m) == "move" && (m == 0 || !ident_char(text[m - 1])) && after < at &&
        text[after] == '|')
      closure = m;
  }
  if (closure != text.npos) {
    at = static_cast<uint32_t>(closure);
    const size_t bar = text.find('|', at);  // `|x, y|`, `||`, `move |x|`: to the second bar
    const size_t second = text[bar + 1] == '|' ? bar + 1 : text.find('|', bar + 1);
    const size_t end = second < text.find('\n', bar) ? second + 1 : bar + 1;
    report_absent(absent(AbsentId::Closure), span_of(at, end - at), "a closure", diags);
    return true;
  }
  if (which == "`(`" && at < text.size() && text[at] == '<' && !prev.empty() &&
      word_before(text, previous_token_end(text, prev_end - prev.size())) == "fn") {
    const size_t close = text.find('>', at);  // `<T>`, `<T: Copy>` when on one line
    const size_t end = close < text.find('\n', at) ? close + 1 : at + 1;
    report_absent(absent(AbsentId::Generic), span_of(at, end - at), "type parameters", diags);
    return true;
  }
  return false;
}

}  // namespace

void report_not_an_item(const std::string& text, uint32_t at, Diagnostics& diags) {
  if (report_absent_form(text, at, "item", diags)) return;
  auto& d =
      diags.error("E0001", {at, at + 1},
                  "expected an item (`fn`, `const`, `struct`, `import` or an attribute), found " +
                      describe_found(text, at),
                  "expected an item");
  d.notes.push_back("a Vx file is a list of items; statements go inside a `fn`");
}

// The macros of Vx (spec/grammar.md §4.2).
static bool is_macro(std::string_view name) {
  return name == "println" || name == "print" || name == "assert" || name == "assert_eq";
}

const char* unknown_macro_help(std::string_view name) {
  if (name == "vec")
    return "Vx has no vectors: write an array (`[1, 2, 3]`, `[0.0; 8]`) or a tensor "
           "(`Tensor<f32, [8]>::fill(0.0)`)";
  return "the macros are println!, print!, assert! and assert_eq!";
}

void report_expectation_failure(const std::string& text, uint32_t at, std::string which,
                                Diagnostics& diags) {
  // `if let 5 = x {`, `while let …`: the grammar stops at the `let`.
  const size_t word_end = previous_token_end(text, at);
  const std::string_view prev = word_before(text, word_end);
  if (word_at(text, at) == "let" && (prev == "if" || prev == "while")) {
    const uint32_t begin = static_cast<uint32_t>(word_end - prev.size());
    report_absent(absent(AbsentId::IfLet), {begin, at + 3}, "`" + std::string(prev) + " let`",
                  diags);
    return;
  }
  // `i++`, `++i`: C's increment, which Rust and Vx leave out; the grammar stops at the first `+`.
  if (text.compare(at, 2, "++") == 0) {
    const std::string_view after = word_at(text, text.find_first_not_of(" \t", at + 2));
    const bool postfix = !prev.empty() || after.empty();
    auto& d = diags.error(
        "E0001", {at, at + 2},
        std::string("Vx has no ") + (postfix ? "postfix" : "prefix") + " increment operator",
        "not an operator of Vx");
    const std::string_view target = postfix ? prev : after;
    d.helps.push_back(target.empty() ? std::string("write `… += 1;`")
                                     : "write `" + std::string(target) + " += 1;`");
    return;
  }
  // `vec![1, 2]`, `println!{…}`: a macro called with brackets or braces, which the grammar takes
  // for a name followed by `!`. Vx's macros take `( … )`; an unknown one is E0502, as with `( … )`.
  if (at < text.size() && text[at] == '!') {
    const std::string_view name = word_before(text, at);
    const size_t open = text.find_first_not_of(" \t", at + 1);
    if (!name.empty() && open < text.size() && (text[open] == '[' || text[open] == '{')) {
      const std::string macro = std::string(name) + "!";
      if (!is_macro(name)) {
        auto& d = diags.error("E0502", {static_cast<uint32_t>(at - name.size()), at},
                              "unknown macro `" + macro + "`", "not a macro");
        d.helps.push_back(unknown_macro_help(name));
      } else {
        const uint32_t o = static_cast<uint32_t>(open);
        auto& d = diags.error(
            "E0001", {o, o + 1},
            "`" + macro + "` takes its arguments in `( … )`, found " + describe_found(text, open),
            "expected `(`");
        d.helps.push_back("write `" + macro + "(…)`");
      }
      return;
    }
  }
  if (which == "too_long") {
    auto& d = diags.error(
        "E0003", {at, std::min<uint32_t>(at + 1, static_cast<uint32_t>(text.size()))},
        "expression has more than " + std::to_string(kMaxOperators) + " binary operators",
        "the operator past the limit");
    d.helps.push_back("split it into several `let` statements");
    return;
  }
  if (which == "struct_body") {  // `struct P(…)`, `struct P;`, `struct P<T>` (spec/types.md §9)
    const char c = at < text.size() ? text[at] : '\0';
    const AbsentId id = c == '('   ? AbsentId::TupleStruct
                        : c == '<' ? AbsentId::GenericStruct
                                   : AbsentId::UnitStruct;
    if (c == '(' || c == ';' || c == '<') {
      report_absent(absent(id), {at, at + 1}, "a struct's fields are named, in `{ … }`", diags);
      return;
    }
    which = "`{`";
  }
  if (which == "struct_lit_close") {  // `P { x: 1, ..q }` (spec/types.md §9)
    if (text.compare(at, 2, "..") == 0) {
      report_absent(absent(AbsentId::StructUpdate), {at, at + 2},
                    "the rest of the fields from another value", diags);
      return;
    }
    which = "`}` or a field";
  }
  // `let P { x, y } = p;`: a struct pattern (spec/types.md §9).
  if ((which == "';'" || which == "`;`") && at < text.size() && text[at] == '{') {
    const size_t name_end = previous_token_end(text, at);
    const std::string_view name = word_before(text, name_end);
    const size_t before = previous_token_end(text, name_end - name.size());
    const std::string_view kw = word_before(text, before);
    if (!name.empty() && std::isupper(static_cast<unsigned char>(name[0])) &&
        (kw == "let" || kw == "mut")) {
      report_absent(absent(AbsentId::StructPattern),
                    {static_cast<uint32_t>(name_end - name.size()), at + 1}, "a struct taken apart",
                    diags);
      return;
    }
  }
  if (which == "too_deep") {
    auto& d =
        diags.error("E0003", {at, std::min<uint32_t>(at + 1, static_cast<uint32_t>(text.size()))},
                    "expression or type nested too deeply",
                    "this is level " + std::to_string(kMaxParseDepth + 1));
    d.notes.push_back("at most " + std::to_string(kMaxParseDepth) +
                      " expressions and types may be open at once (such as `if` conditions "
                      "and `&` types nested without parentheses)");
    return;
  }
  if (which == "too_many_suffixes") {
    auto& d =
        diags.error("E0003", {at, std::min<uint32_t>(at + 1, static_cast<uint32_t>(text.size()))},
                    "expression nested too deeply",
                    "this suffix makes it more than " + std::to_string(kMaxExprDepth) + " deep");
    d.notes.push_back("an expression's tree may be at most " + std::to_string(kMaxExprDepth) +
                      " deep (spec/grammar.md §1.5); each method call and index adds a level");
    d.helps.push_back("name the parts with `let` statements");
    return;
  }
  if (which == "too_many_prefix" || which == "too_many_casts") {
    const bool prefix = which == "too_many_prefix";
    auto& d = diags.error(
        "E0003", {at, std::min<uint32_t>(at + 1, static_cast<uint32_t>(text.size()))},
        prefix ? "more than " + std::to_string(kMaxPrefixOps) + " prefix operators in a row"
               : "more than " + std::to_string(kMaxCasts) + " `as` casts in a row",
        prefix ? "the operator past the limit" : "the cast past the limit");
    d.helps.push_back("split it into several `let` statements");
    return;
  }
  // `for x in a { … }`: Rust's loop over an array's elements, where Vx's `for` takes a range.
  if (which == "`..` or `..=`" && at < text.size() && text[at] == '{') {
    const size_t in = text.rfind(" in ", at);
    const size_t line = at == 0 ? 0 : text.rfind('\n', at - 1) + 1;  // npos + 1 is 0
    if (in != text.npos && in >= line && text.find("for ", line) < in) {
      const size_t begin = next_token_start(text, in + 4);
      const size_t end = previous_token_end(text, at);
      const std::string what = text.substr(begin, end - begin);
      auto& d = diags.error("E0001", {static_cast<uint32_t>(begin), static_cast<uint32_t>(end)},
                            "Vx's `for` runs over a range, not over the elements of `" + what + "`",
                            "expected a range `a..b`");
      // `t.iter()`, `&t`, `&mut t`: the indices are those of `t` itself.
      std::string base = what;
      for (const char* iter : {".iter()", ".iter_mut()", ".into_iter()"})
        if (base.ends_with(iter)) base.resize(base.size() - std::strlen(iter));
      for (const char* borrow : {"&mut ", "&"})
        if (base.starts_with(borrow)) base.erase(0, std::strlen(borrow));
      if (base.empty()) base = what;
      d.helps.push_back("loop over the indices and index the array: `for i in 0.." + base +
                        ".len() { … " + base + "[i] … }`");
      d.notes.push_back("spec/semantics.md §3: a `for` loop's range");
      return;
    }
  }
  if (which == "escape" && text.compare(at, 2, "\\u") == 0) {
    // `\u{…}` that did not parse: say which part is wrong, not "unknown escape".
    size_t end = at + 2;
    uint64_t value = 0;
    bool braced = end < text.size() && text[end] == '{';
    size_t digits = 0;
    if (braced) {
      ++end;
      while (end < text.size() && std::isxdigit(static_cast<unsigned char>(text[end]))) {
        if (value <= 0x10FFFF) value = value * 16 + hex_digit_value(text[end]);
        ++end, ++digits;
      }
    }
    const bool closed = braced && end < text.size() && text[end] == '}';
    const uint32_t stop = static_cast<uint32_t>(std::min(text.size(), closed ? end + 1 : end));
    if (closed && digits > 6) {
      auto& d = diags.error("E0004", {at, stop}, "`\\u{…}` with more than six hex digits",
                            std::to_string(digits) + " digits");
      d.helps.push_back("a code point has at most six: U+10FFFF is `\\u{10FFFF}`");
      return;
    }
    if (closed && digits > 0) {
      const bool surrogate = value >= 0xD800 && value <= 0xDFFF;
      auto& d = diags.error("E0004", {at, stop},
                            "`" + text.substr(at, stop - at) + "` is not a Unicode scalar value",
                            surrogate ? "a surrogate code point" : "past U+10FFFF");
      d.notes.push_back(
          "a `\\u{…}` escape names a code point up to U+10FFFF, outside "
          "U+D800 to U+DFFF (the UTF-16 surrogates)");
      return;
    }
    auto& d = diags.error("E0004", {at, std::max<uint32_t>(stop, at + 2)}, "malformed `\\u` escape",
                          "expected `\\u{` hex digits `}`");
    d.helps.push_back(
        "write a code point as one to six hex digits in braces: `\\u{e9}`, "
        "`\\u{1F600}`");
    return;
  }
  if (which == "escape" && text.compare(at, 2, "\\x") == 0) {
    // `\xHH` that did not parse: too few hex digits, or past 7F (ASCII only, as Rust).
    size_t end = at + 2;
    while (end < text.size() && end < at + 4 &&
           std::isxdigit(static_cast<unsigned char>(text[end])))
      ++end;
    const uint32_t stop = static_cast<uint32_t>(std::max<size_t>(end, at + 2));
    if (end == at + 4) {
      auto& d = diags.error("E0004", {at, stop}, "out of range hex escape",
                            "must be a character in the range [\\x00-\\x7f]");
      d.helps.push_back("write a code point past 7F as `\\u{…}`: `\\u{" + text.substr(at + 2, 2) +
                        "}`");
      return;
    }
    auto& d = diags.error("E0004", {at, stop}, "numeric character escape is too short",
                          "expected two hex digits");
    d.helps.push_back("`\\x` takes exactly two hex digits: `\\x41` is `A`");
    return;
  }
  if (which == "escape") {
    auto& d =
        diags.error("E0004", {at, std::min<uint32_t>(at + 2, static_cast<uint32_t>(text.size()))},
                    "unknown character escape `" + text.substr(at, 2) + "`", "unknown escape");
    d.helps.push_back("the escapes are \\n \\t \\r \\0 \\\\ \\\" \\' \\xHH and \\u{…}");
    return;
  }
  // A parser without a name of its own (X3 gives its C++ type): say only what was found.
  if (which.find("boost") != std::string::npos || which.find("spirit") != std::string::npos) {
    diags.error("E0001", {at, std::min<uint32_t>(at + 1, static_cast<uint32_t>(text.size()))},
                "unexpected " + describe_found(text, at), "not expected here");
    return;
  }
  // X3 names literal characters as 'x'; show them as `x`.
  if (which.size() == 3 && which.front() == '\'' && which.back() == '\'')
    which = "`" + which.substr(1, 1) + "`";
  else if (which.size() >= 2 && which.front() == '"' && which.back() == '"')
    which = "`" + which.substr(1, which.size() - 2) + "`";
  if (report_absent_form(text, at, which, diags)) return;
  const Span found{at, std::min<uint32_t>(at + 1, static_cast<uint32_t>(text.size()))};
  const uint32_t found_word = static_cast<uint32_t>(word_at(text, at).size());
  const std::string message = "expected " + which + ", found " + describe_found(text, at);
  // A `;` missing at the end of a line is reported there, as rustc does, with the next line's
  // token as the second label: the grammar stopped at that token.
  const uint32_t prev_end = static_cast<uint32_t>(previous_token_end(text, at));
  if (which == "`;`" && prev_end > 0 && text.find('\n', prev_end) < at) {
    auto& d = diags.error("E0001", {prev_end, prev_end}, message, "add `;` here");
    d.secondary.push_back({{at, std::max(found.end, at + found_word)},
                           at < text.size() && text[at] == '}' ? "the block closes here"
                                                               : "the next statement starts here"});
    return;
  }
  diags.error("E0001", found, message, "expected " + which);
}

}  // namespace vx
