// The Spirit X3 grammar of Vx's surface syntax (spec/grammar.md): declarations shared by the
// definition (grammar_def.hpp), its one instantiation (grammar.cpp) and the parser (parser.cpp).
#pragma once
#include <boost/spirit/home/x3.hpp>
#include <boost/spirit/home/x3/support/utility/error_reporting.hpp>
#include <string>

#include "parse/ast.hpp"

namespace vx::grammar {

namespace x3 = boost::spirit::x3;

// Matches any one byte; the pre-scan (parser.cpp) has already refused bytes that may not appear.
struct AnyByte : x3::parser<AnyByte> {
  using attribute_type = char;
  static bool const has_attribute = true;
  template <class It, class Ctx, class RCtx, class Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr& attr) const {
    x3::skip_over(first, last, ctx);
    if (first == last) return false;
    x3::traits::move_to(*first, attr);
    ++first;
    return true;
  }
};
inline constexpr AnyByte any_byte{};

// A block comment, `/* … */`, which may nest as in Rust.
struct BlockComment : x3::parser<BlockComment> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;
  template <class It, class Ctx, class RCtx, class Attr>
  bool parse(It& first, It const& last, Ctx const&, RCtx&, Attr&) const {
    It i = first;
    if (last - i < 2 || i[0] != '/' || i[1] != '*') return false;
    int depth = 0;
    while (last - i >= 2) {
      if (i[0] == '/' && i[1] == '*') {
        ++depth;
        i += 2;
      } else if (i[0] == '*' && i[1] == '/') {
        i += 2;
        if (--depth == 0) {
          first = i;
          return true;
        }
      } else {
        ++i;
      }
    }
    return false;  // unterminated: the pre-scan reports it
  }
};
inline constexpr BlockComment block_comment{};

// White space and comments (`//` to the end of the line, `/* … */`).
inline auto const skipper = x3::ascii::space |
                            x3::lexeme["//" >> *(any_byte - x3::eol) >> (x3::eol | x3::eoi)] |
                            block_comment;

using iterator_type = std::string::const_iterator;
using skipper_type = std::remove_cv_t<decltype(skipper)>;
using phrase_context_type = x3::phrase_parse_context<skipper_type>::type;
using error_handler_type = x3::error_handler<iterator_type>;
using context_type = x3::context<x3::error_handler_tag, std::reference_wrapper<error_handler_type>,
                                 phrase_context_type>;

struct program_class;
using program_type = x3::rule<program_class, ast::Program>;
BOOST_SPIRIT_DECLARE(program_type)

program_type const& program();

}  // namespace vx::grammar
