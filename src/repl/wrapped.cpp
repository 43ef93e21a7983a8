// See wrapped.hpp.
#include "repl/wrapped.hpp"

#include <cctype>
#include <memory>

#include "support/ascii.hpp"

namespace vx::repl {

Attempt run_pipeline(Composed composed, const Machine& machine, bool explain, bool parse_only,
                     bool maps) {
  Attempt a;
  a.composed = std::move(composed);
  pipeline::Options options;
  options.through = parse_only ? pipeline::Step::Parse : pipeline::Step::KernelRules;
  options.machine = &machine;
  options.explain = explain;
  options.maps = maps;
  for (const Composed::Decl& d : a.composed.decls)
    options.session_decls.push_back({d.begin, d.end});
  a.c = pipeline::compile(std::make_shared<SourceFile>("<session>", a.composed.text), options);
  return a;
}

// The first word of a text, after blanks and comments.
std::string first_word(const std::string& t) {
  size_t i = 0;
  while (i < t.size()) {
    if (std::isspace(static_cast<unsigned char>(t[i])))
      ++i;
    else if (t.compare(i, 2, "//") == 0)
      i = t.find('\n', i) == std::string::npos ? t.size() : t.find('\n', i);
    else if (t.compare(i, 2, "/*") == 0)
      i = t.find("*/", i) == std::string::npos ? t.size() : t.find("*/", i) + 2;
    else
      break;
  }
  size_t j = i;
  while (j < t.size() && (std::isalnum(static_cast<unsigned char>(t[j])) || t[j] == '_')) ++j;
  return j == i ? t.substr(i, i < t.size() ? 1 : 0) : t.substr(i, j - i);
}

// Whether the word `w` stands in `t` as a name or keyword, outside strings and comments.
bool has_word(const std::string& t, const std::string& w) {
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < t.size();) {
    if (t.compare(i, 2, "//") == 0) {
      i = t.find('\n', i) == std::string::npos ? t.size() : t.find('\n', i);
    } else if (t.compare(i, 2, "/*") == 0) {
      i = t.find("*/", i) == std::string::npos ? t.size() : t.find("*/", i) + 2;
    } else if (t[i] == '"') {
      for (++i; i < t.size() && t[i] != '"'; ++i)
        if (t[i] == '\\') ++i;
      ++i;
    } else if (word_char(t[i])) {
      size_t j = i;
      while (j < t.size() && word_char(t[j])) ++j;
      if (t.compare(i, j - i, w) == 0 && j - i == w.size()) return true;
      i = j;
    } else {
      ++i;
    }
  }
  return false;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') return false;
  return true;
}

std::string trim(const std::string& s) { return std::string(trimmed(s)); }

// Calls `fn` for every expression of a block, at any depth.
void visit_exprs(const tir::Block* b, const std::function<void(const tir::Expr*)>& fn) {
  if (!b) return;
  std::function<void(const tir::Expr*)> expr = [&](const tir::Expr* e) {
    if (!e) return;
    fn(e);
    for (const tir::Expr* a : e->args) expr(a);
    visit_exprs(e->block, fn);
    visit_exprs(e->else_block, fn);
  };
  for (const tir::Stmt* s : b->stmts) {
    for (const tir::Expr* e : s->exprs()) expr(e);
    visit_exprs(s->body, fn);
  }
  expr(b->tail);
}

// `FILE:LINE:COL` of a span's start.
std::string location(const SourceFile& file, Span s) {
  const LineCol lc = file.line_col(s.begin);
  return file.path() + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.col);
}

bool is_items_input(const std::string& text) {
  const std::string w = first_word(text);
  return w == "fn" || w == "const" || w == "struct" || w == "pub" || w == "import" || w == "#";
}

}  // namespace vx::repl
