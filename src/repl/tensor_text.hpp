// How `vx repl` prints a tensor's elements (spec/cli.md §7.1): numpy's layout under its default
// print options — nested brackets, one width for every element shown, rows wrapped at 80 columns,
// the middle of every long dimension elided once a tensor has more than 1,000 elements — with each
// element the text that Vx's `{}` gives it. Also the parts of a tensor that `:show t[1][2..6]`
// names. Needs nothing of the session: elements come in as text.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace vx::repl {

// numpy's `printoptions` defaults: past `threshold` elements a tensor is summarised, keeping
// `edgeitems` at each end of every longer dimension; lines stay within `linewidth` columns.
constexpr int64_t kPrintThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr size_t kLineWidth = 80;

// Where a tensor's elements lie in its storage: an extent and a stride (in elements) for each
// dimension, from an origin. A whole tensor is row-major; `:show`'s selectors narrow it.
struct Layout {
  std::vector<int64_t> dims, strides;
  int64_t origin = 0;
  int64_t size() const;
};
Layout row_major(const std::vector<int64_t>& dims);

// One `[...]` of `:show`: an index, which drops its dimension, or a half-open range, which keeps
// it narrowed (`a..b`, `a..=b`, `a..`, `..b`, `..`).
struct Selector {
  bool is_range = false;
  int64_t begin = 0;
  int64_t end = -1;  // past the last; -1: to the end of the dimension
  bool inclusive = false;
  std::string text;  // as typed, for messages
};
struct Part {
  std::string name;
  std::vector<Selector> selectors;
};

// Parses `NAME`, `NAME[1]`, `NAME[0..4][2..6]`; false with `why` when it is not of that form.
bool parse_part(const std::string& text, Part& part, std::string& why);

// Narrows `layout` (the tensor `part.name`'s) by the selectors, the k-th applying to dimension k.
// False with `why`, naming the dimension and its size, when an index or a range does not fit.
bool select_part(const Part& part, Layout& layout, std::string& why);

// The elements `layout` names, as numpy prints them; `element(offset)` is the text of the element
// at `offset` of the storage. `indent` columns stand before the first `[` on its line (`= `):
// the lines after it start with as many blanks, so that the brackets line up.
std::string grid_text(const Layout& layout, const std::function<std::string(int64_t)>& element,
                      size_t indent);

}  // namespace vx::repl
