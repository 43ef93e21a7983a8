// The printer follows numpy's `_formatArray` (numpy/core/arrayprint.py, the non-legacy branch)
// step for step, so that a reader who knows numpy's output can predict ours: the same hanging
// indent, the same wrap test (a word goes to the next line when the line would pass the width less
// one column for the `,` or `]` after it, unless the line holds nothing yet), the same `...` rows
// and blank lines between slices. Only the element text differs: Vx's `{}`, right-aligned to the
// widest element shown (numpy aligns floats on the point, but `{}` has no fixed digits to align).
#include "repl/tensor_text.hpp"

#include <algorithm>
#include <cctype>

namespace vx::repl {

int64_t Layout::size() const {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

Layout row_major(const std::vector<int64_t>& dims) {
  Layout l;
  l.dims = dims;
  l.strides.assign(dims.size(), 1);
  for (size_t k = dims.size(); k-- > 1;) l.strides[k - 1] = l.strides[k] * dims[k];
  return l;
}

namespace {

// ---- :show's parts ------------------------------------------------------------------------------

constexpr const char* kPartForm =
    "`:show` takes a binding, then indices or ranges: `t`, `t[1]`, "
    "`t[0..4][2..6]`";

struct Cursor {
  const std::string& s;
  size_t at = 0;
  void blanks() {
    while (at < s.size() && std::isspace(static_cast<unsigned char>(s[at]))) ++at;
  }
  bool eat(const char* word) {
    blanks();
    const size_t n = std::char_traits<char>::length(word);
    if (s.compare(at, n, word) != 0) return false;
    at += n;
    return true;
  }
  // A non-negative integer literal, `_` allowed between digits as in Vx. A larger one than
  // kPastEvery is read as kPastEvery, which no dimension reaches (they are below 2^31), so that
  // select_part names the dimension it passes; `a..=b` adds 1 to it without overflow.
  static constexpr int64_t kPastEvery = int64_t{1} << 62;
  bool number(int64_t& v) {
    blanks();
    if (at >= s.size() || !std::isdigit(static_cast<unsigned char>(s[at]))) return false;
    v = 0;
    for (; at < s.size() && (std::isdigit(static_cast<unsigned char>(s[at])) || s[at] == '_');
         ++at) {
      if (s[at] == '_') continue;
      const int digit = s[at] - '0';
      v = v > (kPastEvery - digit) / 10 ? kPastEvery : v * 10 + digit;
    }
    return true;
  }
};

bool parse_selector(Cursor& c, Selector& sel) {
  const size_t from = c.at;
  int64_t v = 0;
  const bool has_begin = c.number(v);
  if (has_begin) sel.begin = v;
  if (c.eat("..")) {
    sel.is_range = true;
    sel.inclusive = c.eat("=");
    if (c.number(v))
      sel.end = v;
    else if (sel.inclusive)
      return false;  // `a..=` needs its end
  } else if (!has_begin) {
    return false;
  }
  c.blanks();
  sel.text = c.s.substr(from, c.at - from);
  sel.text.erase(0, sel.text.find_first_not_of(" \t"));
  return true;
}

// ---- the printer --------------------------------------------------------------------------------

struct Printer {
  const Layout& layout;
  const std::function<std::string(int64_t)>& element;
  bool summarise = false;
  size_t width = 0;  // of the widest element shown

  // The positions shown along a dimension of `n`; -1 stands for the `...`.
  std::vector<int64_t> shown(int64_t n) const {
    std::vector<int64_t> at;
    const bool elide = summarise && n > 2 * kEdgeItems;
    for (int64_t i = 0; i < n; ++i) {
      if (elide && i == kEdgeItems) {
        at.push_back(-1);
        i = n - kEdgeItems;
      }
      at.push_back(i);
    }
    return at;
  }

  // Calls `fn` with the offset of every element shown.
  template <typename Fn>
  void each_shown(size_t axis, int64_t offset, Fn&& fn) const {
    if (axis == layout.dims.size()) return fn(offset);
    for (int64_t i : shown(layout.dims[axis]))
      if (i >= 0) each_shown(axis + 1, offset + i * layout.strides[axis], fn);
  }

  // numpy's `_extendLine`: `word` goes on `line`, or on a new line when it would pass `limit`.
  static void extend(std::string& s, std::string& line, const std::string& word, size_t limit,
                     const std::string& hanging) {
    if (line.size() + word.size() > limit && line.size() > hanging.size()) {
      s += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
      line = hanging;
    }
    line += word;
  }

  // numpy's `recurser`: the dimensions from `axis` on, each line begun with `hanging` (which the
  // caller's `[` replaces on the first), within `limit` columns.
  std::string text(size_t axis, int64_t offset, const std::string& hanging, size_t limit) const {
    if (axis == layout.dims.size()) {
      const std::string e = element(offset);
      return std::string(width > e.size() ? width - e.size() : 0, ' ') + e;
    }
    const std::string next_hanging = hanging + " ";
    const size_t next_limit = limit - 1;  // the `]` this level adds
    const std::vector<int64_t> at = shown(layout.dims[axis]);
    auto nested = [&](int64_t i) {
      return i < 0 ? std::string("...")
                   : text(axis + 1, offset + i * layout.strides[axis], next_hanging, next_limit);
    };
    std::string s;
    if (axis + 1 == layout.dims.size()) {  // a row: elements wrapped at the width
      std::string line = hanging;
      for (size_t k = 0; k < at.size(); ++k) {
        extend(s, line, nested(at[k]), limit - 1, hanging);  // 1: the `,` or `]` after it
        if (k + 1 < at.size()) line += ", ";
      }
      s += line;
    } else {  // rows of rows: one a line, slices parted by blank lines
      const std::string between = "," + std::string(layout.dims.size() - axis - 1, '\n');
      for (size_t k = 0; k < at.size(); ++k)
        s += hanging + nested(at[k]) + (k + 1 < at.size() ? between : "");
    }
    return "[" + s.substr(hanging.size()) + "]";
  }
};

}  // namespace

bool parse_part(const std::string& text, Part& part, std::string& why) {
  Cursor c{text};
  c.blanks();
  const size_t name_at = c.at;
  while (c.at < text.size() &&
         (std::isalnum(static_cast<unsigned char>(text[c.at])) || text[c.at] == '_'))
    ++c.at;
  part.name = text.substr(name_at, c.at - name_at);
  part.selectors.clear();
  if (part.name.empty() || std::isdigit(static_cast<unsigned char>(part.name[0]))) {
    why = kPartForm;
    return false;
  }
  for (c.blanks(); c.at < text.size(); c.blanks()) {
    Selector sel;
    if (!c.eat("[") || !parse_selector(c, sel) || !c.eat("]")) {
      why = kPartForm;
      return false;
    }
    part.selectors.push_back(sel);
  }
  return true;
}

bool select_part(const Part& part, Layout& layout, std::string& why) {
  const size_t rank = layout.dims.size();
  if (part.selectors.size() > rank) {
    why = "`" + part.name + "` has " + std::to_string(rank) +
          (rank == 1 ? " dimension" : " dimensions") + ", and " +
          std::to_string(part.selectors.size()) + " indices or ranges were given";
    return false;
  }
  Layout narrowed;
  narrowed.origin = layout.origin;
  for (size_t k = 0; k < rank; ++k) {
    const int64_t size = layout.dims[k], stride = layout.strides[k];
    if (k >= part.selectors.size()) {
      narrowed.dims.push_back(size);
      narrowed.strides.push_back(stride);
      continue;
    }
    const Selector& sel = part.selectors[k];
    const std::string where = "dimension " + std::to_string(k) + " of `" + part.name +
                              "`, whose size is " + std::to_string(size);
    if (!sel.is_range) {
      if (sel.begin >= size) {
        why = "index " + sel.text + " is out of range for " + where;
        return false;
      }
      narrowed.origin += sel.begin * stride;
      continue;
    }
    const int64_t end = sel.end < 0 ? size : sel.end + (sel.inclusive ? 1 : 0);
    if (sel.begin > end) {
      why = "range " + sel.text + " starts after its end, in " + where;
      return false;
    }
    if (end > size) {
      why = "range " + sel.text + " goes past the end of " + where;
      return false;
    }
    narrowed.origin += sel.begin * stride;
    narrowed.dims.push_back(end - sel.begin);
    narrowed.strides.push_back(stride);
  }
  layout = std::move(narrowed);
  return true;
}

std::string grid_text(const Layout& layout, const std::function<std::string(int64_t)>& element,
                      size_t indent) {
  if (layout.size() == 0) return "[]";
  Printer p{layout, element};
  p.summarise = layout.size() > kPrintThreshold;
  p.each_shown(0, layout.origin,
               [&](int64_t offset) { p.width = std::max(p.width, element(offset).size()); });
  return p.text(0, layout.origin, std::string(indent + 1, ' '), kLineWidth);
}

}  // namespace vx::repl
