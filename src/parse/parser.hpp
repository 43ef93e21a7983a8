// Parsing: source text to the AST (spec/grammar.md). A pre-scan refuses bad bytes, unclosed
// delimiters and nesting deeper than kMaxNesting before the X3 grammar runs, so the grammar
// never recurses without bound. Needs nothing before it.
#pragma once
#include <memory>

#include "parse/ast.hpp"
#include "support/diagnostics.hpp"

namespace vx {

inline constexpr int kMaxNesting = 256;
inline constexpr int kMaxOperators = 4096;  // binary operators in one expression
inline constexpr int kMaxPrefixOps = 256;   // prefix operators in a row
inline constexpr int kMaxCasts = 256;       // `as` casts in a row
// Expressions and types open at once in the grammar (`if if …` conditions, `&&…T`).
inline constexpr int kMaxParseDepth = 1024;
// The depth of an expression's tree, counted as spec/grammar.md §1.5 says: every later pass
// (checker, interpreter, emitter, printers) recurses at most about this deep.
inline constexpr int kMaxExprDepth = 8192;

class ParsedProgram {
 public:
  ParsedProgram();
  ~ParsedProgram();
  ast::Program program;
  // The source range of a node that the grammar tagged; an empty span if it was not tagged.
  Span span(const ast::position_tagged& node) const;

 private:
  friend std::unique_ptr<ParsedProgram> parse_program(const SourceFile&, Diagnostics&);
  struct Positions;
  std::unique_ptr<Positions> positions_;
  const char* base_ = nullptr;
};

// The pre-scan alone: false (with one diagnostic, E0002–E0005) when the text has a bad byte, an
// unbalanced or too deeply nested delimiter, or an unterminated string, character or comment.
// The REPL runs it on an input before wrapping it, so that what the input leaves open is said
// in the input's own terms (spec/cli.md §7.6).
bool prescan(const SourceFile& file, Diagnostics& diags);

// Returns nullptr (with diagnostics) when the program does not parse.
std::unique_ptr<ParsedProgram> parse_program(const SourceFile& file, Diagnostics& diags);

// Prints the AST readably (`vx parse --dump=ast`).
void dump_ast(std::ostream& out, const ParsedProgram& parsed, const SourceFile& file);

}  // namespace vx
