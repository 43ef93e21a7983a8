// See explain_text.hpp. cmark (Debian's libcmark-dev, the CommonMark reference parser) reads the
// Markdown; this file only lays its tree out for a terminal: blocks parted by blank lines, words
// filled to the width, styles as ANSI escapes.
#include "repl/explain_text.hpp"

#include <cmark.h>

#include <memory>
#include <regex>
#include <sstream>
#include <vector>

namespace vx::repl {

namespace {

const char* const kBold = "\x1b[1m";
const char* const kCode = "\x1b[36m";
const char* const kReset = "\x1b[0m";

enum class Style { Plain, Bold, Code };

// A run of a word in one style; a word is the runs between two blanks (`E0300`'s `.` after
// inline code stays glued to it).
struct Run {
  std::string text;
  Style style;
};
using Word = std::vector<Run>;

// A node's text (cmark gives no text, null, for a node that has none).
std::string literal(cmark_node* n) {
  const char* text = cmark_node_get_literal(n);
  return text ? text : "";
}

size_t width_of(const Word& w) {
  size_t n = 0;
  for (const Run& r : w) n += r.text.size();
  return n;
}

// The words of a block's inlines, in order.
class Words {
 public:
  explicit Words(bool color) : color_(color) {}
  void add(const std::string& text, Style style) {
    for (char c : text) {
      if (c == ' ' || c == '\n' || c == '\t') {
        gap();
        continue;
      }
      if (!open_) words_.emplace_back(), open_ = true;
      Word& w = words_.back();
      if (w.empty() || w.back().style != style) w.push_back({"", style});
      w.back().text += c;
    }
  }
  void gap() { open_ = false; }
  // The inlines under `node`: text, `code` (its backticks kept without colour), **strong**, a
  // link's text; a line break is a blank.
  void inlines(cmark_node* node, Style style) {
    for (cmark_node* n = cmark_node_first_child(node); n; n = cmark_node_next(n)) {
      switch (cmark_node_get_type(n)) {
        case CMARK_NODE_TEXT:
        case CMARK_NODE_HTML_INLINE:
          add(literal(n), style);
          break;
        case CMARK_NODE_CODE:
          add(color_ ? literal(n) : "`" + literal(n) + "`", Style::Code);
          break;
        case CMARK_NODE_SOFTBREAK:
        case CMARK_NODE_LINEBREAK:
          gap();
          break;
        case CMARK_NODE_STRONG:
          inlines(n, Style::Bold);
          break;
        default:  // emphasis, a link, an image: their text
          inlines(n, style);
      }
    }
  }
  // The words filled to `width`: `first` before the first line, `rest` before the others.
  std::string filled(const std::string& first, const std::string& rest, size_t width) const {
    std::string out = first;
    size_t col = first.size();
    bool line_empty = true;
    for (const Word& w : words_) {
      const size_t len = width_of(w);
      if (!line_empty && col + 1 + len >= width) {
        out += "\n" + rest;
        col = rest.size();
        line_empty = true;
      }
      if (!line_empty) out += " ", ++col;
      for (const Run& r : w)
        out += !color_ || r.style == Style::Plain
                   ? r.text
                   : std::string(r.style == Style::Bold ? kBold : kCode) + r.text + kReset;
      col += len;
      line_empty = false;
    }
    return out + "\n";
  }

 private:
  bool color_;
  bool open_ = false;
  std::vector<Word> words_;
};

class Layout {
 public:
  Layout(bool color, size_t width) : color_(color), width_(width) {}

  // The blocks under `parent`, parted by blank lines (a tight list's items by none);
  // `first`/`rest` indent the first line of the first block and every other line.
  void blocks(cmark_node* parent, const std::string& first, const std::string& rest,
              bool tight = false) {
    bool at_first = true;
    for (cmark_node* n = cmark_node_first_child(parent); n; n = cmark_node_next(n)) {
      if (!at_first && !tight) out_ += "\n";
      block(n, at_first ? first : rest, rest);
      at_first = false;
    }
  }
  std::string text() const { return out_; }

 private:
  void block(cmark_node* n, const std::string& first, const std::string& rest) {
    switch (cmark_node_get_type(n)) {
      case CMARK_NODE_HEADING:
        heading(n, first);
        break;
      case CMARK_NODE_PARAGRAPH: {
        // The entry's first line (`E0300 — title`) is its heading.
        if (cmark_node_parent(n) &&
            cmark_node_get_type(cmark_node_parent(n)) == CMARK_NODE_DOCUMENT &&
            !cmark_node_previous(n) && !has_break(n)) {
          heading(n, first);
          break;
        }
        Words w(color_);
        w.inlines(n, Style::Plain);
        out_ += w.filled(first, rest, width_);
        break;
      }
      case CMARK_NODE_LIST: {
        const bool ordered = cmark_node_get_list_type(n) == CMARK_ORDERED_LIST;
        int number = cmark_node_get_list_start(n);
        bool at_first = true;
        for (cmark_node* item = cmark_node_first_child(n); item; item = cmark_node_next(item)) {
          if (!at_first && !cmark_node_get_list_tight(n)) out_ += "\n";
          const std::string marker = ordered ? std::to_string(number++) + ". " : "- ";
          blocks(item, (at_first ? first : rest) + marker, rest + std::string(marker.size(), ' '));
          at_first = false;
        }
        break;
      }
      case CMARK_NODE_CODE_BLOCK: {
        // Indented by four columns; a test marker `//~ ERROR E0300` reads `// error[E0300]`.
        static const std::regex marker(R"(//~ ERROR (E\d{4}))");
        std::istringstream in(literal(n));
        for (std::string line; std::getline(in, line);) {
          line = std::regex_replace(line, marker, "// error[$1]");
          out_ +=
              line.empty() ? "\n" : rest + "    " + (color_ ? kCode + line + kReset : line) + "\n";
        }
        break;
      }
      case CMARK_NODE_BLOCK_QUOTE:
        blocks(n, first + "| ", rest + "| ");
        break;
      case CMARK_NODE_HTML_BLOCK:
        out_ += first + literal(n);
        break;
      case CMARK_NODE_THEMATIC_BREAK:
        out_ += first + std::string(std::min<size_t>(width_, 40), '-') + "\n";
        break;
      default:
        blocks(n, first, rest);
    }
  }
  void heading(cmark_node* n, const std::string& indent) {
    Words w(false);
    w.inlines(n, Style::Plain);
    const std::string text = w.filled("", "", SIZE_MAX);
    out_ += indent + (color_ ? kBold + text.substr(0, text.size() - 1) + kReset + "\n" : text);
  }
  static bool has_break(cmark_node* n) {
    for (cmark_node* c = cmark_node_first_child(n); c; c = cmark_node_next(c))
      if (cmark_node_get_type(c) == CMARK_NODE_SOFTBREAK) return true;
    return false;
  }

  bool color_;
  size_t width_;
  std::string out_;
};

}  // namespace

std::string terminal_text(const std::string& markdown, bool color, size_t width) {
  const std::unique_ptr<cmark_node, void (*)(cmark_node*)> doc(
      cmark_parse_document(markdown.data(), markdown.size(), CMARK_OPT_DEFAULT), cmark_node_free);
  Layout layout(color, width);
  layout.blocks(doc.get(), "", "");
  return layout.text();
}

}  // namespace vx::repl
