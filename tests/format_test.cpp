// The value formatter and format-string parser against what Rust prints (rustc 1.7x, core::fmt).
#include "support/format.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>

#include "support/half.hpp"

using namespace vx;
using namespace vx::fmt;

namespace {

// Parses a single-argument format string like "{:>8.3}" into its spec.
Spec spec_of(std::string_view f) {
  std::vector<Piece> pieces;
  std::string error;
  uint32_t at = 0;
  REQUIRE_MESSAGE(parse_format(f, pieces, error, at), error);
  REQUIRE(pieces.size() == 1);
  REQUIRE(pieces[0].is_arg);
  return pieces[0].spec;
}

std::string f64(const char* f, double v) { return format_f64(v, spec_of(f)); }
std::string f32(const char* f, float v) { return format_f32(v, spec_of(f)); }
std::string i64(const char* f, int64_t v, int bits = 64) { return format_i64(v, spec_of(f), bits); }
std::string u64(const char* f, uint64_t v) { return format_u64(v, spec_of(f)); }
std::string str(const char* f, std::string_view v) { return format_str(v, spec_of(f)); }
std::string boolean(const char* f, bool v) { return format_bool(v, spec_of(f)); }
std::string f16(const char* f, float v) { return format_f16_bits(f32_to_f16_bits(v), spec_of(f)); }
std::string bf16(const char* f, float v) {
  return format_bf16_bits(f32_to_bf16_bits(v), spec_of(f));
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("f64 Display: shortest round trip, plain notation") {
  CHECK(f64("{}", 2.0) == "2");
  CHECK(f64("{}", 65.0) == "65");
  CHECK(f64("{}", 0.1) == "0.1");
  CHECK(f64("{}", 1.5) == "1.5");
  CHECK(f64("{}", -1.5) == "-1.5");
  CHECK(f64("{}", 1e-7) == "0.0000001");
  CHECK(f64("{}", 1e20) == "100000000000000000000");
  CHECK(f64("{}", 1e15) == "1000000000000000");
  CHECK(f64("{}", 0.1 + 0.2) == "0.30000000000000004");
  CHECK(f64("{}", 1.0 / 3.0) == "0.3333333333333333");
  CHECK(f64("{}", 123456789.0) == "123456789");
  CHECK(f64("{}", 9007199254740993.0) == "9007199254740992");
  CHECK(f64("{}", 0.000123) == "0.000123");
  CHECK(f64("{}", 0.0) == "0");
  CHECK(f64("{}", -0.0) == "-0");
  CHECK(f64("{}", kNaN) == "NaN");
  CHECK(f64("{}", -kNaN) == "NaN");
  CHECK(f64("{}", kInf) == "inf");
  CHECK(f64("{}", -kInf) == "-inf");
  CHECK(f64("{}", 5e-324) == "0." + std::string(323, '0') + "5");
  CHECK(f64("{}", std::numeric_limits<double>::max()) ==
        "17976931348623157" + std::string(292, '0'));
}

TEST_CASE("f64 Debug: .0 on whole numbers, exponent outside [1e-4, 1e16)") {
  CHECK(f64("{:?}", 2.0) == "2.0");
  CHECK(f64("{:?}", 65.0) == "65.0");
  CHECK(f64("{:?}", 0.1) == "0.1");
  CHECK(f64("{:?}", 0.0) == "0.0");
  CHECK(f64("{:?}", -0.0) == "-0.0");
  CHECK(f64("{:?}", -2.5) == "-2.5");
  CHECK(f64("{:?}", 1e15) == "1000000000000000.0");
  CHECK(f64("{:?}", 1e16) == "1e16");
  CHECK(f64("{:?}", 1e20) == "1e20");
  CHECK(f64("{:?}", 12345678901234567890.0) == "1.2345678901234567e19");
  CHECK(f64("{:?}", 0.0001) == "0.0001");
  CHECK(f64("{:?}", 0.00001) == "1e-5");
  CHECK(f64("{:?}", 1.5e-5) == "1.5e-5");
  CHECK(f64("{:?}", 1e-7) == "1e-7");
  CHECK(f64("{:?}", kNaN) == "NaN");
  CHECK(f64("{:?}", -kInf) == "-inf");
  CHECK(f64("{:#?}", 3.0) == "3.0");
  CHECK(f64("{:8?}", 2.0) == "     2.0");
  CHECK(f64("{:.2?}", 1.0) == "1.00");
  CHECK(f64("{:.1?}", 1e20) == "100000000000000000000.0");
}

TEST_CASE("f64 precision rounds the exact binary value, ties to even") {
  CHECK(f64("{:.2}", 3.14159) == "3.14");
  CHECK(f64("{:.3}", 1.0) == "1.000");
  CHECK(f64("{:.0}", 0.5) == "0");
  CHECK(f64("{:.0}", 1.5) == "2");
  CHECK(f64("{:.0}", 2.5) == "2");
  CHECK(f64("{:.1}", 0.25) == "0.2");
  CHECK(f64("{:.1}", 0.35) == "0.3");    // 0.34999999999999997779…
  CHECK(f64("{:.2}", 1.005) == "1.00");  // 1.00499999999999989…
  CHECK(f64("{:.2}", -0.001) == "-0.00");
  CHECK(f64("{:.1}", 1e20) == "100000000000000000000.0");
  CHECK(f64("{:.20}", 0.1) == "0.10000000000000000555");
  CHECK(f64("{:.2}", kNaN) == "NaN");
  CHECK(f64("{:.2}", -kInf) == "-inf");
  CHECK(f64("{:.0}", 0.0) == "0");
  CHECK(f64("{:.3}", -0.0) == "-0.000");
  CHECK(f64("{:.60}", 1.0).size() == 62);
}

TEST_CASE("LowerExp and UpperExp of floats") {
  CHECK(f64("{:e}", 1500.0) == "1.5e3");
  CHECK(f64("{:e}", 1.0) == "1e0");
  CHECK(f64("{:e}", 0.0) == "0e0");
  CHECK(f64("{:e}", -0.0) == "-0e0");
  CHECK(f64("{:e}", 1e-7) == "1e-7");
  CHECK(f64("{:e}", 123456.0) == "1.23456e5");
  CHECK(f64("{:e}", 0.1 + 0.2) == "3.0000000000000004e-1");
  CHECK(f64("{:E}", 1500.0) == "1.5E3");
  CHECK(f64("{:E}", 1e-7) == "1E-7");
  CHECK(f64("{:.2e}", 1500.0) == "1.50e3");
  CHECK(f64("{:.0e}", 1500.0) == "2e3");
  CHECK(f64("{:.0e}", 2500.0) == "2e3");
  CHECK(f64("{:.3e}", 0.0) == "0.000e0");
  CHECK(f64("{:e}", kNaN) == "NaN");
  CHECK(f64("{:E}", kInf) == "inf");
  CHECK(f64("{:+e}", 2.0) == "+2e0");
  CHECK(f64("{:10.1e}", 1234.5) == "     1.2e3");
  CHECK(f64("{:010.1e}", -1234.5) == "-00001.2e3");
  CHECK(f32("{:e}", 0.1f) == "1e-1");
}

TEST_CASE("f32 uses f32's shortest digits") {
  CHECK(f32("{}", 0.1f) == "0.1");
  CHECK(f32("{}", 0.3f) == "0.3");
  CHECK(f32("{}", 1e-7f) == "0.0000001");
  CHECK(f32("{}", 16777217.0f) == "16777216");
  CHECK(f32("{}", std::numeric_limits<float>::max()) == "340282350000000000000000000000000000000");
  CHECK(f32("{}", 3.14159265f) == "3.1415927");
  CHECK(f32("{}", -0.0f) == "-0");
  CHECK(f32("{:?}", 16777216.0f) == "16777216.0");
  CHECK(f32("{:?}", 1.1f) == "1.1");
  CHECK(f32("{:?}", 1e-5f) == "1e-5");
  CHECK(f32("{:?}", 1e16f) == "1e16");
  CHECK(f32("{:?}", 1e-4f) == "0.0001");
  CHECK(f32("{:.10}", 0.1f) == "0.1000000015");
  CHECK(f32("{}", std::numeric_limits<float>::denorm_min()) == "0." + std::string(44, '0') + "1");
}

TEST_CASE("f16 and bf16 print the shortest decimal at their own precision") {
  CHECK(f16("{}", 0.1f) == "0.1");
  CHECK(f16("{}", 1.0f) == "1");
  CHECK(f16("{:?}", 1.0f) == "1.0");
  CHECK(f16("{}", 65504.0f) == "65500");  // f16::MAX: 65500 reads back to it
  CHECK(f16("{:?}", 65504.0f) == "65500.0");
  CHECK(f16("{:.0}", 65504.0f) == "65504");
  CHECK(f16("{}", 1.0f / 3.0f) == "0.3333");
  CHECK(f16("{}", 2.0f) == "2");
  CHECK(f16("{}", -1.5f) == "-1.5");
  CHECK(f16("{}", std::ldexp(1.0f, -24)) == "0.00000006");
  CHECK(f16("{:?}", std::ldexp(1.0f, -24)) == "6e-8");
  CHECK(f16("{}", 1e-4f) == "0.0001");
  CHECK(f16("{:?}", 1e-4f) == "0.0001");
  CHECK(f16("{:?}", 9e-5f) == "9e-5");
  CHECK(f16("{}", 1.0f + 1.0f / 1024) == "1.001");
  CHECK(f16("{}", 1e6f) == "inf");
  CHECK(f16("{}", -0.0f) == "-0");
  CHECK(f16("{:.3}", 0.1f) == "0.100");  // 0.0999755859375
  CHECK(f16("{:.6}", 0.1f) == "0.099976");
  CHECK(bf16("{}", 0.1f) == "0.1");
  CHECK(bf16("{}", 3.14159265f) == "3.14");
  CHECK(bf16("{}", 1.0f) == "1");
  CHECK(bf16("{:?}", 256.0f) == "256.0");
  CHECK(bf16("{}", 257.0f) == "256");
  CHECK(bf16("{:?}", 1e20f) == "1e20");
  CHECK(format_bf16_bits(0x7fc0, Spec{}) == "NaN");
  CHECK(format_f16_bits(0xfc00, Spec{}) == "-inf");
}

TEST_CASE("every f16 and bf16 prints a decimal that reads back to the same bits") {
  int bad = 0;
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const auto bits = static_cast<uint16_t>(b);
    if ((bits & 0x7c00) != 0x7c00) {
      const std::string s = format_f16_bits(bits, Spec{});
      if (f64_to_f16_bits(std::strtod(s.c_str(), nullptr)) != bits && bad++ < 5)
        FAIL_CHECK("f16 " << bits << " printed " << s);
    }
    if ((bits & 0x7f80) != 0x7f80) {
      const std::string s = format_bf16_bits(bits, Spec{});
      if (f64_to_bf16_bits(std::strtod(s.c_str(), nullptr)) != bits && bad++ < 5)
        FAIL_CHECK("bf16 " << bits << " printed " << s);
    }
  }
  CHECK(bad == 0);
}

TEST_CASE("random f64 and f32 round trip through Display and Debug") {
  std::mt19937_64 rng(42);
  Spec debug;
  debug.kind = '?';
  int bad = 0;
  for (int i = 0; i < 20000; ++i) {
    const double d = std::bit_cast<double>(rng());
    const float f = std::bit_cast<float>(static_cast<uint32_t>(rng()));
    if (!std::isfinite(d) || !std::isfinite(f)) continue;
    const std::string shown = format_f64(d, Spec{});
    const std::string debugged = format_f64(d, debug);
    const std::string shown32 = format_f32(f, Spec{});
    if ((std::strtod(shown.c_str(), nullptr) != d || std::strtod(debugged.c_str(), nullptr) != d ||
         std::strtof(shown32.c_str(), nullptr) != f) &&
        bad++ < 5)
      FAIL_CHECK(shown << " / " << debugged << " / " << shown32);
  }
  CHECK(bad == 0);
}

TEST_CASE("width, fill, alignment, sign and zero padding") {
  CHECK(f64("{:>8}", 1.5) == "     1.5");
  CHECK(f64("{:8}", 1.5) == "     1.5");
  CHECK(f64("{:<8}", 1.5) == "1.5     ");
  CHECK(f64("{:^8}", 1.5) == "  1.5   ");
  CHECK(f64("{:^6.1}", 1.25) == " 1.2  ");
  CHECK(f64("{:+}", 0.0) == "+0");
  CHECK(f64("{:+}", -0.0) == "-0");
  CHECK(f64("{:+}", 1.5) == "+1.5");
  CHECK(f64("{:+}", kNaN) == "NaN");
  CHECK(f64("{:+}", kInf) == "+inf");
  CHECK(f64("{:08.3}", -1.5) == "-001.500");
  CHECK(f64("{:08.3}", 1.5) == "0001.500");
  CHECK(f64("{:+08.3}", 1.5) == "+001.500");
  CHECK(f64("{:<08.3}", 1.5) == "0001.500");  // `0` overrides the alignment
  CHECK(f64("{:05}", kNaN) == "00NaN");
  CHECK(f64("{:06}", -kInf) == "-00inf");
  CHECK(f64("{:*>7}", 2.0) == "******2");
  CHECK(f64("{:03}", 123.25) == "123.25");  // narrower than the value: no padding
  CHECK(i64("{:8}", 42) == "      42");
  CHECK(i64("{:<5}", -42) == "-42  ");
  CHECK(i64("{:5}", -42) == "  -42");
  CHECK(i64("{:^7}", 42) == "  42   ");
  CHECK(i64("{:05}", 42) == "00042");
  CHECK(i64("{:05}", -42) == "-0042");
  CHECK(i64("{:<05}", 42) == "00042");
  CHECK(i64("{:^05}", -42) == "-0042");
  CHECK(i64("{:+}", 5) == "+5");
  CHECK(i64("{:+}", -5) == "-5");
  CHECK(i64("{:+}", 0) == "+0");
  CHECK(i64("{:+05}", 7) == "+0007");
  CHECK(i64("{:0>5}", -7) == "000-7");  // a fill of '0' is not sign-aware
  CHECK(str("{:*^9}", "hi") == "***hi****");
  CHECK(str("{:8}", "hi") == "hi      ");
  CHECK(str("{:>8}", "hi") == "      hi");
  CHECK(str("{:05}", "ab") == "ab   ");              // `0` is for numbers
  CHECK(str("{:5}", "\xc3\xa9") == "\xc3\xa9    ");  // width counts characters
  CHECK(boolean("{:8}", true) == "true    ");
  CHECK(boolean("{:>6?}", true) == "  true");
}

TEST_CASE("integers: radixes, two's complement, #, precision ignored") {
  CHECK(i64("{}", 0) == "0");
  CHECK(i64("{}", std::numeric_limits<int64_t>::min()) == "-9223372036854775808");
  CHECK(u64("{}", std::numeric_limits<uint64_t>::max()) == "18446744073709551615");
  CHECK(i64("{:?}", -42) == "-42");
  CHECK(i64("{:.3}", 42) == "42");
  CHECK(u64("{:x}", 255) == "ff");
  CHECK(u64("{:X}", 255) == "FF");
  CHECK(u64("{:#x}", 255) == "0xff");
  CHECK(u64("{:#X}", 255) == "0xFF");
  CHECK(u64("{:#010x}", 255) == "0x000000ff");
  CHECK(u64("{:#8x}", 255) == "    0xff");
  CHECK(u64("{:>8x}", 255) == "      ff");
  CHECK(u64("{:+x}", 255) == "+ff");
  CHECK(u64("{:b}", 5) == "101");
  CHECK(u64("{:#b}", 5) == "0b101");
  CHECK(u64("{:08b}", 5) == "00000101");
  CHECK(u64("{:o}", 8) == "10");
  CHECK(u64("{:#o}", 8) == "0o10");
  CHECK(u64("{:x}", 0) == "0");
  CHECK(i64("{:x}", -1, 32) == "ffffffff");
  CHECK(i64("{:x}", -1, 8) == "ff");
  CHECK(i64("{:X}", -1, 16) == "FFFF");
  CHECK(i64("{:b}", -2, 8) == "11111110");
  CHECK(i64("{:o}", -1, 8) == "377");
  CHECK(i64("{:x}", -1, 64) == "ffffffffffffffff");
  CHECK(i64("{:#x}", std::numeric_limits<int64_t>::min(), 64) == "0x8000000000000000");
  CHECK(u64("{:x}", std::numeric_limits<uint64_t>::max()) == "ffffffffffffffff");
}

TEST_CASE("LowerExp of integers rounds half to even") {
  CHECK(i64("{:e}", 1500) == "1.5e3");
  CHECK(i64("{:e}", 0) == "0e0");
  CHECK(i64("{:e}", 7) == "7e0");
  CHECK(i64("{:e}", 100) == "1e2");
  CHECK(i64("{:e}", -1500) == "-1.5e3");
  CHECK(i64("{:E}", 1500) == "1.5E3");
  CHECK(i64("{:.2e}", 1500) == "1.50e3");
  CHECK(i64("{:.0e}", 1500) == "2e3");
  CHECK(i64("{:.0e}", 2500) == "2e3");
  CHECK(i64("{:.0e}", 2501) == "3e3");
  CHECK(i64("{:.1e}", 1250) == "1.2e3");
  CHECK(i64("{:.1e}", 1251) == "1.3e3");
  CHECK(i64("{:.0e}", 95) == "1e2");
  CHECK(i64("{:.1e}", 9999) == "1.0e4");
  CHECK(u64("{:e}", std::numeric_limits<uint64_t>::max()) == "1.8446744073709551615e19");
  CHECK(i64("{:+e}", 12) == "+1.2e1");
  CHECK(i64("{:08e}", -12) == "-001.2e1");
}

TEST_CASE("strings and bools") {
  CHECK(str("{}", "hello") == "hello");
  CHECK(str("{:.3}", "hello") == "hel");
  CHECK(str("{:>7.3}", "hello") == "    hel");
  CHECK(str("{:.1}", "\xc3\xa9t\xc3\xa9") == "\xc3\xa9");
  CHECK(str("{:?}", "hi\n") == "\"hi\\n\"");
  CHECK(str("{:?}", "a\"b") == "\"a\\\"b\"");
  CHECK(str("{:?}", "it's") == "\"it's\"");
  CHECK(str("{:?}", "\t\\\r") == "\"\\t\\\\\\r\"");
  CHECK(str("{:?}", std::string_view("a\0b", 3)) == "\"a\\0b\"");
  CHECK(str("{:?}", "\x01\x7f") == "\"\\u{1}\\u{7f}\"");
  CHECK(str("{:?}", "\xc3\xa9") == "\"\xc3\xa9\"");
  CHECK(str("{:?}", "\xc2\xa0") == "\"\\u{a0}\"");
  CHECK(str("{:?}", "\xe2\x80\x8b") == "\"\\u{200b}\"");
  CHECK(str("{:?}", "e\xcc\x81") == "\"e\\u{301}\"");  // grapheme extenders, anywhere
  CHECK(str("{:10?}", "hi") == "\"hi\"");              // str's Debug ignores the width
  CHECK(boolean("{}", true) == "true");
  CHECK(boolean("{:?}", false) == "false");
  CHECK(boolean("{:.2}", true) == "tr");
  CHECK(boolean("{:^9}", false) == "  false  ");
}

TEST_CASE("parse_format: pieces, offsets, escapes") {
  std::vector<Piece> p;
  std::string error;
  uint32_t at = 0;
  REQUIRE(parse_format("a {} b {{x}} {0:?} {name:>8.3}", p, error, at));
  REQUIRE(p.size() == 6);
  CHECK(p[0].literal == "a ");
  CHECK(p[0].offset == 0);
  CHECK(p[1].is_arg);
  CHECK(p[1].arg_index == -1);
  CHECK(p[1].offset == 2);
  CHECK(p[2].literal == " b {x} ");
  CHECK(p[2].offset == 4);
  CHECK(p[3].arg_index == 0);
  CHECK(p[3].spec.kind == '?');
  CHECK(p[3].offset == 13);
  CHECK(p[4].literal == " ");
  CHECK(p[5].name == "name");
  CHECK(p[5].spec.align == '>');
  CHECK(p[5].spec.width == 8);
  CHECK(p[5].spec.precision == 3);

  p.clear();
  REQUIRE(parse_format("", p, error, at));
  CHECK(p.empty());
  REQUIRE(parse_format("{{}}", p, error, at));
  REQUIRE(p.size() == 1);
  CHECK(p[0].literal == "{}");
}

TEST_CASE("parse_format: specs") {
  Spec s = spec_of("{:*^9}");
  CHECK(s.fill == '*');
  CHECK(s.align == '^');
  CHECK(s.width == 9);
  s = spec_of("{:08.3}");
  CHECK(s.zero_pad);
  CHECK(s.width == 8);
  CHECK(s.precision == 3);
  s = spec_of("{:0>5}");
  CHECK(s.fill == '0');
  CHECK(s.align == '>');
  CHECK_FALSE(s.zero_pad);
  CHECK(s.width == 5);
  s = spec_of("{:>>3}");
  CHECK(s.fill == '>');
  CHECK(s.align == '>');
  s = spec_of("{:<}");
  CHECK(s.align == '<');
  CHECK(s.fill == ' ');
  s = spec_of("{:+#010x}");
  CHECK(s.plus);
  CHECK(s.alternate);
  CHECK(s.zero_pad);
  CHECK(s.width == 10);
  CHECK(s.kind == 'x');
  s = spec_of("{:0}");
  CHECK(s.zero_pad);
  CHECK(s.width == -1);
  s = spec_of("{:-}");
  CHECK_FALSE(s.plus);
  s = spec_of("{:.0e}");
  CHECK(s.precision == 0);
  CHECK(s.kind == 'e');
  s = spec_of("{:#?}");
  CHECK(s.alternate);
  CHECK(s.kind == '?');
  for (const char* k : {"{:x}", "{:X}", "{:b}", "{:o}", "{:e}", "{:E}"})
    CHECK(spec_of(k).kind == k[2]);
}

TEST_CASE("parse_format: errors point at the fault") {
  auto error_at = [](std::string_view f) {
    std::vector<Piece> p;
    std::string error;
    uint32_t at = 12345;
    CHECK_FALSE(parse_format(f, p, error, at));
    CHECK_FALSE(error.empty());
    return at;
  };
  CHECK(error_at("abc {") == 4);
  CHECK(error_at("abc }") == 4);
  CHECK(error_at("{} }x") == 3);
  CHECK(error_at("a {:d}") == 4);
  CHECK(error_at("{:.}") == 3);
  CHECK(error_at("{:1$}") == 2);
  CHECK(error_at("{:.*}") == 3);
  CHECK(error_at("{x") == 0);
  CHECK(error_at("{x y}") == 2);
  CHECK(error_at("{_}") == 1);
  CHECK(error_at("{:x?}") == 2);
  CHECK(error_at("{:99999999}") == 2);
  CHECK(error_at("{:.99999999}") == 3);
  CHECK(error_at("{0:>8 }") == 5);
}

TEST_CASE("check_spec follows Rust's traits") {
  Spec hex;
  hex.kind = 'x';
  CHECK(check_spec(hex, ArgClass::Integer).empty());
  CHECK_FALSE(check_spec(hex, ArgClass::Float).empty());
  CHECK_FALSE(check_spec(hex, ArgClass::Bool).empty());
  Spec exp;
  exp.kind = 'e';
  CHECK(check_spec(exp, ArgClass::Float).empty());
  CHECK(check_spec(exp, ArgClass::Integer).empty());
  CHECK_FALSE(check_spec(exp, ArgClass::Str).empty());
  CHECK(check_spec(Spec{}, ArgClass::Str).empty());
}

TEST_CASE("f16 and bf16 conversions round to nearest even") {
  CHECK(f32_to_f16_bits(1.0f) == 0x3c00);
  CHECK(f32_to_f16_bits(-2.0f) == 0xc000);
  CHECK(f32_to_f16_bits(0.1f) == 0x2e66);
  CHECK(f32_to_f16_bits(65504.0f) == 0x7bff);
  CHECK(f32_to_f16_bits(65519.0f) == 0x7bff);
  CHECK(f32_to_f16_bits(65520.0f) == 0x7c00);
  CHECK(f32_to_f16_bits(1e10f) == 0x7c00);
  CHECK(f32_to_f16_bits(-1e10f) == 0xfc00);
  CHECK(f32_to_f16_bits(std::ldexp(1.0f, -14)) == 0x0400);
  CHECK(f32_to_f16_bits(std::ldexp(1.0f, -24)) == 0x0001);
  CHECK(f32_to_f16_bits(std::ldexp(1.0f, -25)) == 0x0000);
  CHECK(f32_to_f16_bits(std::ldexp(1.5f, -25)) == 0x0001);
  CHECK(f32_to_f16_bits(std::ldexp(3.0f, -25)) == 0x0002);     // 1.5 units: tie, to even
  CHECK(f32_to_f16_bits(std::ldexp(1023.5f, -24)) == 0x0400);  // carries into the normals
  CHECK(f32_to_f16_bits(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);
  CHECK(f32_to_f16_bits(1.0f + std::ldexp(3.0f, -11)) == 0x3c02);
  CHECK(f32_to_f16_bits(-0.0f) == 0x8000);
  CHECK(f32_to_f16_bits(std::numeric_limits<float>::denorm_min()) == 0);
  const uint16_t nan = f32_to_f16_bits(std::numeric_limits<float>::quiet_NaN());
  CHECK((nan & 0x7c00) == 0x7c00);
  CHECK((nan & 0x3ff) != 0);
  const uint16_t snan = f32_to_f16_bits(std::bit_cast<float>(0x7f800001u));
  CHECK((snan & 0x3ff) != 0);
  CHECK(f16_bits_to_f32(0x0001) == std::ldexp(1.0f, -24));
  CHECK(f16_bits_to_f32(0x03ff) == std::ldexp(1023.0f, -24));
  CHECK(f16_bits_to_f32(0x7bff) == 65504.0f);
  CHECK(std::isinf(f16_bits_to_f32(0x7c00)));
  CHECK(std::isnan(f16_bits_to_f32(0x7e00)));

  CHECK(f32_to_bf16_bits(1.0f) == 0x3f80);
  CHECK(f32_to_bf16_bits(0.1f) == 0x3dcd);
  CHECK(f32_to_bf16_bits(1.00390625f) == 0x3f80);  // tie, kept even
  CHECK(f32_to_bf16_bits(1.01171875f) == 0x3f82);  // tie, rounded up to even
  CHECK(f32_to_bf16_bits(std::numeric_limits<float>::max()) == 0x7f80);
  CHECK(std::isnan(bf16_bits_to_f32(f32_to_bf16_bits(std::numeric_limits<float>::quiet_NaN()))));
  CHECK(std::isnan(bf16_bits_to_f32(f32_to_bf16_bits(std::bit_cast<float>(0x7f800001u)))));
  CHECK(bf16_bits_to_f32(0x3f80) == 1.0f);

  // f64 converts in one rounding: 1 + 2^-11 + 2^-40 is just above the tie, so it rounds up,
  // where rounding to f32 first (which drops 2^-40) would leave a tie and round down.
  CHECK(f64_to_f16_bits(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)) == 0x3c01);
  CHECK(f64_to_bf16_bits(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)) == 0x3f81);
  CHECK(f64_to_f16_bits(1e300) == 0x7c00);
  CHECK(f64_to_bf16_bits(1e300) == 0x7f80);
  CHECK(f64_to_bf16_bits(1e-300) == 0);
  CHECK(f64_to_f16_bits(-1e-300) == 0x8000);
}

TEST_CASE("f16 and bf16 round trip through f32 for every bit pattern") {
  int bad = 0;
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const auto bits = static_cast<uint16_t>(b);
    const float h = f16_bits_to_f32(bits);
    const bool f16_ok = std::isnan(h) ? std::isnan(f16_bits_to_f32(f32_to_f16_bits(h)))
                                      : f32_to_f16_bits(h) == bits &&
                                            f64_to_f16_bits(static_cast<double>(h)) == bits;
    const float g = bf16_bits_to_f32(bits);
    const bool bf16_ok = std::isnan(g) ? std::isnan(bf16_bits_to_f32(f32_to_bf16_bits(g)))
                                       : f32_to_bf16_bits(g) == bits &&
                                             f64_to_bf16_bits(static_cast<double>(g)) == bits;
    if ((!f16_ok || !bf16_ok) && bad++ < 5) FAIL_CHECK("bits " << bits);
  }
  CHECK(bad == 0);
}

TEST_CASE("f32 to f16 agrees with f64 to f16 on random floats") {
  std::mt19937 rng(7);
  int bad = 0;
  for (int i = 0; i < 200000; ++i) {
    const float f = std::bit_cast<float>(static_cast<uint32_t>(rng()));
    if (std::isnan(f)) continue;
    if ((f32_to_f16_bits(f) != f64_to_f16_bits(f) || f32_to_bf16_bits(f) != f64_to_bf16_bits(f)) &&
        bad++ < 5)
      FAIL_CHECK("f32 bits " << std::bit_cast<uint32_t>(f));
  }
  CHECK(bad == 0);
}
