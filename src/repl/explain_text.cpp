// See explain_text.hpp.
#include "repl/explain_text.hpp"

#include <regex>
#include <sstream>
#include <vector>

namespace vx::repl {

namespace {

const char* const kBold = "\x1b[1m";
const char* const kCode = "\x1b[36m";
const char* const kReset = "\x1b[0m";

enum class Style { Plain, Bold, Code };

struct Word {
  std::string text;  // as shown, without escapes
  Style style;
  bool glued;  // no blank before it (`E0300`'s `.`, a word cut by markup)
};

// The words of one paragraph's inline Markdown.
std::vector<Word> words_of(const std::string& text, bool color) {
  std::vector<Word> out;
  bool glue = false;
  auto add = [&](const std::string& run, Style style) {
    size_t i = 0;
    while (i < run.size()) {
      if (run[i] == ' ') {
        glue = false;
        ++i;
        continue;
      }
      size_t j = run.find(' ', i);
      if (j == std::string::npos) j = run.size();
      out.push_back({run.substr(i, j - i), style, glue && !out.empty()});
      glue = true;
      i = j;
    }
  };
  size_t i = 0;
  std::string plain;
  auto flush = [&] {
    add(plain, Style::Plain);
    plain.clear();
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '`') {  // inline code, up to the next backtick
      const size_t end = text.find('`', i + 1);
      if (end == std::string::npos) {
        plain += text.substr(i);
        break;
      }
      flush();
      const std::string code = text.substr(i + 1, end - i - 1);
      add(color ? code : "`" + code + "`", Style::Code);
      i = end + 1;
    } else if (c == '[') {  // a link: its text
      const size_t close = text.find("](", i);
      const size_t end = close == std::string::npos ? close : text.find(')', close);
      if (end == std::string::npos || text.find(']', i) != close) {  // `t[1]` in prose
        plain += c;
        ++i;
        continue;
      }
      flush();
      const std::vector<Word> inner = words_of(text.substr(i + 1, close - i - 1), color);
      for (size_t k = 0; k < inner.size(); ++k) {
        out.push_back(inner[k]);
        if (k == 0) out.back().glued = glue && out.size() > 1;
      }
      glue = !inner.empty();
      i = end + 1;
    } else if (text.compare(i, 2, "**") == 0) {
      const size_t end = text.find("**", i + 2);
      if (end == std::string::npos) {
        plain += text.substr(i);
        break;
      }
      flush();
      add(text.substr(i + 2, end - i - 2), Style::Bold);
      i = end + 2;
    } else {
      if (c == ' ') {
        flush();
        glue = false;
      }
      plain += c;
      ++i;
    }
  }
  flush();
  return out;
}

std::string styled(const Word& w, bool color) {
  if (!color || w.style == Style::Plain) return w.text;
  return std::string(w.style == Style::Bold ? kBold : kCode) + w.text + kReset;
}

// Fills a paragraph: `first` before its first line, `rest` before the others.
std::string filled(const std::string& text, const std::string& first, const std::string& rest,
                   bool color, size_t width) {
  const std::vector<Word> words = words_of(text, color);
  std::string out = first;
  size_t col = first.size();
  bool line_empty = true;
  for (size_t k = 0; k < words.size();) {
    // A word and the words glued to it go together.
    size_t j = k + 1, len = words[k].text.size();
    while (j < words.size() && words[j].glued) len += words[j++].text.size();
    if (!line_empty && col + 1 + len >= width) {
      out += "\n" + rest;
      col = rest.size();
      line_empty = true;
    }
    if (!line_empty) {
      out += " ";
      ++col;
    }
    for (size_t m = k; m < j; ++m) out += styled(words[m], color);
    col += len;
    line_empty = false;
    k = j;
  }
  return out + "\n";
}

bool starts_item(const std::string& line, std::string& marker) {
  static const std::regex item(R"(^(\s*)([-*]|\d+\.) )");
  std::smatch m;
  if (!std::regex_search(line, m, item)) return false;
  marker = m.str(0);
  return true;
}

}  // namespace

std::string terminal_text(const std::string& markdown, bool color, size_t width) {
  static const std::regex marker(R"(//~ ERROR (E\d{4}))");
  std::istringstream in(markdown);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::string out;
  std::string para, first, rest;  // the paragraph being gathered, and its indents
  auto end_para = [&] {
    if (!para.empty()) out += filled(para, first, rest, color, width);
    para.clear();
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    std::string item;
    if (line.rfind("```", 0) == 0) {  // a fenced block, to its closing fence
      end_para();
      for (++i; i < lines.size() && lines[i].rfind("```", 0) != 0; ++i) {
        const std::string code = std::regex_replace(lines[i], marker, "// error[$1]");
        out += code.empty() ? "\n" : "    " + (color ? kCode + code + kReset : code) + "\n";
      }
    } else if (i == 0 || line.rfind('#', 0) == 0) {  // a heading: one line
      end_para();
      const std::string text = line.substr(line.find_first_not_of("# "));
      out += color ? kBold + text + kReset + "\n" : text + "\n";
    } else if (line.find_first_not_of(" \t") == std::string::npos) {
      end_para();
      out += "\n";
    } else if (line.rfind('|', 0) == 0) {  // a table row: as it is
      end_para();
      out += line + "\n";
    } else if (starts_item(line, item)) {
      end_para();
      first = item;
      rest = std::string(item.size(), ' ');
      para = line.substr(item.size());
    } else {
      if (para.empty()) first = rest = line.substr(0, line.find_first_not_of(' '));
      para += (para.empty() ? "" : " ") + line.substr(line.find_first_not_of(' '));
    }
  }
  end_para();
  return out;
}

}  // namespace vx::repl
