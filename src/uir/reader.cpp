// The .uir reader (spec/uir.md §2-3). Not Spirit X3, on purpose: the format is one instruction per
// line, each a keyword and whitespace-separated operands, so a tokenizer per line and a switch on
// the keyword say everything the grammar does, give every token its exact span for diagnostics,
// and keep this TU quick to compile. Names are resolved and types checked in the same pass, since
// SSA names are defined before their uses. Every error is a diagnostic; nothing throws.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "interp/runtime.hpp"
#include "support/internal_error.hpp"
#include "uir/uir.hpp"

namespace vx::uir {

const char* op_spelling(Op op) {
  switch (op) {
    case Op::Buffer:
      return "buffer";
    case Op::Range:
      return "range";
    case Op::End:
      return "end";
    case Op::Const:
      return "const";
    case Op::Add:
      return "add";
    case Op::Sub:
      return "sub";
    case Op::Mul:
      return "mul";
    case Op::Div:
      return "div";
    case Op::Mod:
      return "mod";
    case Op::Neg:
      return "neg";
    case Op::Cast:
      return "cast";
    case Op::Load:
      return "load";
    case Op::Store:
      return "store";
    case Op::Print:
      return "print";
  }
  return "?";
}

bool uir_type(Scalar s) {
  return s != Scalar::F16 && s != Scalar::BF16 && s != Scalar::Bool && s != Scalar::Char;
}

namespace {

constexpr size_t kMaxNodes = 1 << 22;  // keeps hostile input from exhausting memory
constexpr int kMaxDepth = 64;
constexpr int64_t kMaxElements = int64_t(1) << 26;  // 512 MiB of 8-byte slots

struct Token {
  enum Kind { Name, Word, Number, Punct } kind = Word;
  std::string text;  // Name: without `%`
  Span span;
};

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ||
         c == '+';
}

const std::map<std::string, Op>& keywords() {
  static const std::map<std::string, Op> k = {
      {"buffer", Op::Buffer}, {"range", Op::Range}, {"end", Op::End},   {"const", Op::Const},
      {"add", Op::Add},       {"sub", Op::Sub},     {"mul", Op::Mul},   {"div", Op::Div},
      {"mod", Op::Mod},       {"neg", Op::Neg},     {"cast", Op::Cast}, {"load", Op::Load},
      {"store", Op::Store},   {"print", Op::Print}};
  return k;
}

// Integer literal bits for `t`, or nullopt when out of range.
std::optional<uint64_t> int_bits(const std::string& text, Scalar t) {
  const ScalarInfo& info = scalar_info(t);
  bool neg = !text.empty() && text[0] == '-';
  uint64_t mag = 0;
  const char* b = text.data() + (neg || (!text.empty() && text[0] == '+') ? 1 : 0);
  auto [p, ec] = std::from_chars(b, text.data() + text.size(), mag);
  if (ec != std::errc() || p != text.data() + text.size() || b == p) return std::nullopt;
  if (info.is_signed) {
    uint64_t limit = uint64_t(1) << (info.bits - 1);
    if (neg ? mag > limit : mag >= limit) return std::nullopt;
    int64_t v = neg ? static_cast<int64_t>(0 - mag) : static_cast<int64_t>(mag);
    return static_cast<uint64_t>(v);
  }
  if (neg && mag != 0) return std::nullopt;
  if (info.bits < 64 && mag >= (uint64_t(1) << info.bits)) return std::nullopt;
  return mag;
}

std::optional<uint64_t> float_bits(const std::string& text, Scalar t) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  // A finite literal that rounds to infinity is out of range (E0004); `inf` itself is fine.
  bool written_inf = text.find_first_of("iI") != std::string::npos;
  if (t == Scalar::F32) {
    float f = std::strtof(text.c_str(), &end);
    if (end != text.c_str() + text.size() || (std::isinf(f) && !written_inf)) return std::nullopt;
    return interp::to_bits(f);
  }
  double d = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || (std::isinf(d) && !written_inf)) return std::nullopt;
  return interp::to_bits(d);
}

bool looks_float(const std::string& t) {
  std::string l;
  for (char c : t) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (l == "nan" || l == "inf" || l == "-inf" || l == "+inf" || l == "-nan") return true;
  bool hex = t.find("0x") != std::string::npos || t.find("0X") != std::string::npos;
  return !hex && (t.find('.') != std::string::npos || t.find('e') != std::string::npos ||
                  t.find('E') != std::string::npos);
}

class Reader {
 public:
  Reader(std::shared_ptr<const SourceFile> file, Diagnostics& diags)
      : file_(std::move(file)), diags_(diags) {
    prog_.file = file_;
  }

  std::optional<Program> read() {
    const std::string& text = file_->text();
    size_t pos = 0;
    while (pos <= text.size() && !diags_.full()) {
      size_t nl = text.find('\n', pos);
      if (nl == std::string::npos) nl = text.size();
      if (!tokenize(pos, nl)) {
        pos = nl + 1;
        continue;
      }
      if (!toks_.empty()) statement();
      pos = nl + 1;
    }
    for (auto it = open_.rbegin(); it != open_.rend(); ++it) {
      const Node& r = prog_.nodes[*it];
      auto& d = diags_.error("E0002", r.span, "the loop `%" + r.name + "` is never closed",
                             "this range has no `end`");
      uint32_t eof = static_cast<uint32_t>(text.size());
      d.secondary.push_back({Span{eof, eof}, "the file ends here"});
      d.helps.push_back("close it with `end %LAST %" + r.name +
                        "`, where %LAST is the last instruction of its body");
    }
    if (diags_.has_errors()) return std::nullopt;
    return std::move(prog_);
  }

 private:
  // Splits [pos, nl) into tokens; `#` starts a comment. Returns false after a diagnostic.
  bool tokenize(size_t pos, size_t nl) {
    toks_.clear();
    const std::string& t = file_->text();
    size_t i = pos;
    while (i < nl) {
      char c = t[i];
      if (c == '#') break;
      if (c == ' ' || c == '\t' || c == '\r') {
        ++i;
        continue;
      }
      Token tok;
      size_t start = i;
      if (c == '=' || c == '[' || c == ']' || c == ',') {
        tok.kind = Token::Punct;
        ++i;
      } else if (c == '%') {
        ++i;
        while (i < nl &&
               (std::isalnum(static_cast<unsigned char>(t[i])) || t[i] == '_' || t[i] == '.'))
          ++i;
        if (i == start + 1) {
          syntax(Span{u32(start), u32(start + 1)}, "expected a name after `%`");
          return false;
        }
        tok.kind = Token::Name;
      } else if (word_char(c)) {
        while (i < nl && word_char(t[i])) ++i;
        std::string lower;
        for (size_t j = start; j < i; ++j) lower += static_cast<char>(std::tolower(t[j]));
        tok.kind = (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' ||
                    c == '.' || lower == "nan" || lower == "inf")
                       ? Token::Number
                       : Token::Word;
      } else {
        unsigned char u = static_cast<unsigned char>(c);
        if (u >= 0x80) {
          diags_.error("E0005", Span{u32(start), u32(start + 1)},
                       "a .uir file is ASCII outside its comments", "this byte");
          return false;
        }
        syntax(Span{u32(start), u32(start + 1)},
               std::string("unexpected character `") +
                   (u >= 0x20 && u < 0x7f ? std::string(1, c) : "?") + "`");
        return false;
      }
      tok.span = Span{u32(start), u32(i)};
      tok.text = t.substr(start + (tok.kind == Token::Name ? 1 : 0),
                          i - start - (tok.kind == Token::Name ? 1 : 0));
      toks_.push_back(std::move(tok));
    }
    line_end_ = i;
    while (line_end_ > pos &&
           (t[line_end_ - 1] == ' ' || t[line_end_ - 1] == '\t' || t[line_end_ - 1] == '\r'))
      --line_end_;
    return true;
  }

  static uint32_t u32(size_t v) { return static_cast<uint32_t>(v); }

  void syntax(Span s, std::string msg, std::string label = {}) {
    diags_.error("E0001", s, std::move(msg), std::move(label));
  }

  Span eol() const { return Span{u32(line_end_), u32(line_end_)}; }
  const Token* at(size_t i) const { return i < toks_.size() ? &toks_[i] : nullptr; }
  std::string found(size_t i) const {
    const Token* t = at(i);
    if (!t) return "the end of the line";
    return "`" + std::string(file_->text().substr(t->span.begin, t->span.end - t->span.begin)) +
           "`";
  }
  Span span_of(size_t i) const { return at(i) ? at(i)->span : eol(); }

  void statement() {
    size_t k = 0;
    Node n;
    Span name_span;
    if (toks_[0].kind == Token::Name) {
      if (!at(1) || at(1)->text != "=" || at(1)->kind != Token::Punct) {
        syntax(span_of(1), "expected `=` after `%" + toks_[0].text + "`, found " + found(1));
        return;
      }
      n.name = toks_[0].text;
      name_span = toks_[0].span;
      k = 2;
    }
    const Token* kw = at(k);
    if (!kw || kw->kind != Token::Word || !keywords().count(kw->text)) {
      syntax(span_of(k),
             "expected an instruction (range, end, const, add, sub, mul, div, mod, "
             "neg, cast, load, store, buffer, print), found " +
                 found(k));
      return;
    }
    n.op = must_find(keywords(), kw->text);
    n.span = Span{toks_[0].span.begin, u32(line_end_)};
    n.op_span = Span{kw->span.begin, u32(line_end_)};
    n.parent = open_.empty() ? -1 : open_.back();
    bool needs_name =
        n.op != Op::Store && n.op != Op::End && n.op != Op::Print && n.op != Op::Buffer;
    if (n.op == Op::Buffer || n.op == Op::Print) {
      if (!n.name.empty()) {
        syntax(name_span, std::string("`") + kw->text + "` takes no `%name =`", "remove this name");
        return;
      }
    } else if (needs_name && n.name.empty()) {
      syntax(kw->span,
             std::string("`") + kw->text + "` makes a value: write `%name = " + kw->text + " …`");
      return;
    }
    ++k;
    bool ok = false;
    switch (n.op) {
      case Op::Buffer:
        ok = buffer(n, k);
        break;
      case Op::Range:
        ok = range(n, k);
        break;
      case Op::End:
        ok = end(n, k);
        break;
      case Op::Const:
        ok = constant(n, k);
        break;
      case Op::Add:
      case Op::Sub:
      case Op::Mul:
      case Op::Div:
      case Op::Mod:
        ok = binary(n, k);
        break;
      case Op::Neg:
        ok = unary(n, k);
        break;
      case Op::Cast:
        ok = cast(n, k);
        break;
      case Op::Load:
        ok = load(n, k);
        break;
      case Op::Store:
        ok = store(n, k);
        break;
      case Op::Print:
        ok = print(n, k);
        break;
    }
    if (!ok) return;
    if (prog_.nodes.size() >= kMaxNodes) {
      diags_.error("E0003", n.span,
                   "too many instructions (at most " + std::to_string(kMaxNodes) + ")");
      return;
    }
    define(std::move(n), name_span);
  }

  void define(Node n, Span name_span) {
    int idx = static_cast<int>(prog_.nodes.size());
    if (!n.name.empty()) {
      auto it = names_.find(n.name);
      if (it != names_.end()) {
        auto& d = diags_.error("E0102", name_span, "`%" + n.name + "` is defined twice",
                               "defined again here");
        d.secondary.push_back({prog_.nodes[it->second].span, "first defined here"});
        d.helps.push_back("every `%name` is defined once in a .uir file (SSA)");
        return;
      }
      names_[n.name] = idx;
    }
    Op op = n.op;
    int parent = n.parent;
    prog_.nodes.push_back(std::move(n));
    if (op == Op::End) {
      // the End stands in the body of the loop around the one it closes
      int loop = prog_.nodes[idx].args[1].node;
      open_.pop_back();
      prog_.nodes[loop].end = idx;
      prog_.nodes[idx].parent = open_.empty() ? -1 : open_.back();
      parent = prog_.nodes[idx].parent;
    }
    if (parent < 0)
      prog_.top.push_back(idx);
    else
      prog_.nodes[parent].body.push_back(idx);
    if (op == Op::Range) open_.push_back(idx);
  }

  bool expect_end(const Node& n, size_t k) {
    if (at(k)) {
      syntax(span_of(k), std::string("unexpected ") + found(k) + " after `" + op_spelling(n.op) +
                             "`'s operands");
      return false;
    }
    return true;
  }

  // A name that is defined and visible here.
  int lookup(size_t k, bool allow_closed = false) {
    const Token* t = at(k);
    if (!t || t->kind != Token::Name) {
      syntax(span_of(k), "expected a `%name`, found " + found(k));
      return -1;
    }
    auto it = names_.find(t->text);
    if (it == names_.end()) {
      diags_.error("E0100", t->span, "unknown name `%" + t->text + "`", "not defined above");
      return -1;
    }
    int idx = it->second;
    if (!allow_closed && !visible(idx)) {
      auto& d = diags_.error("E0100", t->span,
                             "`%" + t->text +
                                 "` is not visible here: it is defined in a loop "
                                 "that has ended",
                             "out of its loop");
      d.secondary.push_back({prog_.nodes[idx].span, "defined here"});
      return -1;
    }
    return idx;
  }

  // A node is visible while every loop around it is still open.
  bool visible(int idx) const {
    int p = prog_.nodes[idx].parent;
    while (p >= 0) {
      if (std::find(open_.begin(), open_.end(), p) == open_.end()) return false;
      p = prog_.nodes[p].parent;
    }
    return true;
  }

  std::optional<Scalar> type_word(size_t k) {
    const Token* t = at(k);
    if (!t || t->kind != Token::Word) {
      syntax(span_of(k), "expected a type (i8 … u64, f32, f64), found " + found(k));
      return std::nullopt;
    }
    Scalar s;
    if (!scalar_by_name(t->text, s) || !uir_type(s)) {
      diags_.error("E0104", t->span, "unknown .uir type `" + t->text + "`",
                   "expected i8, i16, i32, i64, u8, u16, u32, u64, f32 or f64");
      return std::nullopt;
    }
    return s;
  }

  // An operand: a value node or a literal (typed later by `settle`).
  bool operand(size_t k, Operand& o) {
    const Token* t = at(k);
    if (!t) {
      syntax(eol(), "expected an operand (a `%name` or a number), found the end of the line");
      return false;
    }
    o.span = t->span;
    if (t->kind == Token::Number) {
      o.text = t->text;
      o.float_text = looks_float(t->text);
      return true;
    }
    int idx = lookup(k);
    if (idx < 0) return false;
    if (!prog_.nodes[idx].has_value) {
      diags_.error("E0200", t->span,
                   "`%" + t->text + "` has no value: it is a " + op_spelling(prog_.nodes[idx].op),
                   "not a scalar value");
      return false;
    }
    o.node = idx;
    return true;
  }

  Scalar type_of(const Operand& o) const { return prog_.nodes[o.node].type; }

  // Gives a literal operand its bits in type `t`.
  bool settle(Operand& o, Scalar t) {
    if (o.node >= 0) {
      if (type_of(o) != t) {
        diags_.error("E0200", o.span,
                     std::string("mismatched types: expected `") + scalar_info(t).name +
                         "`, found `" + scalar_info(type_of(o)).name + "`",
                     std::string("expected `") + scalar_info(t).name + "`");
        return false;
      }
      return true;
    }
    if (o.float_text && !is_float(t)) {
      diags_.error("E0200", o.span,
                   std::string("mismatched types: a float literal where `") + scalar_info(t).name +
                       "` is expected",
                   "a float");
      return false;
    }
    // An integer literal may stand for a float (spec/uir.md §2): strtod reads it exactly.
    std::optional<uint64_t> b = is_float(t) ? float_bits(o.text, t) : int_bits(o.text, t);
    if (!b) {
      diags_.error("E0004", o.span,
                   "invalid literal `" + o.text + "` for `" + scalar_info(t).name + "`",
                   "not a number of this type");
      return false;
    }
    o.bits = *b;
    return true;
  }

  bool buffer(Node& n, size_t k) {
    const Token* nm = at(k);
    if (!nm || nm->kind != Token::Name) {
      syntax(span_of(k), "expected the buffer's `%name`, found " + found(k));
      return false;
    }
    n.name = nm->text;
    ++k;
    auto t = type_word(k++);
    if (!t) return false;
    n.type = *t;
    if (!at(k) || at(k)->text != "[") {
      syntax(span_of(k), "expected `[` and the buffer's dimensions, found " + found(k));
      return false;
    }
    ++k;
    n.size = 1;
    for (;;) {
      const Token* d = at(k);
      int64_t v = 0;
      if (!d || d->kind != Token::Number ||
          std::from_chars(d->text.data(), d->text.data() + d->text.size(), v).ptr !=
              d->text.data() + d->text.size()) {
        syntax(span_of(k), "expected a dimension (a positive integer), found " + found(k));
        return false;
      }
      if (v <= 0 || v > kMaxElements || n.size * v > kMaxElements) {
        diags_.error("E0206", d->span,
                     "a buffer dimension is a positive integer, and a buffer holds at most " +
                         std::to_string(kMaxElements) + " elements",
                     "this dimension");
        return false;
      }
      n.dims.push_back(v);
      n.size *= v;
      ++k;
      if (at(k) && at(k)->text == ",") {
        ++k;
        continue;
      }
      if (at(k) && at(k)->text == "]") {
        ++k;
        break;
      }
      syntax(span_of(k), "expected `,` or `]`, found " + found(k));
      return false;
    }
    const Token* init = at(k);
    if (!init) return true;
    if (init->text == "fill") {
      Operand o;
      if (!at(k + 1) || at(k + 1)->kind != Token::Number) {
        syntax(span_of(k + 1), "expected the value after `fill`, found " + found(k + 1));
        return false;
      }
      operand(k + 1, o);
      if (!settle(o, n.type)) return false;
      n.init = Node::Init::Fill;
      n.data.push_back(o.bits);
      return expect_end(n, k + 2);
    }
    if (init->text == "iota") {
      n.init = Node::Init::Iota;
      return expect_end(n, k + 1);
    }
    if (init->text == "data") {
      n.init = Node::Init::Data;
      n.data.reserve(static_cast<size_t>(std::min<int64_t>(n.size, int64_t(toks_.size()))));
      for (size_t j = k + 1; j < toks_.size(); ++j) {
        if (toks_[j].kind != Token::Number) {
          syntax(toks_[j].span, "expected a number, found " + found(j));
          return false;
        }
        Operand o;
        operand(j, o);
        if (!settle(o, n.type)) return false;
        n.data.push_back(o.bits);
      }
      if (static_cast<int64_t>(n.data.size()) != n.size) {
        diags_.error("E0206", init->span,
                     "`data` gives " + std::to_string(n.data.size()) + " values for a buffer of " +
                         std::to_string(n.size) + " elements",
                     "one value per element");
        return false;
      }
      return true;
    }
    syntax(init->span, "expected `fill`, `iota`, `data` or the end of the line, found " + found(k));
    return false;
  }

  bool range(Node& n, size_t k) {
    const Token* c = at(k);
    int64_t v = 0;
    if (!c || c->kind != Token::Number ||
        std::from_chars(c->text.data(), c->text.data() + c->text.size(), v).ptr !=
            c->text.data() + c->text.size() ||
        v < 0) {
      syntax(span_of(k),
             "expected the number of iterations (an integer literal, 0 or more), "
             "found " +
                 found(k));
      return false;
    }
    if (v > INT32_MAX) {
      diags_.error("E0004", c->span, "a range has at most 2147483647 iterations", "too many");
      return false;
    }
    if (open_.size() >= kMaxDepth) {
      diags_.error("E0003", n.span, "loops nest at most " + std::to_string(kMaxDepth) + " deep");
      return false;
    }
    n.count = v;
    n.has_value = true;
    n.type = Scalar::I32;
    ++k;
    if (at(k)) {
      if (at(k)->text != "axis" || !at(k + 1) || at(k + 1)->text != "=") {
        syntax(span_of(k),
               "expected `axis=global`, `axis=local` or the end of the line, found " + found(k));
        return false;
      }
      const Token* a = at(k + 2);
      if (a && a->text == "global")
        n.axis = Axis::Global;
      else if (a && a->text == "local")
        n.axis = Axis::Local;
      else {
        syntax(span_of(k + 2), "expected `global` or `local` after `axis=`, found " + found(k + 2));
        return false;
      }
      k += 3;
    }
    return expect_end(n, k);
  }

  bool end(Node& n, size_t k) {
    Operand body, loop;
    int b = lookup(k);
    if (b < 0) return false;
    int l = lookup(k + 1);
    if (l < 0) return false;
    if (prog_.nodes[l].op != Op::Range) {
      syntax(at(k + 1)->span, "`end` closes a `range`, and `%" + at(k + 1)->text + "` is a " +
                                  op_spelling(prog_.nodes[l].op));
      return false;
    }
    if (open_.empty() || open_.back() != l) {
      auto& d = diags_.error(
          "E0001", at(k + 1)->span,
          "`end` closes the innermost open loop, and that is not `%" + at(k + 1)->text + "`",
          "not the innermost loop");
      if (!open_.empty())
        d.secondary.push_back({prog_.nodes[open_.back()].span, "the innermost open loop"});
      return false;
    }
    // The body operand is the loop itself (an empty body) or a node in it.
    bool inside = b == l;
    for (int p = prog_.nodes[b].parent; !inside && p >= 0; p = prog_.nodes[p].parent)
      inside = p == l;
    if (!inside) {
      syntax(at(k)->span,
             "the first operand of `end` is the last instruction of the loop's body, "
             "and `%" +
                 at(k)->text + "` is not in `%" + at(k + 1)->text + "`");
      return false;
    }
    body.node = b;
    body.span = at(k)->span;
    loop.node = l;
    loop.span = at(k + 1)->span;
    n.args = {body, loop};
    return expect_end(n, k + 2);
  }

  bool constant(Node& n, size_t k) {
    Operand o;
    if (!at(k) || at(k)->kind != Token::Number) {
      syntax(span_of(k), "expected a number after `const`, found " + found(k));
      return false;
    }
    operand(k, o);
    Scalar t = o.float_text ? Scalar::F64 : Scalar::I32;
    if (at(k + 1)) {
      auto w = type_word(k + 1);
      if (!w) return false;
      t = *w;
    }
    if (!settle(o, t)) return false;
    n.type = t;
    n.has_value = true;
    n.args = {o};
    return expect_end(n, k + (at(k + 1) ? 2 : 1));
  }

  bool binary(Node& n, size_t k) {
    Operand a, b;
    if (!operand(k, a) || !operand(k + 1, b)) return false;
    Scalar t = a.node >= 0   ? type_of(a)
               : b.node >= 0 ? type_of(b)
                             : (a.float_text || b.float_text ? Scalar::F64 : Scalar::I32);
    if (!settle(a, t) || !settle(b, t)) return false;
    n.type = t;
    n.has_value = true;
    n.args = {a, b};
    return expect_end(n, k + 2);
  }

  bool unary(Node& n, size_t k) {
    Operand a;
    if (!operand(k, a)) return false;
    Scalar t = a.node >= 0 ? type_of(a) : (a.float_text ? Scalar::F64 : Scalar::I32);
    if (!settle(a, t)) return false;
    n.type = t;
    n.has_value = true;
    n.args = {a};
    return expect_end(n, k + 1);
  }

  bool cast(Node& n, size_t k) {
    Operand a;
    if (!operand(k, a)) return false;
    auto t = type_word(k + 1);
    if (!t) return false;
    if (a.node < 0 && !settle(a, a.float_text ? Scalar::F64 : Scalar::I32)) return false;
    n.type = *t;
    n.has_value = true;
    n.args = {a};
    return expect_end(n, k + 2);
  }

  // `%buf I`: a buffer and an integer offset.
  bool access(Node& n, size_t k) {
    int b = lookup(k);
    if (b < 0) return false;
    if (prog_.nodes[b].op != Op::Buffer) {
      diags_.error("E0204", at(k)->span, "`%" + at(k)->text + "` is not a buffer",
                   "loads and stores need a buffer");
      return false;
    }
    Operand buf;
    buf.node = b;
    buf.span = at(k)->span;
    Operand idx;
    if (!operand(k + 1, idx)) return false;
    if (idx.node >= 0 && !is_int(type_of(idx))) {
      diags_.error("E0200", idx.span,
                   std::string("mismatched types: an offset is an integer, found `") +
                       scalar_info(type_of(idx)).name + "`",
                   "expected an integer");
      return false;
    }
    if (idx.node < 0 && !settle(idx, Scalar::I64)) return false;
    n.args = {buf, idx};
    return true;
  }

  bool load(Node& n, size_t k) {
    if (!access(n, k)) return false;
    n.type = prog_.nodes[n.args[0].node].type;
    n.has_value = true;
    return expect_end(n, k + 2);
  }

  bool store(Node& n, size_t k) {
    if (!access(n, k)) return false;
    Operand v;
    if (!operand(k + 2, v)) return false;
    if (!settle(v, prog_.nodes[n.args[0].node].type)) return false;
    n.args.push_back(v);
    return expect_end(n, k + 3);
  }

  bool print(Node& n, size_t k) {
    int b = lookup(k);
    if (b < 0) return false;
    Operand o;
    o.node = b;
    o.span = at(k)->span;
    const Node& target = prog_.nodes[b];
    if (target.op != Op::Buffer && !target.has_value) {
      diags_.error("E0200", o.span, "`print` takes a buffer or a value", "not printable");
      return false;
    }
    n.args = {o};
    if (!at(k + 1)) return true;
    int64_t s = 0, c = 0;
    auto num = [&](size_t j, int64_t& v) {
      const Token* t = at(j);
      return t && t->kind == Token::Number &&
             std::from_chars(t->text.data(), t->text.data() + t->text.size(), v).ptr ==
                 t->text.data() + t->text.size() &&
             v >= 0;
    };
    if (target.op != Op::Buffer || !num(k + 1, s) || !num(k + 2, c)) {
      syntax(span_of(k + 1),
             "expected the end of the line, or START COUNT after a buffer, found " + found(k + 1));
      return false;
    }
    // Both are at least 0, so `c > size - s` cannot overflow where `s + c > size` could.
    if (s > target.size || c > target.size - s) {
      diags_.error("E0206", Span{at(k + 1)->span.begin, at(k + 2)->span.end},
                   std::to_string(c) + (c == 1 ? " element" : " elements") + " from " +
                       std::to_string(s) + " reach outside `%" + target.name + "`, which has " +
                       std::to_string(target.size),
                   "outside the buffer");
      return false;
    }
    n.print_start = s;
    n.print_count = c;
    return expect_end(n, k + 3);
  }

  std::shared_ptr<const SourceFile> file_;
  Diagnostics& diags_;
  Program prog_;
  std::vector<Token> toks_;
  size_t line_end_ = 0;
  std::map<std::string, int> names_;
  std::vector<int> open_;  // the ranges not yet ended, outer first
};

}  // namespace

std::optional<Program> read_uir(std::shared_ptr<const SourceFile> file, Diagnostics& diags) {
  return Reader(std::move(file), diags).read();
}

}  // namespace vx::uir
