// Rust format strings and value formatting, for println!/print!/assert! (spec/formatting.md,
// DESIGN §3.5). parse_format splits a format string into literal and argument pieces (the checker
// refuses bad ones with E0501); the format_* functions render one value under one spec exactly as
// Rust's core::fmt does: shortest round-trip floats in plain notation, Debug adding ".0", exact
// rounding under a precision, width/fill/alignment, sign-aware zero padding, # prefixes.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vx::fmt {

struct Spec {
  char fill = ' ';
  char align = 0;  // '<' '>' '^', or 0 for the type's default (numbers right, text left)
  bool plus = false;
  bool alternate = false;
  bool zero_pad = false;
  int width = -1;
  int precision = -1;
  char kind = 0;  // 0 Display, '?' Debug, 'x' 'X' 'b' 'o' 'e' 'E'
};

struct Piece {
  std::string literal;  // text to print as is (escapes already resolved); set when !is_arg
  bool is_arg = false;
  int arg_index = -1;  // explicit `{0}`; -1 = the next implicit argument (or `name` when set)
  std::string name;    // `{name}`: an inline captured variable
  Spec spec;
  uint32_t offset = 0;  // byte offset of the '{' (or of the literal) within the format string
};

// Parses a Rust format string ({{ and }} escapes); on error returns false and sets a message and
// the byte offset it points at.
bool parse_format(std::string_view fmt, std::vector<Piece>& out, std::string& error,
                  uint32_t& error_offset);

// The kind of value an argument is, for check_spec.
enum class ArgClass { Integer, Float, Bool, Char, Str };
// Empty when `spec` can format a value of class `c` (as Rust's traits allow: `{:x}` needs an
// integer, `{:e}` a number); otherwise the message for E0501.
std::string check_spec(const Spec& spec, ArgClass c);

std::string format_f64(double v, const Spec& spec);
std::string format_f32(float v, const Spec& spec);
std::string format_f16_bits(uint16_t bits, const Spec& spec);
std::string format_bf16_bits(uint16_t bits, const Spec& spec);
// `bits` (8..64) is the width of the signed type, for the two's complement of negatives under
// {:x} {:X} {:b} {:o}.
std::string format_i64(int64_t v, const Spec& spec, int bits);
std::string format_u64(uint64_t v, const Spec& spec);
std::string format_bool(bool v, const Spec& spec);
// Display pads and truncates (precision); Debug quotes and escapes like Rust and ignores width.
std::string format_str(std::string_view s, const Spec& spec);
// A char (a Unicode scalar value): Display as its UTF-8, padded like a string; Debug in single
// quotes with Rust's char escapes (`'\''`, `'\n'`, `'\u{301}'`), ignoring width.
std::string format_char(uint32_t c, const Spec& spec);

}  // namespace vx::fmt
