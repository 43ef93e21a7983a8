// Drawing the maps of who writes what (write_map.hpp, spec/cli.md §3.3): a grid of text for a
// terminal, coloured by block with ANSI escapes when colour is on; one SVG picture; or JSON data.
#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>

#include "rules/write_map.hpp"

namespace vx::kr {

namespace {

// Colours by block on a terminal, in turn (red is kept for collisions): a terminal has few.
const char* const kAnsi[] = {"34", "32", "33", "35", "36", "94", "92", "93", "95", "96"};
constexpr int kColours = 10;
// A cell two passes write shows its first writer's label and this mark (`0:8!`).
constexpr const char* kCollisionMark = "!";
constexpr const char* kCollisionWords = "!!";  // the mark of the lines under the grid

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t k = 0; k < shape.size(); ++k)
    s += (k ? ", " : "") + (shape[k] > 0 ? std::to_string(shape[k]) : std::string("?"));
  return s + "]";
}

std::string heading(const SourceFile& file, const StoreExplain& s) {
  LineCol lc = file.line_col(s.span.begin);
  return file.path() + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.col) +
         ": who writes `" + s.place + "` of `" + s.tensor + "` " + shape_text(s.map->shape);
}

std::string legend_text(const WriteMap& m) {
  return "each element shows `" + m.label_form + "`, the pass that writes it; `" + m.label_form +
         kCollisionMark + "`: another pass writes it too";
}

std::string collision_text(const WriteMap& m) {
  if (m.collided == 0)
    return m.evaluations < m.total ? "no two of the passes evaluated write the same element"
                                   : "no two passes write the same element";
  return std::string(kCollisionWords) + " " + std::to_string(m.collided) + " element" +
         (m.collided == 1 ? "" : "s") + " written by two passes; the first: " + m.first_collision;
}

// Every line said under the grid.
std::vector<std::string> footer(const WriteMap& m) {
  std::vector<std::string> lines = {collision_text(m)};
  if (m.out_of_bounds)
    lines.push_back(std::to_string(m.out_of_bounds) +
                    " writes out of bounds are not drawn (the program stops at the first)");
  for (const std::string& n : m.notes) lines.push_back(n);
  return lines;
}

// The digit table of the outermost across loop's proof, for a sample (empty: none to show).
std::string digits_table(const StoreExplain& s) {
  for (const LoopCheck& c : s.checks) {
    if (c.private_buffer || c.proof.digits.empty()) continue;
    std::ostringstream t;
    t << "the digits of the offset `" << s.offset << "` (vx check --explain):\n";
    print_proof_table(t, c.proof, "  ");
    return t.str();
  }
  return {};
}

// The grid's geometry: slices of rows of columns.
struct Grid {
  int64_t rows = 1, cols = 1, slices = 1;
  bool one_d = false;
};

Grid grid_of(const WriteMap& m) {
  Grid g;
  const auto& w = m.window;
  if (w.size() == 1) {
    g.one_d = true;
    g.cols = std::min<int64_t>(w[0], 16);
    g.rows = (w[0] + 15) / 16;
    return g;
  }
  g.rows = w[w.size() - 2];
  g.cols = w[w.size() - 1];
  for (size_t k = 0; k + 2 < w.size(); ++k) g.slices *= w[k];
  return g;
}

std::string slice_name(const WriteMap& m, const std::string& tensor, int64_t slice) {
  std::string s;
  for (size_t k = m.window.size() - 2; k-- > 0;) {
    s = "[" + std::to_string(slice % m.window[k]) + "]" + s;
    slice /= m.window[k];
  }
  return tensor + s;
}

// A written cell's text: its first writer, marked when another pass writes it too.
std::string cell_text(const MapCell& c) { return c.collides ? c.label + kCollisionMark : c.label; }

size_t cell_width(const WriteMap& m) {
  size_t w = 2;
  for (const MapCell& c : m.cells)
    if (c.written) w = std::max(w, cell_text(c).size());
  return w;
}

std::string pad_left(const std::string& s, size_t w) {
  return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}

void rstrip(std::string& s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
}

void text_map(std::ostream& out, const SourceFile& file, const StoreExplain& s, bool color) {
  const WriteMap& m = *s.map;
  out << heading(file, s) << "\n";
  if (!m.unmappable.empty()) {
    out << "  no map: " << m.unmappable << "\n";
    return;
  }
  out << "  " << legend_text(m) << "\n";
  const Grid g = grid_of(m);
  const size_t w = cell_width(m);
  const int64_t cells = static_cast<int64_t>(m.cells.size());
  const size_t prefix =
      std::to_string(g.one_d ? (g.rows - 1) * 16 : std::max<int64_t>(g.rows - 1, 0)).size();
  for (int64_t sl = 0; sl < g.slices; ++sl) {
    if (g.slices > 1 || m.window.size() > 2) out << "  " << slice_name(m, s.tensor, sl) << ":\n";
    if (!g.one_d) {
      std::string h = "  " + std::string(prefix + 2, ' ');
      for (int64_t c = 0; c < g.cols; ++c) h += " " + pad_left(std::to_string(c), w);
      out << h << "\n";
    }
    for (int64_t r = 0; r < g.rows; ++r) {
      std::string line = "  " + pad_left(std::to_string(g.one_d ? r * 16 : r), prefix) + " |";
      for (int64_t c = 0; c < g.cols; ++c) {
        const int64_t i = (sl * g.rows + r) * g.cols + c;
        if (i >= cells) break;
        const MapCell& cell = m.cells[i];
        line += " ";
        if (!cell.written) {
          line += std::string(w, ' ');
          continue;
        }
        const std::string text = pad_left(cell_text(cell), w);
        if (!color)
          line += text;
        else if (cell.collides)
          line += "\x1b[1;97;41m" + text + "\x1b[0m";
        else
          line += std::string("\x1b[") + kAnsi[cell.block % kColours] + "m" + text + "\x1b[0m";
      }
      rstrip(line);
      out << line << "\n";
    }
  }
  for (const std::string& l : footer(m)) {
    if (color && l.starts_with(kCollisionWords))
      out << "  \x1b[1;31m" << kCollisionWords << "\x1b[0m" << l.substr(2) << "\n";
    else
      out << "  " << l << "\n";
  }
  if (m.sample) {
    std::istringstream t(digits_table(s));
    for (std::string l; std::getline(t, l);) out << "  " << l << "\n";
  }
}

std::string xml(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

// The SVG's fills: one colour per block drawn, none repeated within a map. The n blocks drawn,
// in order, take n hues spread evenly over 30°–330° (red is kept for collisions), visited with a
// step near 0.38 n that is prime to n, so that neighbouring blocks get distant hues.
class BlockFills {
 public:
  explicit BlockFills(const WriteMap& m) {
    for (const MapCell& c : m.cells)
      if (c.written) blocks_.push_back(c.block);
    std::sort(blocks_.begin(), blocks_.end());
    blocks_.erase(std::unique(blocks_.begin(), blocks_.end()), blocks_.end());
    const int64_t n = static_cast<int64_t>(blocks_.size());
    step_ = std::max<int64_t>(1, n * 38 / 100);
    while (std::gcd(step_, n) > 1) ++step_;
  }
  const std::vector<int64_t>& blocks() const { return blocks_; }
  std::string fill(int64_t block) const {
    const int64_t n = static_cast<int64_t>(blocks_.size());
    const int64_t rank = std::lower_bound(blocks_.begin(), blocks_.end(), block) - blocks_.begin();
    const double hue =
        30.0 + 300.0 * static_cast<double>(rank * step_ % n) / static_cast<double>(n);
    char buf[48];
    std::snprintf(buf, sizeof buf, "hsl(%.2f, 70%%, 78%%)", hue);
    return buf;
  }

 private:
  std::vector<int64_t> blocks_;  // the blocks drawn, in order
  int64_t step_ = 1;
};

constexpr const char* kCollisionStroke = "#d50000";
constexpr size_t kLegendBlocks = 16;  // the legend names at most this many blocks

// One map as SVG elements from the top `y`; returns its width and adds its height to `y`.
// The elements (spec/cli.md §3.3): per cell a `<rect class="cell">` with `data-index`,
// `data-pass` and a `<title>` tooltip, then its label `<text class="label">`.
int64_t svg_map(std::ostream& out, const SourceFile& file, const StoreExplain& s, int64_t& y) {
  const WriteMap& m = *s.map;
  auto text = [&](int64_t x, int64_t at, const std::string& t, const char* cls) {
    out << "  <text class=\"" << cls << "\" x=\"" << x << "\" y=\"" << at << "\">" << xml(t)
        << "</text>\n";
  };
  int64_t width = 16 + 8 * static_cast<int64_t>(heading(file, s).size());
  y += 22;
  text(12, y, heading(file, s), "title");
  if (!m.unmappable.empty()) {
    y += 20;
    text(12, y, "no map: " + m.unmappable, "note");
    y += 14;
    return width;
  }
  y += 18;
  text(12, y, legend_text(m), "note");
  const BlockFills fills(m);
  const Grid g = grid_of(m);
  const int64_t cw = std::max<int64_t>(36, 8 * static_cast<int64_t>(cell_width(m)) + 10);
  const int64_t ch = 22, x0 = 12 + 8 * 6;
  const int64_t cells = static_cast<int64_t>(m.cells.size());
  y += 10;
  for (int64_t sl = 0; sl < g.slices; ++sl) {
    if (g.slices > 1 || m.window.size() > 2) {
      y += 18;
      text(12, y, slice_name(m, s.tensor, sl) + ":", "note");
    }
    if (!g.one_d) {
      y += 16;
      for (int64_t c = 0; c < g.cols; ++c)
        text(x0 + c * cw + cw / 2 - 4, y, std::to_string(c), "axis");
    }
    y += 6;
    for (int64_t r = 0; r < g.rows; ++r) {
      text(12, y + 15, std::to_string(g.one_d ? r * 16 : r), "axis");
      for (int64_t c = 0; c < g.cols; ++c) {
        const int64_t i = (sl * g.rows + r) * g.cols + c;
        if (i >= cells) break;
        const MapCell& cell = m.cells[i];
        std::string index;
        for (size_t k = 0; k < cell.index.size(); ++k)
          index += (k ? "," : "") + std::to_string(cell.index[k]);
        out << "  <rect class=\"cell"
            << (!cell.written   ? " blank"
                : cell.collides ? " collision"
                                : "")
            << "\" data-index=\"" << index << "\"";
        if (cell.written) out << " data-pass=\"" << xml(cell.label) << "\"";
        out << " x=\"" << x0 + c * cw << "\" y=\"" << y << "\" width=\"" << cw << "\" height=\""
            << ch << "\" fill=\"" << (cell.written ? fills.fill(cell.block) : "#ffffff") << "\"";
        if (cell.collides)
          out << " stroke=\"" << kCollisionStroke << "\" stroke-width=\"3\"";
        else
          out << " stroke=\"#888888\"";
        std::string element = "element ";  // as the E6032 note names it: `element [1][2]`
        for (int64_t v : cell.index)
          element += cell.index.size() == 1 ? std::to_string(v) : "[" + std::to_string(v) + "]";
        out << "><title>"
            << xml(cell.collides  ? cell.collision
                   : cell.written ? element + ": written by " + cell.pass
                                  : element + ": no pass writes it")
            << "</title></rect>\n";
        if (cell.written)
          text(x0 + c * cw + 4, y + 15, cell_text(cell),
               cell.collides ? "label collision" : "label");
      }
      y += ch;
    }
    width = std::max(width, x0 + g.cols * cw + 12);
  }
  // The legend: the blocks drawn, in order, each with its colour (at most kLegendBlocks), and the
  // mark of a collision when there is one.
  y += 12;
  int64_t lx = 12;
  std::map<int64_t, std::string> block_labels;
  for (const MapCell& c : m.cells)
    if (c.written) block_labels.emplace(c.block, c.block_label);
  const std::vector<int64_t>& blocks = fills.blocks();
  for (size_t k = 0; k < blocks.size() && k < kLegendBlocks; ++k) {
    const std::string& label = block_labels[blocks[k]];
    out << "  <rect class=\"legend\" x=\"" << lx << "\" y=\"" << y << "\" width=\"14\" "
        << "height=\"14\" fill=\"" << fills.fill(blocks[k]) << "\" stroke=\"#888888\"/>\n";
    text(lx + 18, y + 12, "block " + label, "note");
    lx += 30 + 8 * static_cast<int64_t>(6 + label.size());
  }
  if (blocks.size() > kLegendBlocks) {
    const std::string more = "and " + std::to_string(blocks.size() - kLegendBlocks) + " more";
    text(lx, y + 12, more, "note");
    lx += 16 + 8 * static_cast<int64_t>(more.size());
  }
  if (m.collided) {
    out << "  <rect class=\"legend collision\" x=\"" << lx << "\" y=\"" << y << "\" width=\"14\" "
        << "height=\"14\" fill=\"#ffffff\" stroke=\"" << kCollisionStroke
        << "\" stroke-width=\"3\"/>\n";
    text(lx + 18, y + 12, "two passes", "note");
    lx += 110;
  }
  width = std::max(width, lx);
  y += 14;
  std::vector<std::string> lines = footer(m);
  if (m.sample) {
    std::istringstream t(digits_table(s));
    for (std::string l; std::getline(t, l);) lines.push_back(l);
  }
  // The lines under the grid keep their spaces: the digit table's columns are aligned with them.
  for (const std::string& l : lines) {
    y += 18;
    out << "  <text class=\"" << (l.starts_with(kCollisionWords) ? "note collision" : "note")
        << "\" xml:space=\"preserve\" x=\"12\" y=\"" << y << "\">" << xml(l) << "</text>\n";
    width = std::max(width, 16 + 8 * static_cast<int64_t>(l.size()));
  }
  y += 14;
  return width;
}

// One SVG document, with no XML declaration: it is embedded as it is in HTML (Jupyter, nbconvert,
// the playground), where a declaration is an error.
void svg_maps(std::ostream& out, const SourceFile& file, const std::vector<StoreExplain>& stores) {
  std::ostringstream body;
  int64_t y = 0, width = 200;
  if (stores.empty()) {
    y = 30;
    body << "  <text class=\"note\" x=\"12\" y=\"22\">no stores in across loops</text>\n";
  }
  for (const StoreExplain& s : stores)
    if (s.map) width = std::max(width, svg_map(body, file, s, y));
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << y
      << "\" viewBox=\"0 0 " << width << " " << y << "\">\n"
      << "  <style>text { font-family: monospace; font-size: 12px; fill: #222222; }\n"
      << "    text.title { font-size: 13px; font-weight: bold; }\n"
      << "    text.axis { fill: #777777; }\n"
      << "    text.note { white-space: pre; }\n"
      << "    text.label { pointer-events: none; }\n"
      << "    text.collision { fill: #b71c1c; font-weight: bold; }</style>\n"
      << "  <rect x=\"0\" y=\"0\" width=\"" << width << "\" height=\"" << y
      << "\" fill=\"#ffffff\"/>\n"
      << body.str() << "</svg>\n";
}

Diagnostic map_diagnostic(const StoreExplain& s) {
  const WriteMap& m = *s.map;
  Diagnostic d;
  d.severity = Severity::Note;
  d.message = "map: who writes `" + s.place + "`";
  d.span = s.span;
  nlohmann::json& data = *d.data;
  data = {{"kind", "map"}, {"store", s.place}, {"tensor", s.tensor}, {"shape", m.shape}};
  if (!m.unmappable.empty()) {
    data["unmappable"] = m.unmappable;
    return d;
  }
  data["window"] = m.window;
  data["label"] = m.label_form;
  data["sample"] = m.sample;
  data["evaluations"] = m.evaluations;
  data["total"] = m.total;
  data["out_of_bounds"] = m.out_of_bounds;
  data["collided"] = m.collided;
  data["first_collision"] = m.first_collision;
  data["notes"] = m.notes;
  data["cells"] = nlohmann::json::array();
  for (const MapCell& c : m.cells)
    data["cells"].push_back({{"index", c.index},
                             {"pass", c.written ? nlohmann::json(c.label) : nlohmann::json()},
                             {"block", c.written ? nlohmann::json(c.block) : nlohmann::json()},
                             {"collides", c.collides}});
  return d;
}

}  // namespace

void render_maps(std::ostream& out, const SourceFile& file, const std::vector<StoreExplain>& stores,
                 MapFormat format, bool color) {
  if (format == MapFormat::Svg) return svg_maps(out, file, stores);
  if (format == MapFormat::Json) {
    for (const StoreExplain& s : stores)
      if (s.map)
        out << diagnostic_json(file, map_diagnostic(s))
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
            << "\n";
    return;
  }
  if (stores.empty()) out << "no stores in across loops\n";
  for (const StoreExplain& s : stores)
    if (s.map) text_map(out, file, s, color);
}

}  // namespace vx::kr
