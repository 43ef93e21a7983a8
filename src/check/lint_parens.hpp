// The lint `unused_parens` (spec/errors.md, "Warnings"), read off the AST, where parentheses
// still are: parentheses around the whole of an assigned value (a `let`'s, a const's, `x = …`,
// `x op= …`), a `return` or `break` value, a block's return value, a match arm's expression, an
// index, an `if`, `while` or `match` head, a `for` loop's range, or an argument of a call or
// method. Their removal never changes what the program means; a tuple's are not these, and
// neither are a head's that holds a `{` (a struct literal there needs them) or a block value's,
// an arm's or a `break` value's that starts with a block-like expression.
#pragma once
#include <string>
#include <vector>

#include "parse/parser.hpp"
#include "support/source.hpp"

namespace vx::lint {

struct UnusedParens {
  Span span;            // from `(` to `)`
  std::string message;  // "unnecessary parentheses around assigned value"
};

std::vector<UnusedParens> unused_parens(const ParsedProgram& parsed, const SourceFile& file);

}  // namespace vx::lint
