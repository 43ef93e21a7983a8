#include "parse/parser.hpp"

#include <algorithm>
#include <boost/variant/get.hpp>
#include <cctype>
#include <sstream>

#include "parse/grammar.hpp"
#include "parse/syntax_errors.hpp"

namespace vx {

struct ParsedProgram::Positions {
  std::ostringstream sink;  // X3's handler wants a stream; we render our own diagnostics
  grammar::error_handler_type handler;
  Positions(grammar::iterator_type first, grammar::iterator_type last)
      : handler(first, last, sink) {}
};

ParsedProgram::ParsedProgram() = default;
ParsedProgram::~ParsedProgram() = default;

Span ParsedProgram::span(const ast::position_tagged& node) const {
  if (node.id_first < 0 || node.id_last < 0 || !positions_) return {};
  auto range = positions_->handler.position_of(node);
  return {static_cast<uint32_t>(&*range.begin() - base_),
          static_cast<uint32_t>(&*range.begin() - base_ + (range.end() - range.begin()))};
}

// Refuses what the grammar should never see: bytes that are not text, non-ASCII outside strings
// and comments, unbalanced or too deeply nested delimiters, unterminated strings and comments.
bool prescan(const SourceFile& file, Diagnostics& diags) {
  const std::string& s = file.text();
  struct Open {
    char c;
    uint32_t at;
  };
  std::vector<Open> stack;
  auto closer_of = [](char c) { return c == '(' ? ')' : c == '[' ? ']' : '}'; };
  size_t i = 0, n = s.size();
  auto bad_byte = [&](size_t at, const std::string& what) {
    diags.error("E0005", {static_cast<uint32_t>(at), static_cast<uint32_t>(at + 1)}, what,
                "not allowed here");
    return false;
  };
  // Validates one UTF-8 sequence at i (inside strings and comments); returns its length or 0.
  auto utf8_len = [&](size_t at) -> size_t {
    unsigned char c = static_cast<unsigned char>(s[at]);
    size_t len = c < 0x80           ? 1
                 : (c >> 5) == 0x6  ? 2
                 : (c >> 4) == 0xE  ? 3
                 : (c >> 3) == 0x1E ? 4
                                    : 0;
    if (len == 0 || at + len > n) return 0;
    for (size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[at + k]) & 0xC0) != 0x80) return 0;
    return len;
  };
  while (i < n) {
    char c = s[i];
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') {
        size_t len = utf8_len(i);
        if (len == 0 || (static_cast<unsigned char>(s[i]) < 0x20 && s[i] != '\t' && s[i] != '\r'))
          return bad_byte(i, "invalid byte in a comment (the source must be UTF-8 text)");
        i += len;
      }
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      size_t start = i;
      i += 2;
      int depth = 1;  // block comments nest
      while (i < n) {
        if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
          ++depth;
          i += 2;
          continue;
        }
        if (s[i] == '*' && i + 1 < n && s[i + 1] == '/') {
          if (--depth == 0) break;
          i += 2;
          continue;
        }
        size_t len = utf8_len(i);
        if (len == 0 || (static_cast<unsigned char>(s[i]) < 0x20 && s[i] != '\t' && s[i] != '\r' &&
                         s[i] != '\n'))
          return bad_byte(i, "invalid byte in a comment (the source must be UTF-8 text)");
        i += len;
      }
      if (i >= n) {
        auto& d =
            diags.error("E0002", {static_cast<uint32_t>(start), static_cast<uint32_t>(start + 2)},
                        "unterminated block comment", "the comment starts here");
        d.notes.push_back("the file ends before `*/`");
        return false;
      }
      i += 2;
      continue;
    }
    if (c == '"') {
      size_t start = i++;
      while (i < n && s[i] != '"') {
        if (s[i] == '\\' && i + 1 < n) {
          i += 2;
          continue;
        }
        size_t len = utf8_len(i);
        if (len == 0 || (static_cast<unsigned char>(s[i]) < 0x20 && s[i] != '\t' && s[i] != '\n' &&
                         s[i] != '\r'))
          return bad_byte(i, "invalid byte in a string literal (the source must be UTF-8 text)");
        i += len;
      }
      if (i >= n) {
        auto& d =
            diags.error("E0002", {static_cast<uint32_t>(start), static_cast<uint32_t>(start + 1)},
                        "unterminated string literal", "the string starts here");
        d.notes.push_back("the file ends before the closing `\"`");
        return false;
      }
      ++i;
      continue;
    }
    if (c == '\'') {
      // A label or a character literal, as the grammar decides (spec/grammar.md §1.3): a name
      // not followed by a quote is a label; anything else runs to the closing quote on its line.
      size_t j = i + 1;
      while (j < n && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      if (j > i + 1 && (j >= n || s[j] != '\'')) {
        i = j;
        continue;
      }
      const size_t start = i++;
      while (i < n && s[i] != '\'' && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < n && s[i + 1] != '\n') {
          i += 2;
          continue;
        }
        if (s[i] == '\t' || s[i] == '\r') {  // as Rust: written as an escape
          diags.error("E0004", {static_cast<uint32_t>(i), static_cast<uint32_t>(i + 1)},
                      std::string("character constant must be escaped: `") +
                          (s[i] == '\t' ? "\\t" : "\\r") + "`",
                      "write it as an escape");
          return false;
        }
        size_t len = utf8_len(i);
        if (len == 0 || static_cast<unsigned char>(s[i]) < 0x20)
          return bad_byte(i, "invalid byte in a character literal (the source must be UTF-8 text)");
        i += len;
      }
      if (i >= n || s[i] != '\'') {
        auto& d =
            diags.error("E0002", {static_cast<uint32_t>(start), static_cast<uint32_t>(start + 1)},
                        "unterminated character literal", "the literal starts here");
        d.notes.push_back("a character literal closes with `'` on its line");
        return false;
      }
      ++i;
      continue;
    }
    if (u >= 0x80) return bad_byte(i, "non-ASCII character outside a string or comment");
    if (u < 0x20 && c != '\n' && c != '\t' && c != '\r')
      return bad_byte(i, "control character in the source");
    if (u == 0x7f) return bad_byte(i, "control character in the source");
    if (c == '(' || c == '[' || c == '{') {
      if (stack.size() >= static_cast<size_t>(kMaxNesting)) {
        auto& d = diags.error("E0003", {static_cast<uint32_t>(i), static_cast<uint32_t>(i + 1)},
                              "delimiters nested too deeply",
                              "this is level " + std::to_string(kMaxNesting + 1));
        d.notes.push_back("at most " + std::to_string(kMaxNesting) +
                          " levels of `(`, `[` and `{` may be open at once");
        return false;
      }
      stack.push_back({c, static_cast<uint32_t>(i)});
    } else if (c == ')' || c == ']' || c == '}') {
      if (stack.empty()) {
        diags.error("E0002", {static_cast<uint32_t>(i), static_cast<uint32_t>(i + 1)},
                    std::string("unexpected closing delimiter `") + c + "`",
                    "no delimiter is open here");
        return false;
      }
      Open open = stack.back();
      if (closer_of(open.c) != c) {
        auto& d = diags.error("E0002", {static_cast<uint32_t>(i), static_cast<uint32_t>(i + 1)},
                              std::string("mismatched closing delimiter `") + c + "`",
                              std::string("expected `") + closer_of(open.c) + "`");
        d.secondary.push_back(
            {{open.at, open.at + 1}, std::string("`") + open.c + "` opened here"});
        return false;
      }
      stack.pop_back();
    }
    ++i;
  }
  if (!stack.empty()) {
    Open open = stack.back();
    auto& d = diags.error("E0002", {open.at, open.at + 1},
                          std::string("unclosed delimiter `") + open.c + "`", "unclosed delimiter");
    LineCol lc = file.line_col(open.at);
    d.notes.push_back(std::string("the file ends before the `") + closer_of(open.c) +
                      "` that closes the `" + open.c + "` opened at line " +
                      std::to_string(lc.line) + ", column " + std::to_string(lc.col));
    for (size_t k = stack.size() - 1; k-- > 0 && stack.size() - k <= 4;)
      d.secondary.push_back({{stack[k].at, stack[k].at + 1},
                             std::string("`") + stack[k].c + "` is not closed either"});
    return false;
  }
  return true;
}

namespace {

// The depth of every expression's tree (spec/grammar.md §1.5), bottom-up: a leaf is 1; a call,
// array, `( )`, block or `if` is one more than the deepest of its parts; each suffix, binary
// operator and cast adds one to the deepest part so far; prefix operators one each; an `else if`
// two (the checker makes it a block holding an `if`), and so does each arm of a `match`;
// statements and a function's body none.
// The first node whose depth passes kMaxExprDepth is refused with E0003 at its start. The walk
// recurses only as deep as the grammar did.
class DepthCheck {
 public:
  DepthCheck(const ParsedProgram& parsed, Diagnostics& diags) : parsed_(parsed), diags_(diags) {}
  bool failed() const { return failed_; }

  void program(const ast::Program& p) {
    for (const auto& item : p.items) {
      if (failed_) return;
      ast::visit(
          item, [](const ast::Attribute&) {}, [](const ast::ImportItem&) {},
          [&](const ast::FnItem& f) { stmts(f.body); },
          [&](const ast::ConstItem& c) { expr(c.value); },
          [](const ast::StructItem&) {});  // a field's type has no expression
    }
  }

 private:
  // Refuses `depth` at `node` when it passes the limit; returns it (clamped) otherwise.
  int at(int depth, const ast::position_tagged& node, const char* what) {
    if (failed_) return kMaxExprDepth + 1;
    if (depth <= kMaxExprDepth) return depth;
    failed_ = true;
    Span s = parsed_.span(node);
    auto& d = diags_.error("E0003", {s.begin, s.begin + 1}, "expression nested too deeply",
                           std::string(what) + " makes it " + std::to_string(depth) + " deep");
    d.notes.push_back("an expression's tree may be at most " + std::to_string(kMaxExprDepth) +
                      " deep (spec/grammar.md §1.5)");
    d.helps.push_back("name the parts with `let` statements");
    return depth;
  }
  int exprs(const std::vector<ast::Expr>& es) {
    int m = 0;
    for (const auto& e : es) m = std::max(m, expr(e));
    return m;
  }
  int expr(const ast::Expr& e) {
    int deepest = cast(e.first);
    for (size_t k = 0; k < e.rest.size() && !failed_; ++k) {
      deepest = std::max(deepest, cast(e.rest[k].operand));
      at(deepest + static_cast<int>(k) + 1, e.rest[k], "this operator");
    }
    return deepest + static_cast<int>(e.rest.size());
  }
  int cast(const ast::Cast& c) {
    int d = unary(c.operand);
    for (const auto& t : c.types) d = at(d + 1, t, "this cast");
    return d;
  }
  int unary(const ast::Unary& u) {
    int d = postfix(u.operand);
    if (u.ops.empty()) return d;
    return at(d + static_cast<int>(u.ops.size()), u, "this prefix operator");
  }
  int postfix(const ast::Postfix& p) {
    int d = primary(p.base);
    for (const auto& s : p.suffixes) {
      if (failed_) break;
      d = ast::visit(
          s,
          [&](const ast::IndexSuffix& ix) {
            return at(std::max(d, expr(ix.index.get())) + 1, ix, "this index");
          },
          [&](const ast::MethodSuffix& m) {
            return at(std::max(d, exprs(m.args)) + 1, m, "this method call");
          },
          [&](const ast::FieldSuffix& fs) { return at(d + 1, fs, "this field"); });
    }
    return d;
  }
  int primary(const ast::Primary& p) {
    return ast::visit(
        p, [](const ast::FloatLit&) { return 1; }, [](const ast::IntLit&) { return 1; },
        [](const ast::BoolLit&) { return 1; }, [](const ast::StringLit&) { return 1; },
        [](const ast::CharLit&) { return 1; },
        [&](const ast::TensorCtor& c) { return at(exprs(c.args) + 1, c, "this call"); },
        [&](const ast::MacroCall& m) { return at(exprs(m.args) + 1, m, "this call"); },
        [&](const ast::PathExpr& pe) {
          return pe.call_args ? at(exprs(*pe.call_args) + 1, pe, "this call") : 1;
        },
        [&](const ast::ArrayLit& a) { return at(exprs(a.elems) + 1, a, "this array"); },
        [&](const ast::StructLit& sl) {
          int d = 0;
          for (const auto& f : sl.fields)
            if (f.value) d = std::max(d, expr(f.value->get()));
          return at(d + 1, sl, "this struct literal");
        },
        [](const ast::UnitLit&) { return 1; },
        [&](const ast::Paren& par) {
          return at(std::max(expr(par.inner.get()), exprs(par.rest)) + 1, par, "this `(`");
        },
        [&](const ast::UnsafeBlock& ub) { return at(block(ub.body.get()) + 1, ub, "this block"); },
        [&](const ast::LoopExpr& lp) { return at(block(lp.body.get()) + 1, lp, "this `loop`"); },
        [&](const ast::x3::forward_ast<ast::IfExpr>& ie) { return if_expr(ie.get()); },
        [&](const ast::x3::forward_ast<ast::MatchExpr>& me) { return match_expr(me.get()); },
        [&](const ast::x3::forward_ast<ast::Block>& b) { return block(b.get()); });
  }
  // The checker makes a `match` a block holding its scrutinee's `let` and a chain of `if`s, one
  // per arm, nested from the last: each arm adds two (its `if` and the block around it), and the
  // arm's body is a block holding its expression.
  int match_expr(const ast::MatchExpr& e) {
    int d = 0;
    for (size_t k = e.arms.size(); k-- > 0 && !failed_;) {
      const ast::MatchArm& a = e.arms[k];
      const int tests = pattern_test(a.alts);
      d = at(std::max({d, tests, a.guard ? std::max(expr(*a.guard), tests) + 1 : 0,
                       expr(a.body.expr) + 1, a.body.assign ? expr(a.body.assign->value) + 1 : 0}) +
                 2,
             a, "this `match` arm");
    }
    return at(std::max(d, expr(e.scrutinee)) + 1, e, "this `match`");
  }
  // The depth of a pattern's test (check_match.cpp): a comparison of a local is 3 deep; the
  // alternatives' tests are joined by `||` and a tuple's elements' by `&&`, each a balanced tree.
  static int balanced(int deepest, size_t parts) {
    for (; parts > 1; parts = (parts + 1) / 2) ++deepest;
    return deepest;
  }
  static int pattern_test(const std::vector<ast::PatAlt>& alts) {
    int d = 3;
    for (const ast::PatAlt& alt : alts) {
      if (!alt.tuple) continue;
      int elems = 3;
      for (const ast::PatElem& e : alt.tuple->get().elems)
        elems = std::max(elems, pattern_test(e.alts));
      d = std::max(d, balanced(elems, alt.tuple->get().elems.size()));
    }
    return balanced(d, alts.size());
  }
  int if_expr(const ast::IfExpr& e) {
    // The checker nests the arms from the last: `else` inside the last `else if`, and so on.
    int d = e.else_block ? block(e.else_block->get()) : 0;
    for (size_t k = e.else_ifs.size(); k-- > 0 && !failed_;) {
      const ast::ElseIf& ei = e.else_ifs[k];
      d = at(std::max({d, expr(ei.cond), block(ei.body.get())}) + 2, ei, "this `else if`");
    }
    return at(std::max({d, expr(e.cond), block(e.then_block.get())}) + 1, e, "this `if`");
  }
  // The deepest statement of a block (a function's body counts no level of its own).
  int stmts(const ast::Block& b) {
    int d = 0;
    for (const auto& s : b.stmts) {
      if (failed_) break;
      d = std::max(d, stmt(s));
    }
    return d;
  }
  int block(const ast::Block& b) { return at(stmts(b) + 1, b, "this block"); }
  // A statement adds no level: its expressions and blocks count.
  int stmt(const ast::Stmt& s) {
    return ast::visit(
        s, [&](const ast::LetStmt& l) { return l.init ? expr(*l.init) : 0; },
        [&](const ast::LetTupleStmt& l) { return l.init ? expr(*l.init) : 0; },
        [&](const ast::ReturnStmt& r) { return r.value ? expr(*r.value) : 0; },
        [&](const ast::BreakStmt& b) { return b.value ? expr(*b.value) : 0; },
        [](const ast::ContinueStmt&) { return 0; },
        [&](const ast::WhileStmt& w) { return std::max(expr(w.cond), block(w.body.get())); },
        [&](const ast::ForStmt& f) {
          int d = std::max({expr(f.range.start), expr(f.range.end), block(f.body.get())});
          for (const ast::MethodSuffix& m : f.range.adapters)
            for (const ast::Expr& a : m.args) d = std::max(d, expr(a));
          return d;
        },
        [&](const ast::SpawnStmt& sp) { return block(sp.body.get()); },
        [&](const ast::ExprStmt& e) {
          return std::max(expr(e.expr), e.assign ? expr(e.assign->value) : 0);
        });
  }

  const ParsedProgram& parsed_;
  Diagnostics& diags_;
  bool failed_ = false;
};

}  // namespace

std::unique_ptr<ParsedProgram> parse_program(const SourceFile& file, Diagnostics& diags) {
  if (!prescan(file, diags)) return nullptr;
  namespace x3 = boost::spirit::x3;
  auto result = std::make_unique<ParsedProgram>();
  const std::string& text = file.text();
  result->base_ = text.data();
  result->positions_ = std::make_unique<ParsedProgram::Positions>(text.begin(), text.end());
  auto& handler = result->positions_->handler;
  grammar::iterator_type first = text.begin(), last = text.end();
  auto parser = x3::with<x3::error_handler_tag>(std::ref(handler))[grammar::program()];
  try {
    bool ok = x3::phrase_parse(first, last, parser, grammar::skipper, result->program);
    // Skip trailing white space and comments; anything left is not an item.
    x3::skip_over(first, last, x3::make_context<x3::skipper_tag>(grammar::skipper));
    if (!ok || first != last) {
      report_not_an_item(text, static_cast<uint32_t>(first - text.begin()), diags);
      return nullptr;
    }
  } catch (const x3::expectation_failure<grammar::iterator_type>& e) {
    // The error is at the next token: past white space and comments too (a syntax error after
    // `// the arms` was put on the comment's `/`).
    grammar::iterator_type next = e.where(), end = text.end();
    x3::skip_over(next, end, x3::make_context<x3::skipper_tag>(grammar::skipper));
    const uint32_t at = static_cast<uint32_t>(next - text.begin());
    report_expectation_failure(text, at, e.which(), diags);
    return nullptr;
  }
  DepthCheck depth(*result, diags);
  depth.program(result->program);
  if (depth.failed()) return nullptr;
  return result;
}

}  // namespace vx
