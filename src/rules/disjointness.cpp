// The disjointness half of the kernel rules (spec/kernel-rules.md §4-5): for each across loop,
// every index at which it writes a tensor (and does not make the tensor itself) must be proved
// different in every pass by the mixed-radix rule, every other access to the tensor must reach
// no element another pass writes (the same canonical polynomial, apart, within the pass, or
// shifted: §4 step 2), and a tensor changed by atomics is accessed only by atomics.
#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>

#include "rules/index_poly.hpp"
#include "rules/kernel_access.hpp"
#include "rules/kernel_rules.hpp"
#include "rules/mixed_radix.hpp"
#include "rules/write_map.hpp"
#include "support/internal_error.hpp"
#include "support/pass_name.hpp"

namespace vx::kr {

bool FunctionFacts::declared_inside(int slot, const tir::Stmt* loop) const {
  if (slot < 0 || slot >= static_cast<int>(decl_fors.size())) return false;
  const auto& c = decl_fors[slot];
  return std::find(c.begin(), c.end(), loop) != c.end();
}

bool FunctionFacts::loop_inside(const tir::Stmt* inner, const tir::Stmt* loop) const {
  auto it = loop_fors.find(inner);
  if (it == loop_fors.end()) return false;
  return std::find(it->second.begin(), it->second.end(), loop) != it->second.end();
}

std::pair<std::optional<int64_t>, std::optional<int64_t>> FunctionFacts::known_bounds(
    const tir::Stmt* loop) const {
  auto lo = loop_lo.find(loop), hi = loop_hi.find(loop);
  return {lo == loop_lo.end() ? std::nullopt : lo->second,
          hi == loop_hi.end() ? std::nullopt : hi->second};
}

std::optional<std::pair<int64_t, int64_t>> FunctionFacts::leaf_range(const IxNode* leaf,
                                                                     int depth) const {
  if (leaf->op == IxOp::Symbol) return std::pair<int64_t, int64_t>{0, INT32_MAX};
  if (leaf->op != IxOp::Loop || depth > 16) return std::nullopt;
  auto* s = static_cast<const tir::Stmt*>(leaf->key);
  const auto lo_it = loop_lo.find(s), hi_it = loop_hi.find(s);
  if (lo_it == loop_lo.end() || hi_it == loop_hi.end()) return std::nullopt;  // not walked yet
  const auto lo = lo_it->second, hi = hi_it->second;
  auto b = loop_bounds.find(s);
  auto range_of = [&](const IxNode* n) {
    return value_range(n, [&](const IxNode* l) { return leaf_range(l, depth + 1); });
  };
  __int128 l = 0, h = 0;
  if (lo)
    l = *lo;
  else if (b != loop_bounds.end())
    l = range_of(b->second.first).first;
  else
    return std::nullopt;
  if (hi)
    h = *hi;
  else if (b != loop_bounds.end())
    h = range_of(b->second.second).second - (s->inclusive ? 0 : 1);
  else
    return std::nullopt;
  if (h < l) h = l;  // an empty loop: no pass writes
  if (l < INT64_MIN || h > INT64_MAX) return std::nullopt;
  return std::pair<int64_t, int64_t>{static_cast<int64_t>(l), static_cast<int64_t>(h)};
}

Span loop_header(const tir::Stmt* loop, const SourceFile& file) {
  Span s = loop->span;
  if (loop->body && loop->body->span.begin > s.begin) {
    uint32_t end = loop->body->span.begin;
    const std::string& t = file.text();
    while (end > s.begin &&
           (t[end - 1] == ' ' || t[end - 1] == '\t' || t[end - 1] == '\n' || t[end - 1] == '\r'))
      --end;
    s.end = end;
  }
  return s;
}

std::string describe_pass(const FunctionFacts& facts, const std::vector<const tir::Stmt*>& stmts,
                          const std::vector<int64_t>& vals) {
  std::vector<int64_t> blocks, lanes;
  std::string seq;
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (stmts[i]->across == tir::Across::Blocks)
      blocks.push_back(vals[i]);
    else if (stmts[i]->across == tir::Across::Lanes)
      lanes.push_back(vals[i]);
    else
      seq +=
          (seq.empty() ? " with `" : ", `") + stmts[i]->var_name + "` = " + std::to_string(vals[i]);
  }
  return pass_name(blocks, lanes, facts.words.lane) + seq;
}

std::string element_text(const Type* t, int64_t off) {
  if (!t || t->rank() <= 1 || off < 0) return "element " + std::to_string(off);
  for (int64_t d : t->dims)
    if (d <= 0) return "element " + std::to_string(off);
  std::vector<int64_t> idx(t->rank());
  for (int k = t->rank() - 1; k >= 0; --k) {
    idx[k] = off % t->dims[k];
    off /= t->dims[k];
  }
  std::string s = "element ";
  for (int64_t i : idx) s += "[" + std::to_string(i) + "]";
  return s;
}

namespace {

class Checker {
 public:
  Checker(const FunctionFacts& f, Diagnostics& d, std::vector<StoreExplain>* e, bool maps)
      : facts_(f), diags_(d), explain_(e), maps_(maps) {}

  void run() {
    for (const tir::Stmt* loop : facts_.across_loops) check_loop(loop);
    if (explain_) build_explain();
  }

 private:
  // `ranges`: a loop whose bounds are not constants takes the range of values its bounds can
  // have (§4.9's proof; the row-major one keeps such a digit unbounded, §4 step 4).
  LeafInfo classify(const IxNode* leaf, const tir::Stmt* loop, const Access& a,
                    bool ranges = false) const {
    if (auto it = whole_index_.find(leaf); it != whole_index_.end()) return it->second;
    LeafInfo info;
    switch (leaf->op) {
      case IxOp::Loop: {
        auto* s = static_cast<const tir::Stmt*>(leaf->key);
        if (facts_.loop_inside(s, loop)) {
          info.kind = LeafInfo::Digit;
          info.lo = must_find(facts_.loop_lo, s);
          info.hi = must_find(facts_.loop_hi, s);
          info.parallel = s == loop;
          if (ranges && (!info.lo || !info.hi))
            if (auto r = facts_.leaf_range(leaf)) {
              if (!info.lo) info.lo = r->first;
              if (!info.hi) info.hi = r->second;
            }
          if (auto it = a.bounds.find(leaf); it != a.bounds.end()) {
            info.lo = info.lo ? std::max(*info.lo, it->second.first) : it->second.first;
            info.hi = info.hi ? std::min(*info.hi, it->second.second) : it->second.second;
          }
        }
        return info;
      }
      case IxOp::Var: {
        int slot =
            static_cast<int>(static_cast<const Type*>(leaf->key) - facts_.fn->slot_types.data());
        if (facts_.declared_inside(slot, loop)) info.kind = LeafInfo::Varying;
        return info;
      }
      case IxOp::Opaque:
        info.kind = LeafInfo::Varying;
        return info;
      default:
        return info;
    }
  }

  RadixProof prove(const Access& a, const tir::Stmt* loop) const {
    RadixProof p = prove_offset(a, a.offset, loop);
    if (p.proved() || a.indices.size() < 2) return p;
    const IxNode* combined = combination(a, loop, nullptr);
    if (!combined) return p;  // no constant stride: the first proof's failure
    RadixProof q = prove_offset(a, combined, loop, true);
    // Neither proves it: the failure that says more. A row-major offset whose strides are not
    // constants (`r * dim1 + c` of a `[?, ?]` tensor) is no sum of digits, and only index by
    // index do the digits get a table and comparisons that name what fails (`r / 2` does not fix
    // `r`).
    const bool says_more =
        p.failure == RadixProof::NotDigits && !p.too_large && q.failure != RadixProof::NotDigits;
    if (!q.proved() && !says_more) return p;
    q.per_dimension = to_string(combined);
    return q;
  }

  // Index by index (§4.9): an in-bounds access reaches one element per tuple of indices, so the
  // tuple, not the row-major offset, must differ between passes, and any function of the tuple
  // that differs proves it. This one gives each index (those with `keep[k]`, when given) a
  // stride of the widths of the indices after it: a dimension's size where the type fixes it,
  // else the range of values the index can take. A pair `[x / W][x % W]` is x (the quotient and
  // remainder by any W tell the values of x apart). An index that holds no digit of `loop` but
  // changes within a pass is one digit of its own, bounded by its value range and its
  // dimension: whatever its value, it cannot make two passes' tuples equal. Null when a stride
  // does not fit an i64.
  const IxNode* combination(const Access& a, const tir::Stmt* loop,
                            const std::vector<bool>* keep) const {
    auto leaf = [&](const IxNode* l) { return facts_.leaf_range(l); };
    const IxNode* own = facts_.dag->loop(loop, loop->var_name);
    struct Term {
      const IxNode* node;
      __int128 width;
    };
    std::vector<Term> terms;
    auto kept = [&](size_t k) { return !keep || (*keep)[k]; };
    for (size_t k = 0; k < a.indices.size(); ++k) {
      if (!kept(k)) continue;
      const IxNode* e = a.indices[k].first;
      const int64_t size = a.indices[k].second;
      if (k + 1 < a.indices.size() && kept(k + 1)) {
        const IxNode* r = a.indices[k + 1].first;
        if (e->op == IxOp::Div && r->op == IxOp::Rem && e->a == r->a && e->b == r->b) {
          auto [lo, hi] = value_range(e->a, leaf);
          terms.push_back({e->a, hi - lo + 1});
          ++k;
          continue;
        }
      }
      auto [lo, hi] = value_range(e, leaf);
      if (!loop_leaves({e}).count(own) && varies_within(e, loop, a)) {
        // In bounds: 0 ..= size - 1, a `?` dimension's size at most 2^31 - 1.
        lo = std::max<__int128>(lo, 0);
        hi = std::min<__int128>(hi, (size > 0 ? size : int64_t{INT32_MAX}) - 1);
        if (hi < lo) hi = lo;
        const IxNode* d = facts_.dag->loop(&a.indices[k], "(index " + std::to_string(k + 1) + ")");
        LeafInfo info;
        info.kind = LeafInfo::Digit;
        info.lo = static_cast<int64_t>(lo);
        info.hi = static_cast<int64_t>(hi);
        whole_index_[d] = info;
        terms.push_back({d, hi - lo + 1});
        continue;
      }
      terms.push_back({e, size > 0 ? __int128{size} : hi - lo + 1});
    }
    if (terms.empty()) return nullptr;
    const IxNode* combined = nullptr;
    __int128 stride = 1;
    for (size_t k = terms.size(); k-- > 0;) {
      const IxNode* term =
          stride == 1 ? terms[k].node
                      : facts_.dag->binary(IxOp::Mul, terms[k].node,
                                           facts_.dag->constant(static_cast<int64_t>(stride)));
      combined = combined ? facts_.dag->binary(IxOp::Add, term, combined) : term;
      if (k == 0) break;
      if (terms[k].width <= 0 || __builtin_mul_overflow(stride, terms[k].width, &stride) ||
          stride > INT64_MAX)
        return nullptr;
    }
    return combined;
  }

  // Whether an index can change within a pass of `loop`: it has a digit of a loop inside it, or
  // a value declared inside it.
  bool varies_within(const IxNode* e, const tir::Stmt* loop, const Access& a) const {
    std::set<const IxNode*> seen;
    std::function<bool(const IxNode*)> walk = [&](const IxNode* n) -> bool {
      if (!n || !seen.insert(n).second) return false;
      if (n->is_leaf()) return n->too_deep || classify(n, loop, a).kind != LeafInfo::Fixed;
      return walk(n->a) || walk(n->b);
    };
    return walk(e);
  }

  RadixProof prove_offset(const Access& a, const IxNode* offset, const tir::Stmt* loop,
                          bool ranges = false) const {
    auto lo = must_find(facts_.loop_lo, loop), hi = must_find(facts_.loop_hi, loop);
    bool single = lo && hi && *hi <= *lo;
    RadixProof p = prove_unique(
        offset, [&](const IxNode* l) { return classify(l, loop, a, ranges); }, single);
    // The digits reason in mathematical integers; the program computes in its types.
    if (p.proved())
      if (auto w = find_wrap(
              offset, [&](const IxNode* l) { return facts_.leaf_range(l); },
              [&](const IxNode* l) { return classify(l, loop, a).kind == LeafInfo::Fixed; })) {
        p.failure = RadixProof::Wraps;
        p.why = describe_wrap(*w);
        p.widen = widen_help(*w);
      }
    return p;
  }

  // §4 step 2: whether `a` and `b` name one index, as canonical polynomials (`1 + t` is
  // `t + 1`).
  bool same_index(const Access& a, const Access& b) {
    return a.offset && b.offset && forms_.same(a.offset, b.offset);
  }

  // Whether access `a` reaches, in every pass of `loop`, no element that another pass reaches
  // through the write `w` (for two writes, in either direction); `why` says how, for --explain.
  bool accepted(const Access& a, const Access& w, const tir::Stmt* loop,
                std::string* why = nullptr) {
    std::string text;
    if (same_index(a, w)) {
      if (a.offset != w.offset) text = "the same index as the store, as a polynomial";
    } else if (auto d = apart(a, w)) {
      text = *d;
    } else if (auto s = within_pass(a, w, loop)) {
      text = "`" + a.text + "` is the store's index with " + *s;
    } else if (a.write && (s = within_pass(w, a, loop))) {
      text = "the store's index is `" + a.text + "`'s with " + *s;
    } else if (auto d = shifted(a, w, loop)) {
      text = *d;
    } else if (auto f = common_frame(a, w, loop)) {
      text = *f;
    } else if (auto r = same_rows(a, w, loop)) {
      text = *r;
    } else {
      return false;
    }
    if (why) *why = text;
    return true;
  }

  static std::string range_text(std::pair<__int128, __int128> r) {
    return r.first == r.second ? int128_text(r.first)
                               : int128_text(r.first) + " to " + int128_text(r.second);
  }

  // §4 step 2, apart: the values of one index of `a` (or of its offset) and those of `b` have no
  // value in common, so no pass of one reaches an element of the other.
  std::optional<std::string> apart(const Access& a, const Access& b) const {
    if (!a.offset || !b.offset) return std::nullopt;
    auto leaf = [&](const IxNode* l) { return facts_.leaf_range(l); };
    auto differ = [&](const IxNode* x, const IxNode* y) -> std::optional<std::string> {
      auto rx = value_range(x, leaf), ry = value_range(y, leaf);
      if (rx.second >= ry.first && ry.second >= rx.first) return std::nullopt;
      return "`" + a.text + "` and `" + b.text + "` never reach one element: ";
    };
    if (!a.indices.empty() && a.indices.size() == b.indices.size()) {
      for (size_t k = 0; k < a.indices.size(); ++k)
        if (auto d = differ(a.indices[k].first, b.indices[k].first))
          return *d + "index " + std::to_string(k + 1) + " is " +
                 range_text(value_range(a.indices[k].first, leaf)) + " in one and " +
                 range_text(value_range(b.indices[k].first, leaf)) + " in the other";
      return std::nullopt;
    }
    if (auto d = differ(a.offset, b.offset))
      return *d + "the offset is " + range_text(value_range(a.offset, leaf)) + " in one and " +
             range_text(value_range(b.offset, leaf)) + " in the other";
    return std::nullopt;
  }

  // §4 step 2, within a pass, through a third access: `a` and `w` are both a proved store
  // `f`'s index with other values of the digits inside `loop` (`b * 8 + l` of a lane loop and
  // `b * 8` of block code, both of `b * 8 + l`), so each pass reaches through them only
  // elements that `f` would reach in that pass.
  std::optional<std::string> common_frame(const Access& a, const Access& w, const tir::Stmt* loop) {
    for (const Access& f : facts_.accesses) {
      if (&f == &a || &f == &w || f.root != w.root || !f.write || f.atomic || !f.offset ||
          std::find(f.fors.begin(), f.fors.end(), loop) == f.fors.end())
        continue;
      auto x = within_pass(a, f, loop);
      if (!x) continue;
      if (auto y = within_pass(w, f, loop))
        return "`" + a.text + "` is `" + f.text + "` with " + *x + ", and the store is `" + f.text +
               "` with " + *y;
    }
    return std::nullopt;
  }

  // §4 step 2, the same row: `a` and the store `w` have the same indices (as polynomials) in
  // some dimensions, and those indices alone, combined as §4.9 combines them, tell the passes
  // of `loop` apart: no pass reaches a row (those indices' values) another pass reaches.
  std::optional<std::string> same_rows(const Access& a, const Access& w, const tir::Stmt* loop) {
    const size_t n = w.indices.size();
    if (!a.offset || !w.offset || a.atomic || w.atomic || n < 2 || a.indices.size() != n)
      return std::nullopt;
    std::vector<bool> keep(n);
    std::string which;
    for (size_t k = 0; k < n; ++k)
      if ((keep[k] = forms_.same(a.indices[k].first, w.indices[k].first)))
        which += (which.empty() ? "" : ", ") + std::to_string(k + 1);
    if (which.empty() || std::all_of(keep.begin(), keep.end(), [](bool b) { return b; }))
      return std::nullopt;
    const IxNode* c = combination(w, loop, &keep);
    if (!c || !prove_offset(w, c, loop, true).proved()) return std::nullopt;
    return "`" + a.text + "` and `" + w.text + "` have the same index " + which + ", and `" +
           to_string(c) + "` is proved: no two passes share those";
  }

  // §4 step 2, shifted: `a`'s index is the proved store `w`'s plus a constant d, and the
  // mixed-radix rule proves `w + d * s` with s a digit of 0 or 1: then no pass reaches through
  // `a` an element another pass reaches through `w` (`2 * b + 1` beside `2 * b`).
  std::optional<std::string> shifted(const Access& a, const Access& w, const tir::Stmt* loop) {
    if (!a.offset || !w.offset || a.atomic || w.atomic) return std::nullopt;
    auto leaf = [&](const IxNode* l) { return facts_.leaf_range(l); };
    if (!never_wraps(a.offset, leaf) || !never_wraps(w.offset, leaf)) return std::nullopt;
    const auto& fa = forms_.exact(a.offset);
    const auto& fw = forms_.exact(w.offset);
    if (!fa || !fw) return std::nullopt;
    Poly diff = *fa;
    for (const auto& [m, c] : *fw) {
      __int128& x = diff[m];
      if (__builtin_sub_overflow(x, c, &x)) return std::nullopt;
      if (x == 0) diff.erase(m);
    }
    if (diff.size() != 1 || !diff.begin()->first.empty()) return std::nullopt;
    const __int128 d = diff.begin()->second;
    if (d < INT64_MIN || d > INT64_MAX) return std::nullopt;
    static const char kWhich = 0;  // the key of the digit s
    const IxNode* which = facts_.dag->loop(&kWhich, "(which store)");
    const IxNode* both = facts_.dag->binary(
        IxOp::Add, w.offset,
        facts_.dag->binary(IxOp::Mul, facts_.dag->constant(static_cast<int64_t>(d)), which));
    auto lo = must_find(facts_.loop_lo, loop), hi = must_find(facts_.loop_hi, loop);
    RadixProof p = prove_unique(
        both,
        [&](const IxNode* l) {
          if (l != which) return classify(l, loop, w);
          LeafInfo info;
          info.kind = LeafInfo::Digit;
          info.lo = 0;
          info.hi = 1;
          return info;
        },
        lo && hi && *hi <= *lo);
    if (!p.proved()) return std::nullopt;
    return "`" + a.text + "` is the store's index plus " + int128_text(d) + ", and `" +
           to_string(both) + "` is proved";
  }

  // The smallest and largest value of a digit (a loop index, `i / k` or `i % k`), as the
  // mixed-radix proof bounds it (fill_range); nullopt: unbounded on that side.
  struct Bounds {
    std::optional<__int128> lo, hi;
  };
  static Bounds digit_bounds(const IxNode* atom, const LeafInfo& info) {
    Bounds b;
    if (atom->op == IxOp::Loop) return {info.lo, info.hi};
    const int64_t k = atom->b->value;
    if (atom->op == IxOp::Div) {
      if (info.lo && *info.lo >= 0) b.lo = *info.lo / k;
      if (info.hi) b.hi = *info.hi / k;
      if (b.lo && b.hi && *b.hi < *b.lo) b.hi = b.lo;
      return b;
    }
    if (info.lo && *info.lo >= 0) {
      if (info.hi && *info.lo / k == *info.hi / k)
        return {*info.lo % k, std::max(*info.lo % k, *info.hi % k)};
      return {0, k - 1};
    }
    return {-(k - 1), k - 1};
  }

  // An exact form split as the mixed-radix rule reads it: digits of `loop` itself, digits of the
  // loops inside it (atom -> coefficient), and the part the same in every pass.
  struct Split {
    std::map<int, __int128> own, inner;
    Poly fixed;
  };
  std::optional<Split> split(const Poly& form, const Access& a, const tir::Stmt* loop) {
    std::map<const IxNode*, bool> fixed_memo;
    std::function<bool(const IxNode*)> fixed = [&](const IxNode* n) -> bool {
      if (n->is_const()) return true;
      if (auto it = fixed_memo.find(n); it != fixed_memo.end()) return it->second;
      bool r = n->is_leaf() ? !n->too_deep && classify(n, loop, a).kind == LeafInfo::Fixed
                            : fixed(n->a) && (!n->b || fixed(n->b));
      fixed_memo[n] = r;
      return r;
    };
    Split out;
    for (const auto& [m, c] : form) {
      bool all_fixed =
          std::all_of(m.begin(), m.end(), [&](int id) { return fixed(forms_.atom(id)); });
      if (all_fixed) {
        out.fixed[m] = c;
        continue;
      }
      if (m.size() != 1) return std::nullopt;
      const IxNode* atom = forms_.atom(m[0]);
      const IxNode* index = atom;
      if (atom->op == IxOp::Div || atom->op == IxOp::Rem) {
        if (!atom->b->is_const() || atom->b->value <= 0) return std::nullopt;
        index = atom->a;
      }
      if (index->op != IxOp::Loop) return std::nullopt;
      LeafInfo info = classify(index, loop, a);
      if (info.kind != LeafInfo::Digit) return std::nullopt;
      (info.parallel ? out.own : out.inner)[m[0]] = c;
    }
    return out;
  }

  // §4 step 2, within a pass: `r`'s index is the proved store `w`'s with the same digits of
  // `loop` and, for each digit of the loops inside it, another value within that digit's
  // range. Then in every pass `r` reaches an element that `w` would reach in that pass, which
  // the mixed-radix rule proves no other pass reaches. Says which values, or nullopt.
  std::optional<std::string> within_pass(const Access& r, const Access& w, const tir::Stmt* loop) {
    if (!r.offset || !w.offset || r.atomic || w.atomic) return std::nullopt;
    auto leaf = [&](const IxNode* l) { return facts_.leaf_range(l); };
    auto [known, fresh] = proved_.emplace(std::pair{&w, loop}, false);
    if (fresh) known->second = prove_offset(w, w.offset, loop).proved();
    if (!known->second || !never_wraps(r.offset, leaf) || !never_wraps(w.offset, leaf))
      return std::nullopt;
    const auto& fr = forms_.exact(r.offset);
    const auto& fw = forms_.exact(w.offset);
    if (!fr || !fw) return std::nullopt;
    auto sr = split(*fr, r, loop), sw = split(*fw, w, loop);
    if (!sr || !sw || sr->own != sw->own) return std::nullopt;
    // The part the same in every pass: equal but for a constant, which the digits take up.
    __int128 delta = 0;
    for (auto* s : {&*sr, &*sw}) {
      auto it = s->fixed.find({});
      if (it == s->fixed.end()) continue;
      if (__builtin_add_overflow(delta, s == &*sr ? it->second : -it->second, &delta))
        return std::nullopt;
      s->fixed.erase(it);
    }
    if (sr->fixed != sw->fixed) return std::nullopt;
    auto range_in = [&](int id, const Access& a) {
      const IxNode* atom = forms_.atom(id);
      const IxNode* index = atom->op == IxOp::Loop ? atom : atom->a;
      return digit_bounds(atom, classify(index, loop, a, &a == &r));
    };
    auto within = [](const Bounds& v, const Bounds& box) {
      return (!box.lo || (v.lo && *v.lo >= *box.lo)) && (!box.hi || (v.hi && *v.hi <= *box.hi));
    };
    for (const auto& [id, c] : sr->own)
      if (!within(range_in(id, r), range_in(id, w))) return std::nullopt;
    // Each digit of `w` inside `loop` takes a value u: the terms of `r` given to it, plus a
    // constant share of delta.
    struct Place {
      int id;
      __int128 coef;
      Bounds box, u{0, 0};
      std::string text;
      bool itself = false;  // u is the digit itself
    };
    std::vector<Place> places;
    for (const auto& [id, c] : sw->inner)
      places.push_back({id, c, range_in(id, w), {0, 0}, {}, false});
    auto magnitude = [](__int128 c) { return c < 0 ? -c : c; };
    std::stable_sort(places.begin(), places.end(), [&](const Place& x, const Place& y) {
      return magnitude(x.coef) > magnitude(y.coef);
    });
    for (const auto& [id, c] : sr->inner) {
      Place* to = nullptr;
      for (Place& p : places)
        if (p.id == id && p.coef == c && p.text.empty()) {
          to = &p;
          to->itself = true;
        }
      for (size_t i = 0; !to && i < places.size(); ++i)
        if (c % places[i].coef == 0) to = &places[i];
      if (!to) return std::nullopt;
      if (!to->text.empty()) to->itself = false;
      const __int128 m = c / to->coef;
      const Bounds a = range_in(id, r);
      Bounds add{m >= 0 ? a.lo : a.hi, m >= 0 ? a.hi : a.lo};
      for (auto [side, from] : {std::pair{&to->u.lo, add.lo}, std::pair{&to->u.hi, add.hi}}) {
        __int128 v;
        if (!*side || !from || __builtin_mul_overflow(m, *from, &v) ||
            __builtin_add_overflow(**side, v, &v))
          *side = std::nullopt;
        else
          *side = v;
      }
      const std::string t = to_string(forms_.atom(id));
      const std::string times = magnitude(m) == 1 ? t : int128_text(magnitude(m)) + " * " + t;
      to->text += to->text.empty() ? (m < 0 ? "-" : "") + times : (m < 0 ? " - " : " + ") + times;
    }
    if (places.empty())
      return delta == 0 && sr->inner.empty() ? std::optional<std::string>("the same digits")
                                             : std::nullopt;
    std::string values;
    for (size_t i = 0; i < places.size(); ++i) {
      Place& p = places[i];
      // The shifts that keep u within the box.
      std::optional<__int128> lo, hi;
      if (p.box.lo) {
        if (!p.u.lo) return std::nullopt;
        lo = *p.box.lo - *p.u.lo;
      }
      if (p.box.hi) {
        if (!p.u.hi) return std::nullopt;
        hi = *p.box.hi - *p.u.hi;
      }
      if (lo && hi && *lo > *hi) return std::nullopt;
      __int128 shift = delta / p.coef;
      if (i + 1 == places.size() && delta % p.coef != 0) return std::nullopt;
      if (lo && shift < *lo) shift = *lo;
      if (hi && shift > *hi) shift = *hi;
      if (i + 1 == places.size() && shift != delta / p.coef) return std::nullopt;
      __int128 part;
      if (__builtin_mul_overflow(shift, p.coef, &part) ||
          __builtin_sub_overflow(delta, part, &delta))
        return std::nullopt;
      std::string u = p.text;
      if (shift != 0 || u.empty())
        u += u.empty() ? int128_text(shift)
                       : (shift < 0 ? " - " : " + ") + int128_text(magnitude(shift));
      const std::string digit = to_string(forms_.atom(p.id));
      if (!p.itself || shift != 0) values += (values.empty() ? "`" : ", `") + digit + "` = " + u;
    }
    if (delta != 0) return std::nullopt;
    return values.empty() ? "its own digits" : values;
  }

  // The loops to enumerate for a collision: `loop` and the loops inside it that the offsets use.
  const char* level_of(const tir::Stmt* loop) const {
    return loop->across == tir::Across::Blocks ? facts_.words.block_loop : facts_.words.lane_loop;
  }

  // The Loop leaves of some nodes (each node walked once, not once per path).
  static std::set<const IxNode*> loop_leaves(std::initializer_list<const IxNode*> roots) {
    std::set<const IxNode*> used, seen;
    for (const IxNode* r : roots)
      for_each_leaf(r, seen, [&](const IxNode* n) {
        if (n->op == IxOp::Loop) used.insert(n);
      });
    return used;
  }

  std::vector<LoopRange> ranges(const tir::Stmt* loop, const Access& a, const Access* other,
                                std::vector<const tir::Stmt*>& stmts) const {
    std::set<const IxNode*> used = loop_leaves({a.offset, other ? other->offset : nullptr});
    for (const Access* x : {&a, other})  // a pass must get to the access, too
      if (x)
        for_each_compared(x->reach.guards, [&](const IxNode* side) {
          for (const IxNode* leaf : loop_leaves({side})) used.insert(leaf);
        });
    std::vector<LoopRange> out;
    auto it = std::find(a.fors.begin(), a.fors.end(), loop);
    for (; it != a.fors.end(); ++it) {
      const tir::Stmt* s = *it;
      const IxNode* leaf = facts_.dag->loop(s, s->var_name);
      if (s != loop && !used.count(leaf)) continue;
      auto lo = must_find(facts_.loop_lo, s), hi = must_find(facts_.loop_hi, s);
      if (auto b = a.bounds.find(leaf); b != a.bounds.end()) {
        if (lo) lo = std::max(*lo, b->second.first);
        if (hi) hi = std::min(*hi, b->second.second);
      }
      if (!lo || !hi) return {};
      // Its values: the range, or every k-th of it for `.step_by(k)` with k a literal (a bound
      // from an in-bounds index, above, may leave a start the loop never takes: none then).
      int64_t step = 1;
      if (!s->adapters.empty()) {
        const tir::Expr* k = s->adapters.size() == 1 ? s->adapters[0].step : nullptr;
        if (!k || k->kind != tir::ExprKind::Literal || k->lit.i <= 0) return {};
        step = k->lit.i;
        if (*lo != must_find(facts_.loop_lo, s)) return {};
      }
      out.push_back({leaf, *lo, *hi, s == loop, step});
      stmts.push_back(s);
    }
    return out;
  }

  std::optional<int64_t> fixed_value(const IxNode* leaf) const {
    if (leaf->op != IxOp::Loop) return std::nullopt;
    return must_find(facts_.loop_lo, static_cast<const tir::Stmt*>(leaf->key));
  }

  // The element a pass reaches through `indices` (one value per dimension; empty when the access
  // has no per-dimension indices, an atomic's); nullopt when one cannot be evaluated or is out of
  // its dimension.
  std::optional<std::vector<int64_t>> element_at(const std::vector<LoopRange>& loops,
                                                 const std::vector<int64_t>& pass,
                                                 const DimIndices& indices) const {
    auto value_of = [&](const IxNode* leaf) -> std::optional<int64_t> {
      for (size_t i = 0; i < loops.size(); ++i)
        if (loops[i].leaf == leaf) return pass[i];
      return fixed_value(leaf);
    };
    std::vector<int64_t> out;
    for (const auto& [index, size] : indices) {
      auto v = evaluate(index, value_of);
      if (!v || *v < 0 || (size > 0 && *v >= size)) return std::nullopt;
      out.push_back(*v);
    }
    return out;
  }

  std::string collision_text(const tir::Stmt* loop, const Access& write, const Access* other) {
    std::vector<const tir::Stmt*> stmts;
    auto loops = ranges(loop, write, other, stmts);
    if (loops.empty()) return {};
    // Passes that get to the accesses: through the `if`s around them; where something else on
    // the way decides, two passes that would collide if they got there, said so.
    const bool unknown = write.reach.unknown || (other && other->reach.unknown);
    const std::vector<Guard> none;
    auto c = find_collision(
        write.offset, other ? other->offset : nullptr, loops,
        [&](const IxNode* l) { return fixed_value(l); }, write.indices,
        other ? other->indices : DimIndices{}, unknown ? none : write.reach.guards,
        unknown || !other ? none : other->reach.guards);
    if (!c) return {};
    const std::string would = unknown ? " would" : "";
    const std::string if_reached =
        unknown ? std::string(", if both get there (what decides it is not followed here)")
                : std::string();
    // Every note is true: the two passes it names reach one element, index by index, each in
    // its dimension (the offset found them through the row-major sum of the indices).
    const DimIndices& second_indices = c->second_reads ? other->indices : write.indices;
    auto first_at = element_at(loops, c->first, write.indices);
    auto second_at = element_at(loops, c->second, second_indices);
    if (!first_at || !second_at || *first_at != *second_at) {
      if (std::getenv("VX_STRICT_NOTES"))
        internal_error("a collision note would name passes that touch different elements: " +
                       describe_pass(facts_, stmts, c->first) + " and " +
                       describe_pass(facts_, stmts, c->second));
      return {};
    }
    std::string elem = element_text(write.type, c->element);
    if (!first_at->empty() && write.type && write.type->rank() > 1) {
      elem = "element ";
      for (int64_t i : *first_at) elem += "[" + std::to_string(i) + "]";
    }
    if (!c->second_reads || other->write)
      return describe_pass(facts_, stmts, c->first) + " and " +
             describe_pass(facts_, stmts, c->second) + would + " both write " + elem + if_reached;
    return describe_pass(facts_, stmts, c->first) + (unknown ? " would write " : " writes ") +
           elem + " and " + describe_pass(facts_, stmts, c->second) +
           (unknown ? " read it" : " reads it") + if_reached;
  }

  // The note that names two passes that collide; when there is none and a condition decides
  // which passes get to an access, the note that says the rule does not narrow them by it.
  void add_collision(Diagnostic& d, const tir::Stmt* loop, const Access& write,
                     const Access* other) {
    std::string c = collision_text(loop, write, other);
    if (!c.empty()) return d.notes.push_back(c);
    for (const Access* a : {&write, other})
      if (a && a->reach.conditional)
        return d.notes.push_back(
            "the rule proves `" + a->text +
            "` as if every pass got to it: it does not narrow the passes by a condition on "
            "the way; write the condition into the loop or the index (spec/kernel-rules.md §4 "
            "step 11)");
  }

  // An access as messages quote it: `out[b][l]`, or `out[b][l]` (line 7) when the other one
  // prints alike (two loops named `l`), with the column when they share the line too.
  std::string quoted(const Access& a, const Access& other) const {
    if (a.text != other.text) return "`" + a.text + "`";
    const LineCol at = diags_.file().line_col(a.span.begin);
    const LineCol them = diags_.file().line_col(other.span.begin);
    return "`" + a.text + "` (line " + std::to_string(at.line) +
           (at.line == them.line ? ", column " + std::to_string(at.col) : "") + ")";
  }

  Diagnostic& report(KernelRule rule, const Access& at, const tir::Stmt* loop, std::string message,
                     std::string label) {
    reported_.insert(at.span.begin);
    auto& d = kernel_rule_error(diags_, rule, at.span, std::move(message), std::move(label));
    d.secondary.push_back(
        {loop_header(loop, diags_.file()), std::string("this ") + level_of(loop) + " loop"});
    return d;
  }

  void check_loop(const tir::Stmt* loop) {
    // A loop of one pass has no two passes to collide; the loops inside it are checked alone.
    auto lo = must_find(facts_.loop_lo, loop), hi = must_find(facts_.loop_hi, loop);
    if (lo && hi && *hi <= *lo) return;
    std::map<int, std::vector<const Access*>> by_tensor;
    for (const Access& a : facts_.accesses) {
      if (std::find(a.fors.begin(), a.fors.end(), loop) == a.fors.end()) continue;
      if (facts_.declared_inside(a.root, loop)) continue;  // each pass has its own
      by_tensor[a.root].push_back(&a);
    }
    std::string level = level_of(loop);
    for (const auto& [root, list] : by_tensor) {
      const std::string& name = list.front()->tensor;
      bool atomic_changes = std::any_of(list.begin(), list.end(),
                                        [](const Access* a) { return a->atomic && a->changes; });
      if (atomic_changes) {
        for (const Access* a : list)
          if (!a->atomic && !reported_.count(a->span.begin)) {
            auto& d = report(KernelRule::AtomicsMixed, *a, loop,
                             "the passes of this " + level + " loop change `" + name +
                                 "` with atomic operations, so every access to it in the loop "
                                 "must be one",
                             "not atomic");
            d.helps.push_back("use `atomic_load_…` / `atomic_store_…` for this access");
          }
        continue;
      }
      // The writes, one for each index the rule tells apart (§4 step 2): the first is the
      // store every other access is compared with first.
      std::vector<const Access*> writes;
      for (const Access* a : list)
        if (a->write && !a->atomic &&
            std::none_of(writes.begin(), writes.end(),
                         [&](const Access* w) { return same_index(*a, *w); }))
          writes.push_back(a);
      if (writes.empty()) continue;
      // Every other access must reach, in each pass, no element that another pass writes.
      for (const Access* a : list) {
        if (a == writes.front() || reported_.count(a->span.begin)) continue;
        for (const Access* write : writes) {
          if (write == a) break;  // a write is compared with the writes before it
          if (reported_.count(write->span.begin) && a->write) break;
          if (accepted(*a, *write, loop)) continue;
          report_other_index(*a, *write, loop, level, name);
          break;
        }
      }
      for (const Access* write : writes)
        if (!reported_.count(write->span.begin) && write->offset)  // a whole-tensor write: the
          report_unproved(*write, loop, level, name);              // call rule reports it
    }
  }

  // An access that may reach an element another pass writes (§4 step 2), reported at `a`.
  void report_other_index(const Access& a, const Access& write, const tir::Stmt* loop,
                          const std::string& level, const std::string& name) {
    std::string msg, label;
    if (!a.offset || !write.offset) {
      const Access& whole = a.offset ? write : a;
      msg = (a.write ? "two passes of this " + level + " loop may write the same element of `"
                     : "a pass of this " + level + " loop may read an element of `" + name +
                           "` that another pass writes: `");
      if (a.write)
        msg += name + "`: `" + whole.text + "` uses the whole tensor";
      else
        msg += whole.text + "` uses the whole tensor, which the loop also writes";
      label = "uses all of `" + name + "`";
    } else if (a.write) {
      msg = "two passes of this " + level + " loop may write the same element of `" + name +
            "`: every access to it in the loop must use the same index, but " + quoted(a, write) +
            " and " + quoted(write, a) + " differ";
      label = "another index of `" + name + "`";
    } else {
      msg = "a pass of this " + level + " loop may read an element of `" + name +
            "` that another pass writes: " + quoted(a, write) +
            " does not use the index of the write " + quoted(write, a);
      label = "read at another index";
    }
    auto& d = report(KernelRule::SameIndex, a, loop, msg, label);
    d.secondary.push_back({write.span, "written here"});
    if (a.offset && write.offset && a.text == write.text)
      d.notes.push_back(
          "the two are written alike, but a name in them stands for a different "
          "variable in each (the index of another loop, or another `let`)");
    if (a.offset && write.offset) add_collision(d, loop, write, &a);
    // A later loop of the same level runs once every pass of this one is done: a block loop after
    // this one in the region, a lane loop after this one in the block's code.
    d.helps.push_back("within one pass, read and write `" + name + "` at the same index; a later " +
                      level + " loop may read what this one wrote");
  }

  // The close variant of a refused store that the rule proves, when the refusal is one an
  // extension of §4 answers (spec/kernel-rules.md §4.11).
  std::optional<std::string> provable_form(const Access& write, const tir::Stmt* loop,
                                           const RadixProof& p) const {
    // An operation that wraps in its type and would not in i32 or i64.
    if (p.failure == RadixProof::Wraps && !p.widen.empty()) return p.widen;
    // A stride that is not a constant: a flat row-major index over run-time sizes.
    if (p.failure == RadixProof::NotDigits && !p.too_large && write.indices.size() == 1 &&
        p.why.find(", not a constant") != std::string::npos)
      return std::string("index each dimension instead of flattening: `") + write.tensor +
             "[r][c]` of a `[?, ?]` tensor is proved index by index, whatever its sizes "
             "(spec/kernel-rules.md §4 step 9)";
    // A plain loop that starts at the loop's index and counts by one: a grid-stride loop
    // without its stride.
    if (p.failure != RadixProof::NotDetermined) return std::nullopt;
    const IxNode* own = facts_.dag->loop(loop, loop->var_name);
    for (const IxNode* leaf : loop_leaves({write.offset})) {
      auto* s = static_cast<const tir::Stmt*>(leaf->key);
      auto b = facts_.loop_bounds.find(s);
      if (s == loop || s->across != tir::Across::None || !s->adapters.empty() ||
          b == facts_.loop_bounds.end())
        continue;
      if (!loop_leaves({b->second.first}).count(own)) continue;
      auto lo = must_find(facts_.loop_lo, loop), hi = must_find(facts_.loop_hi, loop);
      const std::string k = lo && hi ? std::to_string(*hi - *lo + 1) : "K";
      return "`" + s->var_name + "` starts at `" + loop->var_name +
             "` and counts up by one, so the passes overlap: step it by the passes of `" +
             loop->var_name + "`, `for " + s->var_name + " in (…).step_by(" + k +
             ")`, a grid-stride loop, which is proved (spec/kernel-rules.md §4 step 10)";
    }
    return std::nullopt;
  }

  // A write the mixed-radix rule does not prove (§4 steps 3-9).
  void report_unproved(const Access& write, const tir::Stmt* loop, const std::string& level,
                       const std::string& name) {
    RadixProof p = prove(write, loop);
    if (p.proved()) return;
    std::string head =
        "two passes of this " + level + " loop may write the same element of `" + name + "`: ";
    std::string why;
    KernelRule rule = KernelRule::MixedRadix;
    if (p.failure == RadixProof::NotDetermined) {
      rule = KernelRule::WriteMustFixLoop;
      why = "an index of the write must fix `" + loop->var_name + "`";
    } else if (p.failure == RadixProof::NotDigits) {
      rule = p.too_large ? KernelRule::IndexTooLarge : KernelRule::IndexNotDigits;
      why = p.too_large ? p.why  // it may well be a sum of digits: too large to tell
                        : "the index is not a sum of loop indices times constants: " + p.why;
    } else if (p.failure == RadixProof::Wraps) {
      rule = KernelRule::IndexWraps;
      why = "the index may wrap around: " + p.why;
    } else {
      const Comparison& c = p.comparisons[p.failed];
      const Digit& dg = p.digits[c.digit];
      if (c.smaller)
        why = "the coefficient " + std::to_string(c.coefficient) + " of `" + dg.text() +
              "` is not greater than " + std::to_string(*c.smaller) +
              ", the most that the digits with smaller coefficients add";
      else
        why = "the coefficient " + std::to_string(c.coefficient) + " of `" + dg.text() +
              "` must be greater than what the smaller digits add, and the largest value of "
              "one of them is not known";
    }
    auto& d = report(rule, write, loop, head + why, "the write");
    add_collision(d, loop, write, nullptr);
    d.notes.push_back(
        "the offset is `" + to_string(write.offset) + "`" +
        (p.per_dimension.empty() ? "" : ", and index by index (§4.9) `" + p.per_dimension + "`"));
    if (auto h = provable_form(write, loop, p)) d.helps.push_back(*h);
    d.helps.push_back("`vx check --explain` shows the digits and the comparisons");
    *d.data = {{"kind", "disjointness"},
               {"loop", level + " loop `" + loop->var_name + "`"},
               {"tensor", name},
               {"offset", to_string(write.offset)},
               {"proof", proof_json(p)}};
  }

  void build_explain() {
    for (const Access& a : facts_.accesses) {
      if (!a.write || a.atomic) continue;
      StoreExplain s;
      s.span = a.span;
      s.place = a.text;
      s.tensor = a.tensor;
      s.offset = a.offset ? to_string(a.offset) : "";
      for (const tir::Stmt* loop : a.fors) {
        if (loop->across == tir::Across::None) continue;
        LoopCheck c;
        c.level = level_of(loop);
        c.var = loop->var_name;
        c.loop_span = loop_header(loop, diags_.file());
        if (facts_.declared_inside(a.root, loop)) {
          c.private_buffer = true;
        } else if (a.offset) {
          c.proof = prove(a, loop);
          if (!c.proof.proved()) c.collision = collision_text(loop, a, nullptr);
          for (const Access& b : facts_.accesses) {
            if (&b == &a || b.root != a.root || b.atomic ||
                std::find(b.fors.begin(), b.fors.end(), loop) == b.fors.end())
              continue;
            std::string why;
            if (accepted(b, a, loop, &why)) {
              if (!why.empty() &&
                  std::find(c.others.begin(), c.others.end(), why) == c.others.end())
                c.others.push_back(why);
              continue;
            }
            c.same_expression = "`" + b.text + "` and `" + a.text + "` use different indices";
            if (c.collision.empty() && b.offset) c.collision = collision_text(loop, a, &b);
            break;
          }
        } else {
          c.proof.failure = RadixProof::NotDigits;
          c.proof.why = "the store uses the whole tensor";
        }
        s.checks.push_back(std::move(c));
      }
      if (s.checks.empty()) continue;
      if (maps_) s.map = std::make_shared<const WriteMap>(map_store(facts_, a));
      explain_->push_back(std::move(s));
    }
  }

  const FunctionFacts& facts_;
  Diagnostics& diags_;
  std::vector<StoreExplain>* explain_;
  bool maps_;
  std::set<uint32_t> reported_;
  PolyForms forms_;
  // combination()'s digits that stand for a whole index, and their ranges.
  mutable std::map<const IxNode*, LeafInfo> whole_index_;
  std::map<std::pair<const Access*, const tir::Stmt*>, bool> proved_;  // within_pass's
};

}  // namespace

void check_disjointness(const FunctionFacts& facts, Diagnostics& diags,
                        std::vector<StoreExplain>* explain, bool maps) {
  Checker(facts, diags, explain, maps).run();
}

}  // namespace vx::kr
