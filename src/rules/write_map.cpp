// The map of who writes what (write_map.hpp, spec/cli.md §3.3): enumerates the passes of the
// across loops around a store, and the plain loops inside them that its offset uses, evaluates
// the offset of each as the program does, and records the first writer of every element and the
// elements that two passes running at the same time both write.
#include "rules/write_map.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "rules/kernel_access.hpp"
#include "support/internal_error.hpp"

namespace vx::kr {

namespace {

// The window drawn of each dimension: a 1-D tensor 256 elements (16 to a row), the last two
// dimensions 32 rows of 16 columns, and of the dimensions before them the first 4 slices.
std::vector<int64_t> window_of(const std::vector<int64_t>& shape) {
  std::vector<int64_t> w(shape.size(), 1);
  const size_t r = shape.size();
  if (r == 1) return {std::min<int64_t>(shape[0], 256)};
  w[r - 1] = std::min<int64_t>(shape[r - 1], 16);
  w[r - 2] = std::min<int64_t>(shape[r - 2], r == 2 ? 32 : 16);
  if (r >= 3) w[r - 3] = std::min<int64_t>(shape[r - 3], 4);
  return w;
}

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? sep : "") + parts[i];
  return s;
}

// A label of the values of the loops, by level: `1,2:3/4` (blocks : lanes / plain loops).
std::string label_of(const std::vector<const tir::Stmt*>& loops,
                     const std::vector<std::string>& values) {
  std::vector<std::string> level[3];
  for (size_t i = 0; i < loops.size(); ++i)
    level[loops[i]->across == tir::Across::Blocks  ? 0
          : loops[i]->across == tir::Across::Lanes ? 1
                                                   : 2]
        .push_back(values[i]);
  std::string s = join(level[0], ",");
  if (!level[1].empty()) s += (s.empty() ? "" : ":") + join(level[1], ",");
  if (!level[2].empty()) s += "/" + join(level[2], ",");
  return s;
}

// The first writer (the step that wrote it) of each element written so far, or that two passes
// wrote it. A table over the elements when the tensor is known and small enough (4 bytes an
// element), else a hash map: a map of 2^20 writes spent half its time allocating the hash map's
// nodes, and a kernel of many stores makes one map each.
class FirstWriters {
 public:
  static constexpr int64_t kNone = -1, kCollided = -2;
  explicit FirstWriters(int64_t elements) {
    if (elements > 0 && elements <= kDenseElements)
      dense_.assign(static_cast<size_t>(elements), static_cast<int32_t>(kNone));
  }
  int64_t get(int64_t e) const {
    if (in_table(e)) return dense_[static_cast<size_t>(e)];
    auto it = sparse_.find(e);
    return it == sparse_.end() ? kNone : it->second;
  }
  void set(int64_t e, int64_t step) {
    if (in_table(e))
      dense_[static_cast<size_t>(e)] = static_cast<int32_t>(step);
    else
      sparse_[e] = step;
  }

 private:
  static constexpr int64_t kDenseElements = int64_t{1} << 22;
  static_assert(kMapBudget <= INT32_MAX, "a step fits the table's int32_t");
  bool in_table(int64_t e) const { return e >= 0 && e < static_cast<int64_t>(dense_.size()); }
  std::vector<int32_t> dense_;
  std::unordered_map<int64_t, int64_t> sparse_;
};

class Mapper {
 public:
  Mapper(const FunctionFacts& f, const Access& a) : facts_(f), a_(a) {}

  WriteMap run() {
    if (a_.type)
      for (int64_t d : a_.type->dims) m_.shape.push_back(d > 0 ? d : 0);
    if (!a_.offset) refuse("the store uses the whole tensor");
    if (!a_.offset || !choose_loops() || !check_leaves()) return std::move(m_);
    const bool known = !m_.shape.empty() && std::all_of(m_.shape.begin(), m_.shape.end(),
                                                        [](int64_t d) { return d > 0; });
    flat_ = !known;
    if (known) {
      m_.window = window_of(m_.shape);
    } else {
      m_.window = {256};
      m_.notes.push_back("the shape of `" + a_.tensor +
                         "` is known only when the program runs: drawn by linear offset");
    }
    if (known && m_.window != m_.shape) {
      m_.sample = true;
      std::string part = a_.tensor, whole;
      for (size_t k = 0; k < m_.shape.size(); ++k) {
        part += "[0.." + std::to_string(m_.window[k]) + "]";
        whole += (k ? ", " : "") + std::to_string(m_.shape[k]);
      }
      m_.notes.push_back("a sample: `" + part + "` of [" + whole + "]");
    }
    int64_t cells = 1;
    for (int64_t w : m_.window) cells *= w;
    m_.cells.resize(static_cast<size_t>(cells));
    for (int64_t i = 0; i < cells; ++i) m_.cells[i].index = unflatten(i, m_.window);
    enumerate();
    return std::move(m_);
  }

 private:
  // No map: says why. Returns false.
  bool refuse(std::string why) {
    m_.unmappable = std::move(why);
    return false;
  }

  // The across loops from the outermost one around the store, and the plain loops inside it
  // that the offset uses (a plain loop it does not use repeats one pass's write).
  bool choose_loops() {
    std::set<const IxNode*> seen;
    auto collect = [&](const IxNode* n) { leaves_.push_back(n); };
    for_each_leaf(a_.offset, seen, collect);
    for (const auto& [index, size] : a_.indices) for_each_leaf(index, seen, collect);
    // The loops a condition on the way to the store reads are enumerated too; a value it reads
    // that is not known draws the pass as if it got there (enumerate).
    std::set<const IxNode*> in_guards;
    for_each_compared(a_.reach.guards, [&](const IxNode* side) {
      for_each_leaf(side, in_guards, [&](const IxNode* n) {
        if (n->op == IxOp::Loop) seen.insert(n);
      });
    });
    auto it = std::find_if(a_.fors.begin(), a_.fors.end(),
                           [](const tir::Stmt* s) { return s->across != tir::Across::None; });
    for (; it != a_.fors.end(); ++it) {
      const tir::Stmt* s = *it;
      const IxNode* leaf = facts_.dag->loop(s, s->var_name);
      if (s->across == tir::Across::None && !seen.count(leaf)) continue;
      if (!s->adapters.empty())
        return refuse("the loop `" + s->var_name +
                      "` runs over a range with `.rev()` or `.step_by()`: the map follows plain "
                      "ranges only");
      auto lo = must_find(facts_.loop_lo, s), hi = must_find(facts_.loop_hi, s);
      if (auto b = a_.bounds.find(leaf); b != a_.bounds.end()) {
        if (lo) lo = std::max(*lo, b->second.first);
        if (hi) hi = std::min(*hi, b->second.second);
      }
      if (!lo || !hi) return refuse("the loop `" + s->var_name + "` has no constant bounds");
      loops_.push_back(s);
      ranges_.push_back({leaf, *lo, *hi, s->across != tir::Across::None});
    }
    return true;
  }

  // Every other leaf of the offset must have a value known before the program runs.
  bool check_leaves() {
    for (const IxNode* leaf : leaves_) {
      if (leaf->op == IxOp::Const || index_of(leaf) >= 0) continue;
      if (leaf->op == IxOp::Loop) {
        auto* s = static_cast<const tir::Stmt*>(leaf->key);
        if (!s->adapters.empty())
          return refuse("the loop `" + leaf->name +
                        "` around the kernel runs over a range with `.rev()` or `.step_by()`: "
                        "the map follows plain ranges only");
        if (auto lo = must_find(facts_.loop_lo, s)) {
          fixed_[leaf] = *lo;
          m_.notes.push_back("`" + leaf->name + "` is " + std::to_string(*lo) +
                             ": a loop around the kernel takes its first value");
          continue;
        }
        return refuse("the loop `" + leaf->name + "` around the kernel has no constant start");
      }
      const std::string what = leaf->op == IxOp::Opaque ? "reads `" + leaf->name + "`, a value"
                                                        : "uses `" + leaf->name + "`, whose value";
      return refuse("the offset " + what +
                    " known only when the program runs: which pass writes which element cannot "
                    "be known before it runs");
    }
    return true;
  }

  int index_of(const IxNode* leaf) const {
    for (size_t i = 0; i < ranges_.size(); ++i)
      if (ranges_[i].leaf == leaf) return static_cast<int>(i);
    return -1;
  }

  static std::vector<int64_t> unflatten(int64_t off, const std::vector<int64_t>& dims) {
    std::vector<int64_t> idx(dims.size());
    for (size_t k = dims.size(); k-- > 0;) {
      idx[k] = off % dims[k];
      off /= dims[k];
    }
    return idx;
  }

  // The elements of the tensor; 0 when its shape is not known.
  int64_t elements() const {
    if (flat_) return 0;
    int64_t total = 1;
    for (int64_t d : m_.shape) total *= d;
    return total;
  }

  // The cell of an element, or -1 outside the window (the index from the last dimension in).
  int64_t cell_of(int64_t off) const {
    if (off < 0) return -1;
    if (flat_) return off < m_.window[0] ? off : -1;
    if (off >= elements_) return -1;
    int64_t cell = 0, scale = 1;
    for (size_t k = m_.shape.size(); k-- > 0;) {
      const int64_t i = off % m_.shape[k];
      off /= m_.shape[k];
      if (i >= m_.window[k]) return -1;
      cell += i * scale;
      scale *= m_.window[k];
    }
    return cell;
  }

  // A loop's number of values, in 128 bits: i64::MIN..i64::MAX has 2^64 (prover_extremes).
  static __int128 width(const LoopRange& r) { return static_cast<__int128>(r.hi) - r.lo + 1; }

  std::vector<int64_t> decode(int64_t step) const {
    std::vector<int64_t> v(ranges_.size());
    __int128 rest = step;
    for (size_t i = ranges_.size(); i-- > 0;) {
      const __int128 n = width(ranges_[i]);
      v[i] = static_cast<int64_t>(ranges_[i].lo + rest % n);  // at most hi
      rest /= n;
    }
    return v;
  }

  // Two writes collide when the first loop (outer first) whose values differ is an across loop:
  // they are two passes that run at the same time. A plain loop first: one pass, or two phases.
  // The earlier write is its step, its loops' values decoded here (no vector made for them).
  bool concurrent(int64_t step, const std::vector<int64_t>& y) const {
    bool parallel = false;  // of the outermost loop found so far whose values differ
    __int128 rest = step;
    for (size_t i = ranges_.size(); i-- > 0;) {
      const __int128 n = width(ranges_[i]);
      if (ranges_[i].lo + rest % n != y[i]) parallel = ranges_[i].parallel;
      rest /= n;
    }
    return parallel;
  }

  std::string pass_text(const std::vector<int64_t>& v) const {
    return describe_pass(facts_, loops_, v);
  }

  void enumerate() {
    __int128 total = 1;
    for (const LoopRange& r : ranges_) {
      total *= std::max<__int128>(width(r), 0);
      if (total > INT64_MAX) total = static_cast<__int128>(INT64_MAX) + 1;  // no 128-bit overflow
    }
    m_.total = total > INT64_MAX ? INT64_MAX : static_cast<int64_t>(total);
    const int64_t steps = std::min<int64_t>(m_.total, kMapBudget);
    if (steps < m_.total) {
      m_.sample = true;
      m_.notes.push_back("a sample of the passes: the first " + std::to_string(steps) + " of " +
                         std::to_string(m_.total) + " writes, in the order the loops count");
    }
    std::vector<std::string> names;
    for (const tir::Stmt* s : loops_) names.push_back(s->var_name);
    m_.label_form = label_of(loops_, names);
    std::vector<int64_t> cur(ranges_.size());
    for (size_t i = 0; i < ranges_.size(); ++i) cur[i] = ranges_[i].lo;
    auto value_of = [&](const IxNode* leaf) -> std::optional<int64_t> {
      if (int i = index_of(leaf); i >= 0) return cur[i];
      if (auto it = fixed_.find(leaf); it != fixed_.end()) return it->second;
      return std::nullopt;
    };
    elements_ = elements();
    FirstWriters first(elements_);
    std::unordered_map<int64_t, std::vector<int64_t>> others;  // later writers of one pass
    int64_t kept_out = 0;               // passes the conditions keep from the store
    bool undecided = a_.reach.unknown;  // a pass drawn though it may not get to the store
    for (int64_t step = 0; step < steps; ++step) {
      if (step) advance(cur);
      if (auto runs = guards_hold(a_.reach.guards, value_of); !runs) {
        undecided = true;
      } else if (!*runs) {
        ++kept_out;
        continue;
      }
      ++m_.evaluations;
      auto off = evaluate(a_.offset, value_of);
      bool in = off.has_value();
      for (const auto& [index, size] : a_.indices) {
        if (!in || size <= 0) continue;
        auto v = evaluate(index, value_of);
        in = v && *v >= 0 && *v < size;
      }
      if (!in) {
        ++m_.out_of_bounds;
        continue;
      }
      const int64_t e = *off;
      const int64_t writer = first.get(e);
      if (writer == FirstWriters::kCollided) continue;
      const int64_t cell = cell_of(e);
      if (writer == FirstWriters::kNone) {
        first.set(e, step);
        if (cell >= 0) {
          MapCell& c = m_.cells[cell];
          c.written = true;
          c.block = block_number(cur);
          std::vector<std::string> vals;
          for (int64_t v : cur) vals.push_back(std::to_string(v));
          c.label = label_of(loops_, vals);
          c.block_label = c.label.substr(0, c.label.find_first_of(":/"));
          c.pass = pass_text(cur);
        }
        continue;
      }
      std::vector<int64_t>& later = others[e];
      std::optional<int64_t> with;
      if (concurrent(writer, cur)) with = writer;
      for (int64_t s : later)
        if (!with && concurrent(s, cur)) with = s;
      if (!with) {
        if (later.size() < 16) later.push_back(step);
        continue;
      }
      first.set(e, FirstWriters::kCollided);
      ++m_.collided;
      others.erase(e);
      if (cell < 0 && !m_.first_collision.empty()) continue;
      const std::string what = pass_text(decode(*with)) + " and " + pass_text(cur) +
                               " both write " + element_text(a_.type, e);
      if (cell >= 0) {
        m_.cells[cell].collides = true;
        m_.cells[cell].collision = what;
      }
      if (m_.first_collision.empty()) m_.first_collision = what;
    }
    if (kept_out)
      m_.notes.push_back(std::to_string(kept_out) + " of the passes enumerated do not get to the " +
                         "store (a condition on the way), and write nothing");
    if (undecided)
      m_.notes.push_back(
          "every pass is drawn as if it got to the store: what decides whether it "
          "does is not followed here");
  }

  void advance(std::vector<int64_t>& cur) const {
    for (size_t i = cur.size(); i-- > 0;) {
      if (cur[i] < ranges_[i].hi) {  // never steps past i64::MAX
        ++cur[i];
        return;
      }
      cur[i] = ranges_[i].lo;
    }
  }

  // The block's number, counted in 64 bits that wrap (defined for unsigned integers): past 2^63
  // blocks it only picks a colour.
  int64_t block_number(const std::vector<int64_t>& cur) const {
    uint64_t n = 0;
    for (size_t i = 0; i < cur.size(); ++i)
      if (loops_[i]->across == tir::Across::Blocks)
        n = n * static_cast<uint64_t>(width(ranges_[i])) +
            (static_cast<uint64_t>(cur[i]) - static_cast<uint64_t>(ranges_[i].lo));
    return static_cast<int64_t>(n & INT64_MAX);  // never negative: it indexes the palette
  }

  const FunctionFacts& facts_;
  const Access& a_;
  WriteMap m_;
  bool flat_ = false;     // the shape is not known: cells are linear offsets
  int64_t elements_ = 0;  // elements(), once the shape is read
  std::vector<const IxNode*> leaves_;
  std::vector<const tir::Stmt*> loops_;
  std::vector<LoopRange> ranges_;
  std::map<const IxNode*, int64_t> fixed_;
};

}  // namespace

WriteMap map_store(const FunctionFacts& facts, const Access& store) {
  return Mapper(facts, store).run();
}

}  // namespace vx::kr
