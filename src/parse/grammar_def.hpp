// The definition of Vx's grammar (spec/grammar.md). Each rule opens with the production it
// implements. Binary operators are parsed as one flat chain (ast::Expr) and folded by precedence
// in the checker, which keeps this grammar small and its compile time down.
#pragma once
#include <boost/spirit/home/x3.hpp>

#include "parse/ast.hpp"
#include "parse/grammar.hpp"
#include "parse/parser.hpp"
#include "support/utf8.hpp"

namespace vx::grammar {

namespace x3 = boost::spirit::x3;
using x3::attr;
using x3::eoi;
using x3::lexeme;
using x3::lit;
using x3::matches;
using x3::raw;
using x3::ascii::alnum;
using x3::ascii::alpha;
using x3::ascii::digit;
using x3::ascii::xdigit;

// Tags every node with its source range (both a variant and the node it holds).
struct Annotate {
  template <class It, class Ctx, class T>
  void on_success(It const& first, It const& last, T& node, Ctx const& ctx) const {
    x3::get<x3::error_handler_tag>(ctx).get().tag(node, first, last);
  }
};

// Rules whose definition has a semantic action get no attribute in on_success (X3 passes
// `unused`), and X3 1.74 gives actions no usable start position, so such rules open with
// `eps[mark]`, which records where the node starts, and their action (`tagged`) records where
// it ends.
auto const mark = [](auto& ctx) {
  auto here = x3::_where(ctx).begin();  // eps consumed nothing: this is the start (after skip)
  x3::get<x3::error_handler_tag>(ctx).get().tag(x3::_val(ctx), here, here);
};
template <class F>
auto tagged(F f) {
  return [f](auto& ctx) {
    f(ctx);
    auto& handler = x3::get<x3::error_handler_tag>(ctx).get();
    auto start = handler.position_of(x3::_val(ctx)).begin();
    handler.tag(x3::_val(ctx), start, x3::_where(ctx).begin());  // _where starts at the end
  };
}
auto const tag_only = tagged([](auto&) {});

// Bounds the recursion of the grammar where nothing else does (`if if c {…} …` conditions,
// `&&…T` and `Tensor<Tensor<…>>` types: no delimiter is open between the levels): more than
// kMaxParseDepth expressions and types open at once is E0003 at the start of the one past the
// limit (`too_deep`, parser.cpp). The count lives in the parse: parse_program resets it.
inline thread_local int g_parse_depth = 0;
template <class Subject>
struct DepthGuard : x3::unary_parser<Subject, DepthGuard<Subject>> {
  using base_type = x3::unary_parser<Subject, DepthGuard<Subject>>;
  static bool const is_pass_through_unary = true;
  constexpr DepthGuard(Subject const& subject) : base_type(subject) {}
  template <class It, class Ctx, class RCtx, class Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx, Attr& attr) const {
    if (g_parse_depth >= kMaxParseDepth) {
      x3::skip_over(first, last, ctx);
      boost::throw_exception(x3::expectation_failure<It>(first, "too_deep"));
    }
    struct Level {
      Level() { ++g_parse_depth; }
      ~Level() { --g_parse_depth; }
    } level;
    return this->subject.parse(first, last, ctx, rctx, attr);
  }
};
struct DepthGuardGen {
  template <class Subject>
  constexpr DepthGuard<typename x3::extension::as_parser<Subject>::value_type> operator[](
      Subject const& subject) const {
    return {x3::as_parser(subject)};
  }
};
inline constexpr DepthGuardGen depth_guard{};

// A struct literal may not stand where a block follows the expression (the condition of `if`
// and `while`, a `match` scrutinee, a `for` range), as in Rust: `if x { y }` is a condition and
// a block. `no_struct[…]` parses its subject so; `struct_ok[…]` (inside parentheses, brackets,
// arguments and blocks) allows them again. The flag lives in the parse, as the depth does.
inline thread_local bool g_no_struct_lit = false;
template <class Subject, bool Allowed>
struct StructLitScope : x3::unary_parser<Subject, StructLitScope<Subject, Allowed>> {
  using base_type = x3::unary_parser<Subject, StructLitScope<Subject, Allowed>>;
  static bool const is_pass_through_unary = true;
  constexpr StructLitScope(Subject const& subject) : base_type(subject) {}
  template <class It, class Ctx, class RCtx, class Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx, Attr& attr) const {
    struct Scope {
      bool saved = g_no_struct_lit;
      Scope() { g_no_struct_lit = !Allowed; }
      ~Scope() { g_no_struct_lit = saved; }
    } scope;
    return this->subject.parse(first, last, ctx, rctx, attr);
  }
};
template <bool Allowed>
struct StructLitScopeGen {
  template <class Subject>
  constexpr StructLitScope<typename x3::extension::as_parser<Subject>::value_type, Allowed>
  operator[](Subject const& subject) const {
    return {x3::as_parser(subject)};
  }
};
inline constexpr StructLitScopeGen<false> no_struct{};
inline constexpr StructLitScopeGen<true> struct_ok{};
// Matches nothing, where a struct literal may stand. A parser of its own, not `eps[action]`: a
// semantic action would keep X3 from filling the struct literal's attribute.
struct StructLitAllowed : x3::parser<StructLitAllowed> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;
  template <class It, class Ctx, class RCtx, class Attr>
  bool parse(It&, It const&, Ctx const&, RCtx&, Attr&) const {
    return !g_no_struct_lit;
  }
};
inline constexpr StructLitAllowed struct_lit_allowed{};

// ---- Lexical pieces ------------------------------------------------------------------------

auto const word_end = !(alnum | '_');
// A reserved word: the word, not followed by a letter, digit or `_`. A parser of its own so that
// an error names it (`expected `in``), where X3 would name a composite by its C++ type.
struct Keyword : x3::parser<Keyword> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;
  char const* word;
  template <class It, class Ctx, class RCtx, class Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
    x3::skip_over(first, last, ctx);
    It i = first;
    for (char const* w = word; *w; ++w, ++i)
      if (i == last || *i != *w) return false;
    if (i != last && (std::isalnum(static_cast<unsigned char>(*i)) || *i == '_')) return false;
    first = i;
    return true;
  }
};
inline Keyword kw(char const* word) {
  Keyword k;
  k.word = word;
  return k;
}

// The reserved words, which are never identifiers.
x3::symbols<x3::unused_type> const keywords({"fn",       "pub",   "const",  "import", "let",
                                             "mut",      "if",    "else",   "while",  "loop",
                                             "for",      "in",    "across", "return", "break",
                                             "continue", "spawn", "unsafe", "as",     "true",
                                             "false"});

x3::rule<class raw_ident_class, std::string> const raw_ident = "identifier";
auto const raw_ident_def =
    lexeme[(alpha | x3::char_('_')) >> *(alnum | x3::char_('_'))] - lexeme[keywords >> word_end];

struct ident_class : Annotate {};
x3::rule<ident_class, ast::Ident> const ident = "identifier";
auto const ident_def =
    x3::eps[mark] >>
    raw_ident[tagged([](auto& ctx) { x3::_val(ctx).name = std::move(x3::_attr(ctx)); })];

// path = ident { "::" ident }
struct path_class : Annotate {};
x3::rule<path_class, ast::Path> const path = "path";
auto const path_def =
    x3::eps[mark] >>
    (ident % "::")[tagged([](auto& ctx) { x3::_val(ctx).segments = std::move(x3::_attr(ctx)); })];

// Numbers: the checker reads the digits and the suffix (spec/grammar.md, literals).
auto const digits = digit >> *(digit | '_');
auto const exponent = x3::char_("eE") >> -x3::char_("+-") >> digit >> *(digit | '_');
auto const suffix = *(alnum | '_');
auto const float_suffix = lexeme[(lit("f16") | "f32" | "f64" | "bf16") >> word_end];

struct float_lit_class : Annotate {};
x3::rule<float_lit_class, ast::FloatLit> const float_lit = "float literal";
auto const float_lit_def =
    x3::eps[mark] >> raw[lexeme[digits >> (('.' >> digit >> *(digit | '_') >> -exponent) |
                                           exponent | &float_suffix) >>
                                suffix]][tagged([](auto& ctx) {
      auto& r = x3::_attr(ctx);
      x3::_val(ctx).text.assign(r.begin(), r.end());
    })];

struct int_lit_class : Annotate {};
x3::rule<int_lit_class, ast::IntLit> const int_lit = "integer literal";
auto const int_lit_def =
    x3::eps[mark] >> raw[lexeme[(lit("0x") >> +(xdigit | '_') >> suffix) |
                                (lit("0b") >> +x3::char_("01_") >> suffix) |
                                (lit("0o") >> +x3::char_("0-7_") >> suffix) | (digits >> suffix)]]
                        [tagged([](auto& ctx) {
                          auto& r = x3::_attr(ctx);
                          x3::_val(ctx).text.assign(r.begin(), r.end());
                        })];

struct bool_lit_class : Annotate {};
x3::rule<bool_lit_class, ast::BoolLit> const bool_lit = "boolean";
x3::rule<class bool_word_class, std::string> const bool_word = "boolean";
auto const bool_word_def = lexeme[(x3::string("true") | x3::string("false")) >> word_end];
auto const bool_lit_def =
    x3::eps[mark] >>
    bool_word[tagged([](auto& ctx) { x3::_val(ctx).text = std::move(x3::_attr(ctx)); })];

// Escapes inside string and character literals (spec/grammar.md §1.3).
x3::symbols<char> const escapes({{"\\n", '\n'},
                                 {"\\t", '\t'},
                                 {"\\r", '\r'},
                                 {"\\0", '\0'},
                                 {"\\\\", '\\'},
                                 {"\\\"", '"'},
                                 {"\\'", '\''}});

struct invalid_escape_class;
x3::rule<invalid_escape_class> const valid_escape = "escape";

// One to six hex digits (spec/grammar.md §1.3); more is E0004, even with leading zeros.
x3::uint_parser<uint32_t, 16, 1, 6> const unicode_digits;
// `\xHH`: exactly two hex digits, at most 7F (ASCII, as Rust); else E0004.
x3::uint_parser<uint32_t, 16, 2, 2> const ascii_digits;
auto const push_char = [](auto& ctx) { x3::_val(ctx).value += x3::_attr(ctx); };
auto const push_unicode = [](auto& ctx) {
  uint32_t cp = x3::_attr(ctx);
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    x3::_pass(ctx) = false;
  else
    append_utf8(x3::_val(ctx).value, cp);
};
auto const push_ascii = [](auto& ctx) {
  uint32_t cp = x3::_attr(ctx);
  if (cp > 0x7F)
    x3::_pass(ctx) = false;
  else
    x3::_val(ctx).value += static_cast<char>(cp);
};
// A run of plain bytes is appended at once and the loop has no attribute of its own: a 10 MB
// literal was a vector of 10 million one-byte variants (fuzz_corpus's long_string, 13 s under
// the sanitizers).
auto const push_run = [](auto& ctx) {
  auto const& run = x3::_attr(ctx);
  x3::_val(ctx).value.append(run.begin(), run.end());
};
// The escapes of both literals, each appending what it stands for to the node's `value`.
auto const escape = escapes[push_char] | (lit("\\x") >> ascii_digits[push_ascii]) |
                    (lit("\\u{") >> unicode_digits[push_unicode] >> '}') |
                    (&lit('\\') > valid_escape);

struct string_lit_class : Annotate {};
x3::rule<string_lit_class, ast::StringLit> const string_lit = "string literal";
auto const string_lit_def =
    x3::eps[mark] >>
    lexeme[('"' >> x3::omit[*(x3::raw[+(any_byte - '"' - '\\')][push_run] | escape)] >
            '"')[tag_only]];
auto const valid_escape_def = !lit('\\');

// char_lit = "'" ( character | escape ) "'". As Rust's lexer decides: a quote, a name and no
// closing quote is a label (`'outer: loop`), so a literal that starts with a letter, a digit or
// `_` must close after that run; `''` and `'ab'` are literals here, which the checker refuses
// (E0004) for holding no code point or more than one.
struct char_lit_class : Annotate {};
x3::rule<char_lit_class, ast::CharLit> const char_lit = "character literal";
auto const char_lit_def =
    x3::eps[mark] >>
    lexeme[('\'' >> (&(+(alnum | '_') >> '\'') | !(alnum | '_')) >>
            x3::omit[*(x3::raw[+(any_byte - '\'' - '\\' - '\n')][push_run] | escape)] >>
            '\'')[tag_only]];

// label = "'" identifier (no space between them)
x3::rule<class label_name_class, std::string> const label_name = "label";
// A quote and a name followed by a quote is a character literal (`break 'a';`), not a label.
auto const label_name_def = lexeme[lit('\'') >> raw_ident >> !lit('\'')];
struct label_class : Annotate {};
x3::rule<label_class, ast::Label> const label = "label";
auto const label_def =
    x3::eps[mark] >>
    label_name[tagged([](auto& ctx) { x3::_val(ctx).name = std::move(x3::_attr(ctx)); })];

// ---- Types ---------------------------------------------------------------------------------

struct type_class : Annotate {};
x3::rule<type_class, ast::Type> const type = "type";

// dim = integer | "?" | identifier
struct dim_class : Annotate {};
x3::rule<dim_class, ast::Dim> const dim = "dimension (a number, a const name or `?`)";
x3::rule<class dim_number_class, std::string> const dim_number = "number";
auto const dim_number_def = raw[lexeme[digits >> suffix]];
x3::rule<class dim_text_class, std::string> const dim_text = "dimension";
auto const dim_text_def = x3::string("?") | dim_number | raw_ident;
auto const dim_def =
    x3::eps[mark] >>
    dim_text[tagged([](auto& ctx) { x3::_val(ctx).text = std::move(x3::_attr(ctx)); })];

// dims = dim { "," dim } (a rule, so that an error names what it expects)
x3::rule<class dims_class, std::vector<ast::Dim>> const dims =
    "dimension (a number, a const name or `?`)";
auto const dims_def = dim % ',';

// tensor_type = "Tensor" "<" type "," "[" dim { "," dim } "]" [ "," path ] ">"
struct tensor_type_class : Annotate {};
x3::rule<tensor_type_class, ast::TensorType> const tensor_type = "tensor type";
auto const tensor_type_def = kw("Tensor") > '<' > type > ',' > '[' > dims > ']' > -(',' > path) >
                             '>';

// ref_type = "&" [ label ] [ "mut" ] type (the label is a lifetime: `&'static str`)
struct ref_type_class : Annotate {};
x3::rule<ref_type_class, ast::RefType> const ref_type = "reference type";
auto const ref_type_def = lit('&') >> -label >> matches[kw("mut")] >> type;

// named_type = identifier | "(" ")"
struct named_type_class : Annotate {};
x3::rule<named_type_class, ast::NamedType> const named_type = "type name";
x3::rule<class type_name_class, std::string> const type_name = "type name";
auto const type_name_def = raw_ident | (lit('(') >> lit(')') >> attr(std::string("()")));
auto const named_type_def =
    x3::eps[mark] >>
    type_name[tagged([](auto& ctx) { x3::_val(ctx).name = std::move(x3::_attr(ctx)); })];

// array_type = "[" type ";" dim "]"
struct array_type_class : Annotate {};
x3::rule<array_type_class, ast::ArrayType> const array_type = "array type";
auto const array_type_def = lit('[') > type > ';' > dim > ']';

// tuple_type = "(" type { "," type } [ "," ] ")" (`()` is the named type, `(T)` is T)
struct tuple_type_class : Annotate {};
x3::rule<tuple_type_class, ast::TupleType> const tuple_type = "tuple type";
auto const tuple_type_def = lit('(') >> (type % ',') >> matches[','] >> ')';
auto const type_def = depth_guard[ref_type | tensor_type | array_type | tuple_type | named_type];

// ---- Expressions ---------------------------------------------------------------------------

struct expr_class : Annotate {};
x3::rule<expr_class, ast::Expr> const expr = "expression";
struct block_class : Annotate {};
x3::rule<block_class, ast::Block> const block = "block";
struct if_expr_class : Annotate {};
x3::rule<if_expr_class, ast::IfExpr> const if_expr = "`if` expression";
struct match_class : Annotate {};
x3::rule<match_class, ast::MatchExpr> const match_expr = "`match` expression";

x3::rule<class args_class, std::vector<ast::Expr>> const args = "arguments";
auto const args_def = struct_ok[-(expr % ',') >> -lit(',')];

// tensor_ctor = tensor_type "::" identifier "(" arguments ")"
struct tensor_ctor_class : Annotate {};
x3::rule<tensor_ctor_class, ast::TensorCtor> const tensor_ctor = "tensor constructor";
auto const tensor_ctor_def = tensor_type > "::" > ident > '(' > args > ')';

// macro_call = identifier "!" "(" arguments ")"
struct macro_call_class : Annotate {};
x3::rule<macro_call_class, ast::MacroCall> const macro_call = "macro call";
auto const macro_call_def = (ident >> '!' >> '(') > args > ')';

// path_expr = path [ "(" arguments ")" ]
struct path_expr_class : Annotate {};
x3::rule<path_expr_class, ast::PathExpr> const path_expr = "path";
auto const path_expr_def = path >> -('(' > args > ')');

// array = "[" arguments "]" | "[" expr ";" dim "]"
struct array_lit_class : Annotate {};
x3::rule<array_lit_class, ast::ArrayLit> const array_lit = "array";
auto const array_lit_def = lit('[') > args > -(';' > dim) > ']';

// struct_lit = path "{" [ field_init { "," field_init } [ "," ] ] "}"
// field_init = identifier [ ":" expr ]
// Only where a struct literal may stand (no_struct), and only when what follows the `{` reads as
// fields (`}`, or a name and `:`, `,` or `}`): anything else is a path followed by a block.
struct field_init_class : Annotate {};
x3::rule<field_init_class, ast::FieldInit> const field_init = "field";
auto const field_init_def = ident >> -(':' > expr);
x3::rule<class field_inits_class, std::vector<ast::FieldInit>> const field_inits = "field";
auto const field_inits_def = struct_ok[-(field_init % ',') >> -lit(',')];
// (named: `..base`, Rust's struct update syntax, is refused by name in syntax_errors.cpp)
x3::rule<class struct_lit_close_class> const struct_lit_close = "struct_lit_close";
auto const struct_lit_close_def = lit('}');
struct struct_lit_class : Annotate {};
x3::rule<struct_lit_class, ast::StructLit> const struct_lit = "struct literal";
auto const struct_lit_def =
    (path >> struct_lit_allowed >> '{' >> &(lit('}') | (raw_ident >> (lit(':') | ',' | '}')))) >
    field_inits > struct_lit_close;

struct unit_lit_class : Annotate {};
x3::rule<unit_lit_class, ast::UnitLit> const unit_lit = "()";
auto const unit_lit_def = lit('(') >> lit(')');

struct paren_class : Annotate {};
x3::rule<paren_class, ast::Paren> const paren = "parenthesized expression";
// paren = "(" expr { "," expr } [ "," ] ")": a tuple when it has a comma
auto const paren_def = x3::eps[mark] >>
                       ('(' > struct_ok[expr % ','] > matches[','] > ')')[tagged([](auto& ctx) {
                         auto& elems = boost::fusion::at_c<0>(x3::_attr(ctx));
                         auto& p = x3::_val(ctx);
                         p.inner = std::move(elems[0]);
                         p.rest.assign(std::make_move_iterator(elems.begin() + 1),
                                       std::make_move_iterator(elems.end()));
                         p.trailing_comma = boost::fusion::at_c<1>(x3::_attr(ctx));
                       })];

struct unsafe_block_class : Annotate {};
x3::rule<unsafe_block_class, ast::UnsafeBlock> const unsafe_block = "`unsafe` block";
auto const unsafe_block_def =
    x3::eps[mark] >>
    (kw("unsafe") >
     block)[tagged([](auto& ctx) { x3::_val(ctx).body = std::move(x3::_attr(ctx)); })];

// loop_label = label ":"
x3::rule<class loop_label_class, ast::Label> const loop_label = "label";
auto const loop_label_def = label >> ':';

// loop_expr = [ loop_label ] "loop" block
struct loop_class : Annotate {};
x3::rule<loop_class, ast::LoopExpr> const loop_expr = "`loop`";
auto const loop_expr_def = (-loop_label >> kw("loop")) > block;

// primary = literal | tensor_ctor | macro_call | match_expr | path_expr | array | "(" ")"
//         | "(" expr ")" | unsafe_block | loop_expr | if_expr | block
struct primary_class : Annotate {};
x3::rule<primary_class, ast::Primary> const primary = "expression";
auto const primary_def = float_lit | int_lit | bool_lit | string_lit | char_lit | tensor_ctor |
                         macro_call | match_expr | struct_lit | path_expr | array_lit | unit_lit |
                         paren | unsafe_block | loop_expr | if_expr | block;

// suffix = "[" expr "]" | "." identifier "(" arguments ")"
struct index_suffix_class : Annotate {};
x3::rule<index_suffix_class, ast::IndexSuffix> const index_suffix = "index";
auto const index_suffix_def =
    x3::eps[mark] >>
    ('[' > struct_ok[expr] >
     ']')[tagged([](auto& ctx) { x3::_val(ctx).index = std::move(x3::_attr(ctx)); })];

struct method_suffix_class : Annotate {};
x3::rule<method_suffix_class, ast::MethodSuffix> const method_suffix = "method call";
auto const method_suffix_def = ('.' >> ident) > '(' > args > ')';

struct suffix_class : Annotate {};
x3::rule<suffix_class, ast::Suffix> const suffix_rule = "suffix";
// field_suffix = "." ( digits | identifier ) (a tuple's element, a struct's field; a name
// followed by `(` is a method call)
struct field_suffix_class : Annotate {};
x3::rule<field_suffix_class, ast::FieldSuffix> const field_suffix = "field";
x3::rule<class field_name_class, std::string> const field_name = "field";
auto const field_name_def = lexeme[+digit] | (raw_ident >> !lit('('));
auto const field_suffix_def =
    x3::eps[mark] >>
    (lit('.') >>
     field_name)[tagged([](auto& ctx) { x3::_val(ctx).name = std::move(x3::_attr(ctx)); })];
auto const suffix_rule_def = index_suffix | field_suffix | method_suffix;

// postfix = primary { suffix }: a chain of kMaxExprDepth suffixes is deeper than the limit
// (parser.cpp's DepthCheck would refuse it at the last one), so the grammar stops there
// (`too_many_suffixes`) rather than build a vector of millions of them first.
struct postfix_class : Annotate {};
x3::rule<postfix_class, ast::Postfix> const postfix = "expression";
x3::rule<class too_many_suffixes_class> const too_many_suffixes = "too_many_suffixes";
auto const too_many_suffixes_def = !suffix_rule;
x3::rule<class suffixes_class, std::vector<ast::Suffix>> const suffixes = "suffix";
auto const suffixes_def = x3::repeat(0, kMaxExprDepth - 1)[suffix_rule] > too_many_suffixes;
auto const postfix_def = primary >> suffixes;

// unary = { "-" | "!" | "*" | "&" [ "mut" ] } postfix, with at most kMaxPrefixOps operators
// (spec/grammar.md §1.5): E0003 at the one past the limit (`too_many_prefix`, parser.cpp).
x3::rule<class prefix_op_class, std::string> const prefix_op = "prefix operator";
auto const prefix_op_def = (lit('&') >> kw("mut") >> attr(std::string("&mut"))) | x3::string("&") |
                           x3::string("-") | x3::string("!") | x3::string("*");

struct unary_class : Annotate {};
x3::rule<unary_class, ast::Unary> const unary = "expression";
x3::rule<class too_many_prefix_class> const too_many_prefix = "too_many_prefix";
auto const too_many_prefix_def = !prefix_op;
x3::rule<class prefix_ops_class, std::vector<std::string>> const prefix_ops = "prefix operator";
auto const prefix_ops_def = x3::repeat(0, kMaxPrefixOps)[prefix_op] > too_many_prefix;
auto const unary_def = prefix_ops >> postfix;

// cast = unary { "as" type }, with at most kMaxCasts casts (`too_many_casts`, parser.cpp)
struct cast_class : Annotate {};
x3::rule<cast_class, ast::Cast> const cast = "expression";
x3::rule<class too_many_casts_class> const too_many_casts = "too_many_casts";
auto const too_many_casts_def = !kw("as");
x3::rule<class cast_types_class, std::vector<ast::Type>> const cast_types = "`as`";
auto const cast_types_def = x3::repeat(0, kMaxCasts)[kw("as") > type] > too_many_casts;
auto const cast_def = unary >> cast_types;

// The binary operators of every level (operators.def); the checker applies their precedence.
x3::symbols<std::string> const binary_ops({
#define VX_BINOP(E, spelling, precedence, cls, compound, fn) {spelling, spelling},
#include "parse/operators.def"
#undef VX_BINOP
});

struct binary_rest_class : Annotate {};
x3::rule<binary_rest_class, ast::BinaryRest> const binary_rest = "binary operation";
auto const binary_rest_def = binary_ops >> cast;

// expr = cast { binary_op cast }, with at most kMaxOperators operators (spec/grammar.md §1.5):
// the checker folds a chain into a tree as deep as the chain is long.
x3::rule<class too_long_class> const too_long = "too_long";
auto const too_long_def = !binary_rest;
auto const expr_def = depth_guard[(cast >> x3::repeat(0, kMaxOperators)[binary_rest]) > too_long];

// if_expr = "if" expr block { "else" "if" expr block } [ "else" block ]
struct else_if_class : Annotate {};
x3::rule<else_if_class, ast::ElseIf> const else_if = "`else if`";
auto const else_if_def = (kw("else") >> kw("if")) > no_struct[expr] > block;
x3::rule<class else_block_class, ast::Block> const else_block = "`else` block";
auto const else_block_def = kw("else") > block;
auto const if_expr_def = kw("if") > no_struct[expr] > block > *else_if > -else_block;

// assign = ( "=" | "+=" | … ) expr: `=` and operators.def's compound spellings.
x3::symbols<std::string> const assign_ops = [] {
  x3::symbols<std::string> ops({{"=", "="}});
#define VX_BINOP(E, spelling, precedence, cls, compound, fn) \
  if (*compound) ops.add(compound, compound);
#include "parse/operators.def"
#undef VX_BINOP
  return ops;
}();
struct assign_class : Annotate {};
x3::rule<assign_class, ast::AssignTail> const assign_tail = "assignment";
auto const assign_tail_def = assign_ops > expr;

// ---- `match` ---------------------------------------------------------------------------------

// pat_value = [ "-" ] ( int_literal | bool_literal | char_literal | path )
struct pat_value_class : Annotate {};
x3::rule<pat_value_class, ast::PatValue> const pat_value = "pattern";
x3::rule<class pat_atom_class, ast::PatAtom> const pat_atom = "pattern";
auto const pat_atom_def = int_lit | bool_lit | char_lit | path;
auto const pat_value_def = matches[lit('-')] >> pat_atom;

// pat_range_end = ( "..=" | ".." ) pat_value
x3::rule<class range_op_class, std::string> const range_op = "`..` or `..=`";
auto const range_op_def = x3::string("..=") | x3::string("..");
struct pat_range_end_class : Annotate {};
x3::rule<pat_range_end_class, ast::PatRangeEnd> const pat_range_end = "range pattern";
auto const pat_range_end_def = range_op > pat_value;

// pat_alt = [ identifier "@" ] ( pat_tuple | pat_value [ pat_range_end ] ). The look-ahead
// keeps a name without `@` (a binding, or a constant) out of the binding: an optional sequence
// that fails after its name would leave the name in the attribute. The actions fill the fields
// (the two forms set different ones); `mark` and `tag_only` give the node its position.
struct pat_alt_class : Annotate {};
x3::rule<pat_alt_class, ast::PatAlt> const pat_alt = "pattern";
x3::rule<class pat_alts_class, std::vector<ast::PatAlt>> const pat_alts = "pattern";
// pat_tuple = "(" [ pat_elem { "," pat_elem } ] [ "," ] ")"; pat_elem = ".." | pat_alts
struct pat_tuple_class : Annotate {};
x3::rule<pat_tuple_class, ast::PatTuple> const pat_tuple = "tuple pattern";
struct pat_elem_class : Annotate {};
x3::rule<pat_elem_class, ast::PatElem> const pat_elem = "pattern";
auto const pat_elem_def =
    depth_guard[x3::eps[mark] >>
                x3::omit[(lit("..") >> !lit('='))[([](auto& ctx) { x3::_val(ctx).rest = true; })] |
                         pat_alts[([](auto& ctx) {
                           x3::_val(ctx).alts = std::move(x3::_attr(ctx));
                         })]][tag_only]];
auto const pat_tuple_def = lit('(') > -(pat_elem % ',') > matches[lit(',')] > lit(')');
auto const pat_alt_def =
    x3::eps[mark] >> x3::omit[-(&(raw_ident >> '@') >> ident >> '@')[([](auto& ctx) {
      x3::_val(ctx).binding = x3::_attr(ctx);
    })] >> (pat_tuple[([](auto& ctx) {
              x3::_val(ctx).tuple = x3::forward_ast<ast::PatTuple>(std::move(x3::_attr(ctx)));
            })] |
            (pat_value[([](auto& ctx) { x3::_val(ctx).lo = std::move(x3::_attr(ctx)); })] >>
             -pat_range_end[([](auto& ctx) { x3::_val(ctx).range = std::move(x3::_attr(ctx)); })]))]
                             [tag_only];
auto const pat_alts_def = -lit('|') >> (pat_alt % '|');

// A block-like expression (`if`, `match`, `loop`, `{ }`, `unsafe { }`) as a whole expression: a
// statement or an arm's body that ends at its `}`, never continued by a binary operator.
x3::rule<class block_like_class, ast::Primary> const block_like = "block";
x3::rule<class block_expr_class, ast::Expr> const block_expr = "block";
auto const block_expr_def = block_like[([](auto& ctx) {
  auto& e = x3::_val(ctx);
  e.first.operand.operand.base = std::move(x3::_attr(ctx));
  // Tag the wrappers that the grammar did not build with the range of the block.
  auto& eh = x3::get<x3::error_handler_tag>(ctx).get();
  auto w = x3::_where(ctx);
  eh.tag(e, w.begin(), w.end());
  eh.tag(e.first, w.begin(), w.end());
  eh.tag(e.first.operand, w.begin(), w.end());
  eh.tag(e.first.operand.operand, w.begin(), w.end());
  eh.tag(e.first.operand.operand.base, w.begin(), w.end());
})];

// arm = pat_alts [ "if" expr ] "=>" arm_body
// arm_body = block_expr [ "," ] | expr [ assign ] ( "," | before "}" )
x3::rule<class arm_end_class> const arm_end = "`,` or `}`";
auto const arm_end_def = lit(',') | &lit('}');
struct arm_block_body_class : Annotate {};
x3::rule<arm_block_body_class, ast::ArmBody> const arm_block_body = "expression";
auto const arm_block_body_def = block_expr >> attr(boost::optional<ast::AssignTail>()) >> -lit(',');
struct arm_expr_body_class : Annotate {};
x3::rule<arm_expr_body_class, ast::ArmBody> const arm_expr_body = "expression";
auto const arm_expr_body_def = (expr >> -assign_tail) > arm_end;
struct arm_body_class : Annotate {};
x3::rule<arm_body_class, ast::ArmBody> const arm_body = "expression";
auto const arm_body_def = arm_block_body | arm_expr_body;
struct match_arm_class : Annotate {};
x3::rule<match_arm_class, ast::MatchArm> const match_arm = "`match` arm";
auto const match_arm_def = (pat_alts >> -(kw("if") > expr)) > "=>" > arm_body;

// match = "match" expr "{" { arm } "}": `match` is no keyword (spec/grammar.md §7), so a name
// `match` followed by something else is read as a name.
x3::rule<class match_arms_class, std::vector<ast::MatchArm>> const match_arms = "`match` arm";
auto const match_arms_def = *match_arm;
x3::rule<class match_close_class, char> const match_close = "`}` or a `match` arm";
auto const match_close_def = x3::char_('}');
auto const match_expr_def = (kw("match") >> no_struct[expr] >> '{') > match_arms > match_close;

// ---- Statements ----------------------------------------------------------------------------

// let = "let" [ "mut" ] identifier [ ":" type ] [ "=" expr ] ";"
struct let_class : Annotate {};
x3::rule<let_class, ast::LetStmt> const let_stmt = "`let` statement";
auto const let_stmt_def = kw("let") > matches[kw("mut")] > ident > -(':' > type) > -('=' > expr) >
                          ';';

// let_tuple = "let" tuple_pat [ ":" type ] [ "=" expr ] ";"
// tuple_pat = "(" [ let_pat { "," let_pat } ] [ "," ] ")"; let_pat = tuple_pat | [ "mut" ] ident
struct tuple_pat_class : Annotate {};
x3::rule<tuple_pat_class, ast::TuplePat> const tuple_pat = "tuple pattern";
struct bind_pat_class : Annotate {};
x3::rule<bind_pat_class, ast::BindPat> const bind_pat = "pattern";
struct let_pat_class : Annotate {};
x3::rule<let_pat_class, ast::LetPattern> const let_pat = "pattern";
auto const bind_pat_def = matches[kw("mut")] >> ident;
auto const let_pat_def = depth_guard[tuple_pat | bind_pat];
auto const tuple_pat_def = lit('(') > -(let_pat % ',') > -lit(',') > x3::char_(')');
struct let_tuple_class : Annotate {};
x3::rule<let_tuple_class, ast::LetTupleStmt> const let_tuple_stmt = "`let` statement";
auto const let_tuple_stmt_def = (kw("let") >> &lit('(')) > tuple_pat > -(':' > type) >
                                -('=' > expr) > ';';
struct return_class : Annotate {};
x3::rule<return_class, ast::ReturnStmt> const return_stmt = "`return` statement";
auto const return_stmt_def =
    x3::eps[mark] >>
    (kw("return") > -expr >
     ';')[tagged([](auto& ctx) { x3::_val(ctx).value = std::move(x3::_attr(ctx)); })];

// break = "break" [ label ] [ expr ] ";"
struct break_class : Annotate {};
x3::rule<break_class, ast::BreakStmt> const break_stmt = "`break`";
auto const break_stmt_def = kw("break") > -label > -expr > ';';

// continue = "continue" [ label ] ";"
struct continue_class : Annotate {};
x3::rule<continue_class, ast::ContinueStmt> const continue_stmt = "`continue`";
auto const continue_stmt_def =
    x3::eps[mark] >>
    (kw("continue") > -label >
     ';')[tagged([](auto& ctx) { x3::_val(ctx).label = std::move(x3::_attr(ctx)); })];

// while = [ loop_label ] "while" expr block
struct while_class : Annotate {};
x3::rule<while_class, ast::WhileStmt> const while_stmt = "`while` loop";
auto const while_stmt_def = (-loop_label >> kw("while")) > no_struct[expr] > block;

// across = "across" ( "blocks" | "lanes" [ "(" integer ")" ] )
struct across_class : Annotate {};
x3::rule<across_class, ast::Across> const across = "`across blocks` or `across lanes`";
x3::rule<class level_class, std::string> const level = "`blocks` or `lanes`";
auto const level_def = lexeme[(x3::string("blocks") | x3::string("lanes")) >> word_end];
auto const across_def = kw("across") > level > -('(' > int_lit > ')');

// for = [ loop_label ] "for" identifier "in" for_range [ across ] block
// for_range = "(" expr ( ".." | "..=" ) expr ")" { "." identifier "(" arguments ")" }
//           | expr ( ".." | "..=" ) expr
// The parenthesized form when `(` expr `..` starts it (no expression holds `..`), else the plain
// form: `(a)..b` is plain. The look-ahead parses without an attribute: a parser that fails part
// way would leave what it read in the attribute that the next alternative fills.
x3::rule<class range_adapters_class, std::vector<ast::MethodSuffix>> const range_adapters =
    "`.rev()` or `.step_by(…)`";
struct range_adapter_class : Annotate {};
x3::rule<range_adapter_class, ast::MethodSuffix> const range_adapter = "`.rev()` or `.step_by(…)`";
auto const range_adapter_def = lit('.') > ident > '(' > args > ')';
// Past the limit, the adapter that would be one too many is E0003, as for any other chain.
x3::rule<class too_many_adapters_class> const too_many_adapters = "too_many_suffixes";
auto const too_many_adapters_def = !range_adapter;
auto const range_adapters_def = x3::repeat(0, kMaxExprDepth - 1)[range_adapter] > too_many_adapters;
x3::rule<class paren_range_class, ast::ForRange> const paren_range = "range";
auto const paren_range_def = lit('(') > expr > range_op > expr > ')' > range_adapters;
x3::rule<class plain_range_class, ast::ForRange> const plain_range = "range";
auto const plain_range_def = expr > range_op > expr > x3::attr(std::vector<ast::MethodSuffix>());
struct for_range_class : Annotate {};
x3::rule<for_range_class, ast::ForRange> const for_range = "range";
auto const for_range_def = (&(lit('(') >> expr >> range_op) >> paren_range) | plain_range;
struct for_class : Annotate {};
x3::rule<for_class, ast::ForStmt> const for_stmt = "`for` loop";
auto const for_stmt_def = (-loop_label >> kw("for")) > ident > kw("in") > no_struct[for_range] >
                          -across > block;

// spawn = "spawn" "on" "(" path ")" block
struct spawn_class : Annotate {};
x3::rule<spawn_class, ast::SpawnStmt> const spawn_stmt = "`spawn on` region";
auto const spawn_stmt_def = kw("spawn") > kw("on") > '(' > path > ')' > block;

// A statement that is a block-like expression (`if`, `loop`, `{ }`, `unsafe { }`) needs no `;`, and
// is never continued by a binary operator, as in Rust.
x3::rule<class stmt_end_class, bool> const stmt_end = "`;`";
auto const stmt_end_def = (lit(';') >> attr(true)) | (&lit('}') >> attr(false));

struct expr_stmt_class : Annotate {};
x3::rule<expr_stmt_class, ast::ExprStmt> const expr_stmt = "statement";
auto const expr_stmt_def = (expr >> -assign_tail) > stmt_end;

auto const block_like_def = unsafe_block | loop_expr | if_expr | match_expr | block;

struct block_stmt_class : Annotate {};
x3::rule<block_stmt_class, ast::ExprStmt> const block_stmt = "statement";
auto const block_stmt_def =
    x3::eps[mark] >>
    (block_expr[([](auto& ctx) { x3::_val(ctx).expr = std::move(x3::_attr(ctx)); })] >>
     matches[';'][([](auto& ctx) { x3::_val(ctx).semicolon = x3::_attr(ctx); })])[tag_only];

// stmt = let | return | break | continue | while | for | spawn | block_stmt | expr_stmt
struct stmt_class : Annotate {};
x3::rule<stmt_class, ast::Stmt> const stmt = "statement";
auto const stmt_def = let_tuple_stmt | let_stmt | return_stmt | break_stmt | continue_stmt |
                      while_stmt | for_stmt | spawn_stmt | block_stmt | expr_stmt;

// block = "{" { stmt } "}"
x3::rule<class close_brace_class, char> const close_brace = "`}` or a statement";
auto const close_brace_def = x3::char_('}');
// Stray `;` between statements are empty statements.
auto const block_def = '{' > struct_ok[*(*lit(';') >> stmt) > *lit(';')] > close_brace;

// ---- Items ---------------------------------------------------------------------------------

// attribute = "#" [ "!" ] "[" text "]"
struct attribute_class : Annotate {};
x3::rule<attribute_class, ast::Attribute> const attribute = "attribute";
auto const attribute_def = ('#' >> matches['!'] >> '[') > lexeme[*(any_byte - ']')] > ']';

struct param_class : Annotate {};
x3::rule<param_class, ast::Param> const param = "parameter";
auto const param_def = (matches[kw("mut")] >> ident) > ':' > type;

x3::rule<class params_class, std::vector<ast::Param>> const params = "parameters";
auto const params_def = -(param % ',') >> -lit(',');

// fn = [ "pub" ] "fn" identifier "(" params ")" [ "->" type ] block
struct fn_class : Annotate {};
x3::rule<fn_class, ast::FnItem> const fn_item = "function";
auto const fn_item_def = (matches[kw("pub")] >> kw("fn")) > ident > '(' > params > ')' >
                         -("->" > type) > block;

// const = [ "pub" ] "const" identifier ":" type "=" expr ";"
struct const_class : Annotate {};
x3::rule<const_class, ast::ConstItem> const const_item = "const item";
auto const const_item_def =
    (matches[kw("pub")] >> kw("const")) > ident > ':' > type > '=' > expr > ';';

// struct = [ "pub" ] "struct" identifier "{" [ field { "," field } [ "," ] ] "}"
// field = [ "pub" ] identifier ":" type
// A `(`, `;` or `<` where the `{` is due is a tuple struct, a unit struct or a generic struct,
// which Vx leaves out (`struct_body`, syntax_errors.cpp).
struct field_decl_class : Annotate {};
x3::rule<field_decl_class, ast::FieldDecl> const field_decl = "field";
auto const field_decl_def = (matches[kw("pub")] >> ident) > ':' > type;
x3::rule<class struct_body_class> const struct_body = "struct_body";
auto const struct_body_def = lit('{');
x3::rule<class field_decls_class, std::vector<ast::FieldDecl>> const field_decls = "field";
auto const field_decls_def = -(field_decl % ',') >> -lit(',');
x3::rule<class struct_close_class> const struct_close = "`}` or a field";
auto const struct_close_def = lit('}');
struct struct_item_class : Annotate {};
x3::rule<struct_item_class, ast::StructItem> const struct_item = "struct";
auto const struct_item_def =
    (matches[kw("pub")] >> kw("struct")) > ident > struct_body > field_decls > struct_close;

// import = "import" path ";"
struct import_class : Annotate {};
x3::rule<import_class, ast::ImportItem> const import_item = "import";
auto const import_item_def =
    x3::eps[mark] >>
    (kw("import") > path >
     ';')[tagged([](auto& ctx) { x3::_val(ctx).path = std::move(x3::_attr(ctx)); })];

struct item_class : Annotate {};
x3::rule<item_class, ast::Item> const item = "item";
auto const item_def = attribute | import_item | fn_item | const_item | struct_item;

// program = { item }
struct program_class : Annotate {};
program_type const program_rule = "program";
auto const program_rule_def =
    x3::eps[mark] >>
    (*item)[tagged([](auto& ctx) { x3::_val(ctx).items = std::move(x3::_attr(ctx)); })];

BOOST_SPIRIT_DEFINE(raw_ident, ident, path, float_lit, int_lit, bool_lit, valid_escape, string_lit,
                    type, dim_number, dim_text, dim, tensor_type, ref_type, type_name, named_type,
                    bool_word, expr, block, if_expr, args, tensor_ctor, macro_call, path_expr,
                    array_lit, unit_lit, paren, unsafe_block, loop_expr, primary, index_suffix,
                    method_suffix, suffix_rule, postfix, prefix_op, unary, cast, binary_rest,
                    else_if, else_block, let_stmt, return_stmt, break_stmt, continue_stmt,
                    while_stmt, level, across, range_op, for_stmt, spawn_stmt, assign_tail,
                    stmt_end, expr_stmt, block_like, block_stmt, stmt, close_brace, attribute,
                    param, params, fn_item, const_item, import_item, item)

// (BOOST_SPIRIT_DEFINE takes at most 64 rules at once.)
BOOST_SPIRIT_DEFINE(label_name, label, loop_label, char_lit)
BOOST_SPIRIT_DEFINE(array_type)
BOOST_SPIRIT_DEFINE(field_init, field_inits, struct_lit_close, struct_lit, field_decl, struct_body,
                    field_decls, struct_close, struct_item)
BOOST_SPIRIT_DEFINE(tuple_type, field_suffix, field_name, tuple_pat, bind_pat, let_pat,
                    let_tuple_stmt)

BOOST_SPIRIT_DEFINE(range_adapter, too_many_adapters, range_adapters, paren_range, plain_range,
                    for_range)
BOOST_SPIRIT_DEFINE(match_expr, pat_value, pat_atom, pat_range_end, pat_alt, pat_alts, block_expr,
                    arm_end, arm_block_body, arm_expr_body, arm_body, match_arm, match_arms,
                    match_close)
BOOST_SPIRIT_DEFINE(pat_tuple, pat_elem)

BOOST_SPIRIT_DEFINE(too_long, too_many_prefix, too_many_casts, too_many_suffixes, suffixes,
                    prefix_ops, cast_types, dims)

// The program rule is defined separately: it is the one the parser instantiates.
BOOST_SPIRIT_DEFINE(program_rule)

}  // namespace vx::grammar

template <>
struct boost::spirit::x3::get_info<vx::grammar::Keyword> {
  using result_type = std::string;
  std::string operator()(vx::grammar::Keyword const& k) const {
    return "`" + std::string(k.word) + "`";
  }
};
