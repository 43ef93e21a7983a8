// Rust's core::fmt, for the scalars Vx prints. Floats are decomposed into sign, shortest decimal
// digits and exponent (std::to_chars for f32/f64, a checked search for f16/bf16), then laid out in
// plain or exponent notation; padding follows Formatter::pad, pad_integral and
// pad_formatted_parts, whose rules (sign before zero padding, default alignments) differ slightly.
#include "support/format.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <system_error>

#include "support/half.hpp"
#include "support/utf8.hpp"

namespace vx::fmt {

namespace {

// ---------------------------------------------------------------------------------------------
// UTF-8 helpers (decode_utf8 is support/utf8.hpp's)

size_t count_chars(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xc0) != 0x80) ++n;
  return n;
}

// The byte length of the first `chars` code points of s.
size_t prefix_bytes(std::string_view s, size_t chars) {
  size_t i = 0;
  while (chars > 0 && i < s.size()) {
    decode_utf8(s, i);
    --chars;
  }
  return i;
}

// ---------------------------------------------------------------------------------------------
// Padding, as core::fmt::Formatter does it.

// Formatter::padding: `n` fill characters split by the alignment (or `default_align`).
std::string pad_to(std::string body, size_t body_chars, const Spec& spec, char default_align) {
  if (spec.width < 0 || body_chars >= static_cast<size_t>(spec.width)) return body;
  const size_t n = static_cast<size_t>(spec.width) - body_chars;
  const char align = spec.align ? spec.align : default_align;
  size_t before = align == '<' ? 0 : align == '^' ? n / 2 : n;
  std::string out(before, spec.fill);
  out += body;
  out.append(n - before, spec.fill);
  return out;
}

// Formatter::pad: precision truncates, default alignment left.
std::string pad_text(std::string_view s, const Spec& spec) {
  if (spec.precision >= 0) s = s.substr(0, prefix_bytes(s, static_cast<size_t>(spec.precision)));
  return pad_to(std::string(s), count_chars(s), spec, '<');
}

// Formatter::pad_formatted_parts: with `0`, the sign goes first and zeros fill to the right
// alignment; otherwise the whole is padded, right-aligned by default.
std::string pad_formatted(std::string_view sign, std::string_view body, const Spec& spec) {
  if (spec.width >= 0 && spec.zero_pad) {
    Spec zeros = spec;
    zeros.fill = '0';
    zeros.align = '>';
    zeros.width = std::max(0, spec.width - static_cast<int>(sign.size()));
    return std::string(sign) + pad_to(std::string(body), body.size(), zeros, '>');
  }
  std::string whole = std::string(sign) + std::string(body);
  const size_t len = whole.size();  // ASCII only
  return pad_to(std::move(whole), len, spec, '>');
}

// Formatter::pad_integral: sign, then the # prefix, then the digits; `0` pads between them.
std::string pad_integral(bool nonnegative, std::string_view prefix, std::string_view digits,
                         const Spec& spec) {
  std::string head;
  if (!nonnegative)
    head = "-";
  else if (spec.plus)
    head = "+";
  if (spec.alternate) head += prefix;
  const size_t len = head.size() + digits.size();
  if (spec.width < 0 || len >= static_cast<size_t>(spec.width)) return head + std::string(digits);
  if (spec.zero_pad) return head + std::string(spec.width - len, '0') + std::string(digits);
  return pad_to(head + std::string(digits), len, spec, '>');
}

// ---------------------------------------------------------------------------------------------
// Floats

struct Decimal {
  std::string digits;  // significant digits, no leading zeros (just "0" for zero)
  int exp = 0;         // value = d.ddd × 10^exp
};

// Parses to_chars' scientific output ("1.5e+03", "1e-07") of a non-negative value.
Decimal parse_scientific(std::string_view s) {
  Decimal d;
  size_t i = 0;
  for (; i < s.size() && s[i] != 'e'; ++i)
    if (s[i] != '.') d.digits += s[i];
  if (i < s.size()) {
    int e = 0;
    std::from_chars(s.data() + i + (s[i + 1] == '+' ? 2 : 1), s.data() + s.size(), e);
    d.exp = e;
  }
  return d;
}

void strip_trailing_zeros(Decimal& d) {
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
}

template <class T>
Decimal shortest_native(T v) {  // v finite, >= 0
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  Decimal d = parse_scientific(std::string_view(buf, r.ptr - buf));
  strip_trailing_zeros(d);
  return d;
}

// The shortest decimal that reads back (through `back`, which rounds a double to the small
// format) to the same bits; among the shortest, the closest to the value, as Grisu/Ryu choose.
template <class Back>
Decimal shortest_small(double v, uint16_t bits, Back back) {
  if (v == 0) return Decimal{"0", 0};
  for (int p = 1; p <= 17; ++p) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, p - 1);
    Decimal nearest = parse_scientific(std::string_view(buf, r.ptr - buf));
    // The candidates are the correctly rounded p-digit decimal and its neighbours: at a power of
    // two the rounding interval is lopsided and a neighbour may read back when it does not.
    uint64_t mant = 0;  // at most 17 digits
    std::from_chars(nearest.digits.data(), nearest.digits.data() + nearest.digits.size(), mant);
    const int scale = nearest.exp - (p - 1);
    bool found = false;
    Decimal best;
    double best_dist = 0;
    for (int delta : {0, -1, 1}) {
      if (delta == -1 && mant == 0) continue;
      const uint64_t m = mant + delta;
      if (m == 0) continue;
      std::string text = std::to_string(m) + "e" + std::to_string(scale);
      double value = 0;
      std::from_chars(text.data(), text.data() + text.size(), value);
      if (back(value) != bits) continue;
      const double dist = std::fabs(value - v);
      if (!found || dist < best_dist) {
        found = true;
        best_dist = dist;
        best.digits = std::to_string(m);
        best.exp = scale + static_cast<int>(best.digits.size()) - 1;
      }
    }
    if (found) {
      strip_trailing_zeros(best);
      return best;
    }
  }
  return shortest_native(v);  // unreachable for 16-bit formats
}

// Plain notation: "65", "0.0000001", "100000000000000000000"; at least `min_frac` fraction digits.
std::string plain(const Decimal& d, int min_frac) {
  std::string out;
  const int n = static_cast<int>(d.digits.size());
  int frac_digits;
  if (d.digits == "0") {
    out = "0";
    frac_digits = 0;
  } else if (d.exp >= n - 1) {
    out = d.digits;
    out.append(d.exp - (n - 1), '0');
    frac_digits = 0;
  } else if (d.exp >= 0) {
    out = d.digits.substr(0, d.exp + 1) + "." + d.digits.substr(d.exp + 1);
    frac_digits = n - (d.exp + 1);
  } else {
    out = "0.";
    out.append(-d.exp - 1, '0');
    out += d.digits;
    frac_digits = n - d.exp - 1;
  }
  if (frac_digits < min_frac) {
    if (frac_digits == 0) out += '.';
    out.append(min_frac - frac_digits, '0');
  }
  return out;
}

// Exponent notation as Rust writes it: "1e-7", "1.5e2", "1.50E2" (no '+', no leading zeros).
std::string exponential(const Decimal& d, bool upper) {
  std::string out(1, d.digits[0]);
  if (d.digits.size() > 1) out += "." + d.digits.substr(1);
  out += upper ? 'E' : 'e';
  out += std::to_string(d.digits == "0" ? 0 : d.exp);
  return out;
}

enum class FloatClass { Finite, Inf, NaN };

// Everything a float's formatting needs: the shortest digits at its own precision, the exact
// value (every format here widens exactly to double), and the thresholds of Debug's switch to
// exponent notation (1e-4 and 1e16 rounded to the type, compared in the type).
struct FloatValue {
  FloatClass cls = FloatClass::Finite;
  bool negative = false;
  double magnitude = 0;  // exact
  Decimal shortest;
  double small_limit = 1e-4;
  double large_limit = 1e16;
};

std::string format_float(const FloatValue& f, const Spec& spec) {
  std::string sign;
  if (f.cls != FloatClass::NaN) {
    if (f.negative)
      sign = "-";
    else if (spec.plus)
      sign = "+";
  }
  std::string body;
  if (f.cls == FloatClass::NaN) {
    body = "NaN";
  } else if (f.cls == FloatClass::Inf) {
    body = "inf";
  } else if (spec.kind == 'e' || spec.kind == 'E') {
    if (spec.precision >= 0) {
      std::string buf(static_cast<size_t>(spec.precision) + 64, '\0');
      auto r = std::to_chars(buf.data(), buf.data() + buf.size(), f.magnitude,
                             std::chars_format::scientific, spec.precision);
      body = exponential(parse_scientific(std::string_view(buf.data(), r.ptr - buf.data())),
                         spec.kind == 'E');
    } else {
      body = exponential(f.shortest, spec.kind == 'E');
    }
  } else if (spec.precision >= 0) {
    // 310 integer digits at most, then exactly `precision` fraction digits.
    std::string buf(static_cast<size_t>(spec.precision) + 400, '\0');
    auto r = std::to_chars(buf.data(), buf.data() + buf.size(), f.magnitude,
                           std::chars_format::fixed, spec.precision);
    body.assign(buf.data(), r.ptr);
  } else if (spec.kind == '?') {
    const double a = f.magnitude;
    if ((a != 0 && a < f.small_limit) || a >= f.large_limit)
      body = exponential(f.shortest, false);
    else
      body = plain(f.shortest, 1);
  } else {
    body = plain(f.shortest, 0);
  }
  return pad_formatted(sign, body, spec);
}

template <class T>
FloatValue classify(T v) {
  FloatValue f;
  if (std::isnan(v)) {
    f.cls = FloatClass::NaN;
    return f;
  }
  f.negative = std::signbit(v);
  if (std::isinf(v)) {
    f.cls = FloatClass::Inf;
    return f;
  }
  f.magnitude = std::fabs(static_cast<double>(v));
  return f;
}

// Integer exponent notation (core::fmt::num's exp_u64): trailing zeros become the exponent and a
// precision rounds the decimal digits half to even.
std::string int_exponential(bool negative, uint64_t magnitude, const Spec& spec) {
  std::string digits = std::to_string(magnitude);
  int exp = static_cast<int>(digits.size()) - 1;
  Decimal d{digits, exp};
  if (spec.precision >= 0) {
    const size_t keep = static_cast<size_t>(spec.precision) + 1;
    if (d.digits.size() > keep) {
      const std::string dropped = d.digits.substr(keep);
      d.digits.resize(keep);
      const bool above_half =
          dropped[0] > '5' ||
          (dropped[0] == '5' && dropped.find_first_not_of('0', 1) != std::string::npos);
      const bool tie = dropped[0] == '5' && !above_half;
      if (above_half || (tie && (d.digits.back() - '0') % 2 == 1)) {
        int i = static_cast<int>(d.digits.size()) - 1;
        while (i >= 0 && d.digits[i] == '9') d.digits[i--] = '0';
        if (i >= 0) {
          ++d.digits[i];
        } else {
          d.digits.insert(d.digits.begin(), '1');
          d.digits.pop_back();
          ++d.exp;
        }
      }
    } else {
      d.digits.append(keep - d.digits.size(), '0');
    }
  } else {
    strip_trailing_zeros(d);
  }
  std::string sign = negative ? "-" : spec.plus ? "+" : "";
  return pad_formatted(sign, exponential(d, spec.kind == 'E'), spec);
}

std::string radix_digits(uint64_t v, int radix, bool upper) {
  const char* table = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  if (v == 0) return "0";
  std::string out;
  while (v) {
    out += table[v % radix];
    v /= radix;
  }
  return std::string(out.rbegin(), out.rend());
}

std::string format_integer(bool nonnegative, uint64_t magnitude, uint64_t raw, const Spec& spec) {
  switch (spec.kind) {
    case 'x':
      return pad_integral(true, "0x", radix_digits(raw, 16, false), spec);
    case 'X':
      return pad_integral(true, "0x", radix_digits(raw, 16, true), spec);
    case 'b':
      return pad_integral(true, "0b", radix_digits(raw, 2, false), spec);
    case 'o':
      return pad_integral(true, "0o", radix_digits(raw, 8, false), spec);
    case 'e':
    case 'E':
      return int_exponential(!nonnegative, magnitude, spec);
    default:
      return pad_integral(nonnegative, "", std::to_string(magnitude), spec);
  }
}

// Rust's char::is_printable, for the code points a Vx string can plausibly hold: controls,
// format characters, separators other than ' ', private use and noncharacters print escaped.
bool is_printable(uint32_t c) {
  if (c < 0x20 || c == 0x7f) return false;
  if (c < 0x7f) return true;
  if (c <= 0xa0) return false;  // C1 controls and NO-BREAK SPACE (Zs)
  if (c == 0xad || c == 0x34f || c == 0x61c || c == 0x6dd || c == 0x70f || c == 0x180e ||
      c == 0x1680 || c == 0x202f || c == 0x205f || c == 0x3000 || c == 0xfeff)
    return false;
  if (c >= 0x600 && c <= 0x605) return false;
  if (c >= 0x2000 && c <= 0x200f) return false;
  if (c >= 0x2028 && c <= 0x202e) return false;
  if (c >= 0x2060 && c <= 0x206f) return false;
  if (c >= 0xd7fc && c <= 0xf8ff) return false;  // unassigned, surrogates, private use
  if (c >= 0xfff0 && c <= 0xfffb) return false;
  if ((c & 0xfffe) == 0xfffe) return false;  // noncharacters
  if (c >= 0xe0000 && c <= 0xe0fff) return false;
  if (c >= 0xf0000) return false;
  return true;
}

bool is_grapheme_extend(uint32_t c) {
  return (c >= 0x300 && c <= 0x36f) || (c >= 0x1ab0 && c <= 0x1aff) ||
         (c >= 0x1dc0 && c <= 0x1dff) || (c >= 0x20d0 && c <= 0x20ff) ||
         (c >= 0xfe20 && c <= 0xfe2f);
}

// Rust's escape_debug of one code point inside `quote` (str: `"`, char: `'`): the quote itself
// is escaped, the other quote is not.
void escape_debug(std::string& out, uint32_t c, char quote) {
  switch (c) {
    case '\t':
      out += "\\t";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\\':
      out += "\\\\";
      return;
    case '\0':
      out += "\\0";
      return;
  }
  if (c == static_cast<unsigned char>(quote)) {
    out += '\\';
    out += quote;
  } else if (!is_printable(c) || is_grapheme_extend(c)) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "\\u{%x}", c);
    out += hex;
  } else {
    append_utf8(out, c);
  }
}

std::string debug_str(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) escape_debug(out, decode_utf8(s, i), '"');
  out += '"';
  return out;
}

// ---------------------------------------------------------------------------------------------
// Format string parsing

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

class FormatParser {
 public:
  FormatParser(std::string_view fmt, std::vector<Piece>& out) : s_(fmt), out_(out) {}

  bool run(std::string& error, uint32_t& error_offset) {
    std::string literal;
    uint32_t literal_start = 0;
    auto flush = [&] {
      if (!literal.empty()) {
        Piece p;
        p.literal = std::move(literal);
        p.offset = literal_start;
        out_.push_back(std::move(p));
        literal.clear();
      }
    };
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '{' && i_ + 1 < s_.size() && s_[i_ + 1] == '{') {
        if (literal.empty()) literal_start = static_cast<uint32_t>(i_);
        literal += '{';
        i_ += 2;
      } else if (c == '}' && i_ + 1 < s_.size() && s_[i_ + 1] == '}') {
        if (literal.empty()) literal_start = static_cast<uint32_t>(i_);
        literal += '}';
        i_ += 2;
      } else if (c == '}') {
        return fail("invalid format string: unmatched `}` found (write `}}` for a literal `}`)", i_,
                    error, error_offset);
      } else if (c == '{') {
        flush();
        Piece p;
        if (!argument(p)) {
          error = error_;
          error_offset = error_at_;
          return false;
        }
        out_.push_back(std::move(p));
      } else {
        if (literal.empty()) literal_start = static_cast<uint32_t>(i_);
        literal += c;
        ++i_;
      }
    }
    flush();
    return true;
  }

 private:
  static bool fail(std::string msg, size_t at, std::string& error, uint32_t& error_offset) {
    error = std::move(msg);
    error_offset = static_cast<uint32_t>(at);
    return false;
  }
  bool fail(std::string msg, size_t at) {
    error_ = std::move(msg);
    error_at_ = static_cast<uint32_t>(at);
    return false;
  }

  bool at_end() const { return i_ >= s_.size(); }
  char peek(size_t k = 0) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }

  std::string found() const {
    if (at_end()) return "the end of the string";
    size_t j = i_;
    decode_utf8(s_, j);
    return "`" + std::string(s_.substr(i_, j - i_)) + "`";
  }

  // Reads a decimal count (width, precision, index) of at most 65535.
  bool count(int& value, const char* what) {
    const size_t start = i_;
    long v = 0;
    while (is_digit(peek())) {
      v = v * 10 + (peek() - '0');
      if (v > 65535)
        return fail(std::string("invalid format string: ") + what + " too large", start);
      ++i_;
    }
    value = static_cast<int>(v);
    return true;
  }

  // format := '{' [ argument ] [ ':' format_spec ] '}'
  bool argument(Piece& p) {
    const size_t open = i_;
    p.is_arg = true;
    p.offset = static_cast<uint32_t>(open);
    ++i_;
    if (is_digit(peek())) {
      if (!count(p.arg_index, "argument index")) return false;
    } else if (is_ident_start(peek())) {
      const size_t start = i_;
      while (is_ident_char(peek())) ++i_;
      p.name = std::string(s_.substr(start, i_ - start));
      if (p.name == "_") return fail("invalid format string: invalid argument name `_`", start);
    }
    if (peek() == ':') {
      ++i_;
      if (!spec(p.spec)) return false;
    }
    if (at_end())
      return fail(
          "invalid format string: expected `}` but string was terminated (write `{{` "
          "for a literal `{`)",
          open);
    if (peek() != '}') return fail("invalid format string: expected `}`, found " + found(), i_);
    ++i_;
    return true;
  }

  static bool is_align(char c) { return c == '<' || c == '^' || c == '>'; }

  // format_spec := [[fill]align][sign]['#']['0'][width]['.' precision][type]
  bool spec(Spec& sp) {
    if (!at_end()) {
      size_t j = i_;
      const uint32_t first = decode_utf8(s_, j);
      if (j < s_.size() && is_align(s_[j])) {
        if (first >= 0x80) return fail("non-ASCII fill characters are not supported", i_);
        sp.fill = static_cast<char>(first);
        sp.align = s_[j];
        i_ = j + 1;
      } else if (is_align(peek())) {
        sp.align = peek();
        ++i_;
      }
    }
    if (peek() == '+') {
      sp.plus = true;
      ++i_;
    } else if (peek() == '-') {
      ++i_;  // accepted and, as in Rust, without effect
    }
    if (peek() == '#') {
      sp.alternate = true;
      ++i_;
    }
    if (peek() == '0' && peek(1) != '$') {
      sp.zero_pad = true;
      ++i_;
    }
    if (is_digit(peek())) {
      const size_t start = i_;
      if (!count(sp.width, "width")) return false;
      if (peek() == '$') return fail("width taken from an argument (`N$`) is not supported", start);
    } else if (is_ident_start(peek())) {
      size_t j = i_;
      while (j < s_.size() && is_ident_char(s_[j])) ++j;
      if (j < s_.size() && s_[j] == '$')
        return fail("width taken from an argument (`name$`) is not supported", i_);
    }
    if (peek() == '.') {
      ++i_;
      if (peek() == '*') return fail("precision `.*` is not supported", i_);
      if (!is_digit(peek()))
        return fail("invalid format string: expected a precision after `.`, found " + found(), i_);
      const size_t start = i_;
      if (!count(sp.precision, "precision")) return false;
      if (peek() == '$')
        return fail("precision taken from an argument (`N$`) is not supported", start);
    }
    if (peek() == '?') {
      sp.kind = '?';
      ++i_;
    } else if (is_ident_start(peek())) {
      const size_t start = i_;
      while (is_ident_char(peek())) ++i_;
      const std::string_view trait = s_.substr(start, i_ - start);
      if ((trait == "x" || trait == "X") && peek() == '?')
        return fail("the hexadecimal Debug format (`x?`) is not supported", start);
      if (trait == "x" || trait == "X" || trait == "b" || trait == "o" || trait == "e" ||
          trait == "E")
        sp.kind = trait[0];
      else
        return fail("unknown format trait `" + std::string(trait) +
                        "` (expected one of `?`, `x`, `X`, `b`, `o`, `e`, `E`)",
                    start);
    }
    return true;
  }

  std::string_view s_;
  std::vector<Piece>& out_;
  size_t i_ = 0;
  std::string error_;
  uint32_t error_at_ = 0;
};

}  // namespace

bool parse_format(std::string_view fmt, std::vector<Piece>& out, std::string& error,
                  uint32_t& error_offset) {
  FormatParser parser(fmt, out);
  return parser.run(error, error_offset);
}

std::string check_spec(const Spec& spec, ArgClass c) {
  const char* type = c == ArgClass::Integer ? "an integer"
                     : c == ArgClass::Float ? "a float"
                     : c == ArgClass::Bool  ? "a bool"
                     : c == ArgClass::Char  ? "a char"
                                            : "a string";
  switch (spec.kind) {
    case 0:
    case '?':
      return {};
    case 'x':
    case 'X':
    case 'b':
    case 'o':
      if (c == ArgClass::Integer) return {};
      return std::string("`{:") + spec.kind + "}` formats integers only, not " + type;
    case 'e':
    case 'E':
      if (c == ArgClass::Integer || c == ArgClass::Float) return {};
      return std::string("`{:") + spec.kind + "}` formats numbers only, not " + type;
  }
  return "unknown format kind";
}

std::string format_f64(double v, const Spec& spec) {
  FloatValue f = classify(v);
  if (f.cls == FloatClass::Finite) f.shortest = shortest_native(f.magnitude);
  return format_float(f, spec);
}

std::string format_f32(float v, const Spec& spec) {
  FloatValue f = classify(v);
  if (f.cls == FloatClass::Finite) f.shortest = shortest_native(std::fabs(v));
  f.small_limit = static_cast<double>(1e-4f);
  f.large_limit = static_cast<double>(1e16f);
  return format_float(f, spec);
}

std::string format_f16_bits(uint16_t bits, const Spec& spec) {
  FloatValue f = classify(f16_bits_to_f32(bits));
  if (f.cls == FloatClass::Finite)
    f.shortest =
        shortest_small(f.magnitude, bits & 0x7fff, [](double d) { return f64_to_f16_bits(d); });
  f.small_limit = f16_bits_to_f32(f64_to_f16_bits(1e-4));
  f.large_limit = std::numeric_limits<double>::infinity();  // 1e16 is infinite in f16
  return format_float(f, spec);
}

std::string format_bf16_bits(uint16_t bits, const Spec& spec) {
  FloatValue f = classify(bf16_bits_to_f32(bits));
  if (f.cls == FloatClass::Finite)
    f.shortest =
        shortest_small(f.magnitude, bits & 0x7fff, [](double d) { return f64_to_bf16_bits(d); });
  f.small_limit = bf16_bits_to_f32(f64_to_bf16_bits(1e-4));
  f.large_limit = bf16_bits_to_f32(f64_to_bf16_bits(1e16));
  return format_float(f, spec);
}

std::string format_i64(int64_t v, const Spec& spec, int bits) {
  const uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  uint64_t raw = static_cast<uint64_t>(v);
  if (bits > 0 && bits < 64) raw &= (uint64_t{1} << bits) - 1;
  return format_integer(v >= 0, magnitude, raw, spec);
}

std::string format_u64(uint64_t v, const Spec& spec) { return format_integer(true, v, v, spec); }

std::string format_bool(bool v, const Spec& spec) { return pad_text(v ? "true" : "false", spec); }

std::string format_str(std::string_view s, const Spec& spec) {
  if (spec.kind == '?') return debug_str(s);
  return pad_text(s, spec);
}

std::string format_char(uint32_t c, const Spec& spec) {
  std::string out;
  if (spec.kind == '?') {
    out = "'";
    escape_debug(out, c, '\'');
    return out + "'";
  }
  append_utf8(out, c);
  return pad_text(out, spec);
}

}  // namespace vx::fmt
