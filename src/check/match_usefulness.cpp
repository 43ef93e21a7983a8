// rustc's usefulness algorithm (compiler/rustc_pattern_analysis), for Vx's patterns: a matrix of
// rows of patterns, one column per part of the value not yet taken apart. An or-pattern at the
// head of a row becomes one row per alternative; a tuple column becomes a column per element; a
// scalar column is split into pieces that every pattern in it holds whole or not at all, and
// each piece keeps the rows whose head holds it.
#include "check/match_usefulness.hpp"

#include <algorithm>

#include "support/format.hpp"

namespace vx::check::patterns {

namespace {

using Kind = Pat::Kind;

const Pat kWild{};

// Enough witnesses to name three and count the rest; more are not looked for.
constexpr size_t kMaxWitnesses = 1000;

std::string int_text(Int v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 u = negative ? 0 - static_cast<unsigned __int128>(v) : v;
  std::string digits;
  for (; u; u /= 10) digits += static_cast<char>('0' + static_cast<int>(u % 10));
  if (negative) digits += '-';
  return {digits.rbegin(), digits.rend()};
}

// A char as `{:?}` prints it (support/format.cpp, as Rust's escape_debug): `'å'`, `'\n'`,
// `'\u{e000}'`.
std::string char_text(Int v) {
  fmt::Spec debug;
  debug.kind = '?';
  return fmt::format_char(static_cast<uint32_t>(v), debug);
}

bool inside(Interval piece, Interval iv) { return iv.lo <= piece.lo && piece.hi <= iv.hi; }

// The pieces of `domain` that no head range of `rows` (or `extra`) cuts: each head holds a piece
// whole or not at all. A bool's pieces are its two values. Only the cuts inside the domain are
// kept and sorted: the domain of one value, looked at past 10,000 rows, has one piece, and
// sorting the 20,000 cuts of the rows for each of them took most of the time of a long `|` list.
// `rows`: Usefulness's rows (a private type), of which it reads the heads.
template <class Rows>
std::vector<Interval> split(Scalar t, const std::vector<Interval>& domain, const Rows& rows,
                            const Pat* extra) {
  std::vector<Int> cuts;  // the first value of a piece
  auto cut = [&](Int at) {
    for (const Interval& d : domain)
      if (d.lo < at && at <= d.hi) {
        cuts.push_back(at);
        return;
      }
  };
  auto cut_at = [&](const Pat* p) {
    if (p->kind != Kind::Range) return;
    cut(p->values.lo);
    cut(p->values.hi + 1);
  };
  for (const auto& r : rows) cut_at(r->head);
  if (extra) cut_at(extra);
  if (t == Scalar::Bool) cut(1);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<Interval> out;
  for (const Interval& d : domain) {
    Int lo = d.lo;
    for (auto it = std::upper_bound(cuts.begin(), cuts.end(), d.lo);
         it != cuts.end() && *it <= d.hi; ++it) {
      out.push_back({lo, *it - 1});
      lo = *it;
    }
    out.push_back({lo, d.hi});
  }
  return out;
}

std::vector<Type> column_types(const std::vector<Type>& front, const std::vector<Type>& types) {
  std::vector<Type> out = front;
  out.insert(out.end(), types.begin() + 1, types.end());
  return out;
}

}  // namespace

std::vector<Interval> type_values(Scalar t) {
  if (t == Scalar::Bool) return {{0, 1}};
  if (t == Scalar::Char) return {{0, 0xD7FF}, {0xE000, 0x10FFFF}};
  const ScalarInfo& info = scalar_info(t);
  if (info.is_float) return {{0, 0}};  // one piece that no pattern names
  if (info.is_signed) return {{-(Int{1} << (info.bits - 1)), (Int{1} << (info.bits - 1)) - 1}};
  return {{0, (Int{1} << info.bits) - 1}};
}

std::string value_text(Int v, Scalar t) {
  if (t == Scalar::Bool) return v ? "true" : "false";
  if (t == Scalar::Char) return char_text(v);
  const Interval r = type_values(t).front();
  const std::string name = scalar_info(t).name;
  if (scalar_info(t).is_signed && v == r.lo) return name + "::MIN";
  if (v == r.hi) return name + "::MAX";
  return int_text(v) + "_" + name;
}

bool everything(const Pat& p, const Type& t) {
  switch (p.kind) {
    case Kind::Wild:
      return true;
    case Kind::Range: {
      const std::vector<Interval> all = type_values(t.scalar);
      return p.values.lo <= all.front().lo && p.values.hi >= all.back().hi;
    }
    case Kind::Tuple:
      for (size_t i = 0; i < p.subs.size(); ++i)
        if (!everything(p.subs[i], t.elems[i])) return false;
      return true;
    case Kind::Or:
      return std::any_of(p.subs.begin(), p.subs.end(),
                         [&](const Pat& alt) { return everything(alt, t); });
  }
  return false;
}

bool contains(const Pat& a, const Pat& b, const Type& t) {
  if (a.kind == Kind::Wild) return true;
  if (b.kind == Kind::Or)
    return std::all_of(b.subs.begin(), b.subs.end(),
                       [&](const Pat& alt) { return contains(a, alt, t); });
  if (a.kind == Kind::Or)
    return std::any_of(a.subs.begin(), a.subs.end(),
                       [&](const Pat& alt) { return contains(alt, b, t); });
  if (b.kind == Kind::Wild) return everything(a, t);
  if (a.kind == Kind::Range) return inside(b.values, a.values);
  for (size_t i = 0; i < a.subs.size(); ++i)
    if (!contains(a.subs[i], b.subs[i], t.elems[i])) return false;
  return true;
}

bool overlaps(const Pat& a, const Pat& b) {
  if (a.kind == Kind::Wild || b.kind == Kind::Wild) return true;
  if (a.kind == Kind::Or)
    return std::any_of(a.subs.begin(), a.subs.end(),
                       [&](const Pat& alt) { return overlaps(alt, b); });
  if (b.kind == Kind::Or)
    return std::any_of(b.subs.begin(), b.subs.end(),
                       [&](const Pat& alt) { return overlaps(a, alt); });
  if (a.kind == Kind::Range) return a.values.lo <= b.values.hi && b.values.lo <= a.values.hi;
  for (size_t i = 0; i < a.subs.size(); ++i)
    if (!overlaps(a.subs[i], b.subs[i])) return false;
  return true;
}

void Cover::add(const Pat& p) {
  if (p.kind == Kind::Or) {
    for (const Pat& alt : p.subs) add(alt);
    return;
  }
  const std::vector<Interval> values =
      p.kind == Kind::Range ? std::vector<Interval>{p.values} : type_values(type_);
  for (Interval iv : values) {
    // Merge with every range that overlaps it or touches it, then put the union in their place.
    auto it = ranges_.upper_bound(iv.lo);
    if (it != ranges_.begin() && std::prev(it)->second + 1 >= iv.lo) --it;
    while (it != ranges_.end() && it->first <= iv.hi + 1) {
      iv.lo = std::min(iv.lo, it->first);
      iv.hi = std::max(iv.hi, it->second);
      it = ranges_.erase(it);
    }
    ranges_.emplace(iv.lo, iv.hi);
  }
}

Int Cover::covered_to(Int v) const {
  auto it = ranges_.upper_bound(v);
  if (it == ranges_.begin()) return v - 1;
  --it;
  return it->second >= v ? it->second : v - 1;
}

bool Cover::holds(Interval iv, const Cover& other) const {
  // From iv.lo, the covered runs of the two covers one after the other: each step passes the
  // end of a range of one of them.
  for (Int at = iv.lo; at <= iv.hi;) {
    const Int to = std::max(covered_to(at), other.covered_to(at));
    if (to < at) return false;
    at = to + 1;
  }
  return true;
}

bool Cover::holds(const Pat& p, const Cover& other) const {
  switch (p.kind) {
    case Kind::Or:
      return std::all_of(p.subs.begin(), p.subs.end(),
                         [&](const Pat& alt) { return holds(alt, other); });
    case Kind::Range:
      return holds(p.values, other);
    case Kind::Wild:
      for (const Interval& iv : type_values(type_))
        if (!holds(iv, other)) return false;
      return true;
    case Kind::Tuple:
      break;
  }
  return false;  // not a scalar's pattern: nothing is proved of it
}

Usefulness::Row Usefulness::with_head(Row row, const std::vector<const Pat*>& front) {
  Row tail = row ? row->tail : nullptr;
  for (auto it = front.rbegin(); it != front.rend(); ++it) tail = cell(*it, tail);
  return tail;
}

void Usefulness::expand_or(Row row, std::vector<Row>& out) {
  if (!row || row->head->kind != Kind::Or) {
    out.push_back(row);
    return;
  }
  for (const Pat& alt : row->head->subs) expand_or(cell(&alt, row->tail), out);
}

Usefulness::Row Usefulness::spread(Row row, size_t arity) {
  std::vector<const Pat*> front;
  if (row->head->kind == Kind::Tuple)
    for (const Pat& sub : row->head->subs) front.push_back(&sub);
  else
    front.assign(arity, &kWild);
  return with_head(row, front);
}

bool Usefulness::step(size_t work) {
  steps_ += work;
  if (steps_ <= budget_) return true;
  exhausted_ = true;
  return false;
}

bool Usefulness::useful(const std::vector<const Pat*>& rows, const Pat& v, const Type& t) {
  if (exhausted_) return true;  // as useful_rows answers: not proved useless
  Scope scope(cells_);
  std::vector<Row> matrix;
  for (const Pat* r : rows) matrix.push_back(cell(r, nullptr));
  return useful_rows(matrix, cell(&v, nullptr), {t});
}

bool Usefulness::useful_rows(const std::vector<Row>& rows, Row v, const std::vector<Type>& types) {
  if (!step()) return true;  // not proved useless: no warning is given
  if (!v) return rows.empty();
  Scope scope(cells_);
  const Pat* head = v->head;
  if (head->kind == Kind::Or) {
    for (const Pat& alt : head->subs)
      if (useful_rows(rows, with_head(v, {&alt}), types)) return true;
    return false;
  }
  std::vector<Row> matrix;
  for (Row r : rows) expand_or(r, matrix);
  const Type& t = types[0];
  if (t.is_tuple()) {
    std::vector<Row> spec;
    for (Row r : matrix) spec.push_back(spread(r, t.elems.size()));
    return useful_rows(spec, spread(v, t.elems.size()), column_types(t.elems, types));
  }
  const std::vector<Type> rest(types.begin() + 1, types.end());
  const Row tail = v->tail;
  const std::vector<Interval> domain =
      head->kind == Kind::Range ? std::vector<Interval>{head->values} : type_values(t.scalar);
  const std::vector<Interval> pieces = split(t.scalar, domain, matrix, nullptr);
  if (!step((pieces.size() + 1) * matrix.size())) return true;
  bool default_done = false;  // the pieces no head holds all keep the same rows
  for (const Interval& piece : pieces) {
    std::vector<Row> spec;
    bool named = false;
    for (Row r : matrix) {
      const bool holds = r->head->kind == Kind::Wild || inside(piece, r->head->values);
      named = named || (holds && r->head->kind != Kind::Wild);
      if (holds) spec.push_back(r->tail);
    }
    if (!named) {
      if (default_done) continue;
      default_done = true;
    }
    if (useful_rows(spec, tail, rest)) return true;
  }
  return false;
}

std::vector<std::string> Usefulness::missing(const std::vector<const Pat*>& rows, const Type& t,
                                             bool scrutinee_scalar) {
  if (exhausted_) return {};  // as witnesses answers
  Scope scope(cells_);
  std::vector<Row> matrix;
  for (const Pat* r : rows) matrix.push_back(cell(r, nullptr));
  std::vector<std::string> out;
  for (Witness& w : witnesses(matrix, {t}, scrutinee_scalar)) out.push_back(std::move(w[0]));
  return out;
}

std::vector<Usefulness::Witness> Usefulness::witnesses(const std::vector<Row>& rows,
                                                       const std::vector<Type>& types,
                                                       bool scrutinee) {
  if (!step()) return {};
  if (types.empty()) return rows.empty() ? std::vector<Witness>{Witness{}} : std::vector<Witness>{};
  Scope scope(cells_);
  std::vector<Row> matrix;
  for (Row r : rows) expand_or(r, matrix);
  const Type& t = types[0];
  const std::vector<Type> rest(types.begin() + 1, types.end());
  const bool named =
      std::any_of(matrix.begin(), matrix.end(), [](Row r) { return r->head->kind != Kind::Wild; });
  std::vector<Witness> out;
  // The witnesses of the rows `spec` after each of `fronts`, one front after the other.
  auto extend = [&](const std::vector<Row>& spec, const std::vector<Type>& types_left,
                    const std::vector<std::string>& fronts) {
    const std::vector<Witness> found = witnesses(spec, types_left, false);
    for (const std::string& front : fronts)
      for (const Witness& w : found) {
        if (out.size() >= kMaxWitnesses) return;
        Witness x{front};
        x.insert(x.end(), w.begin(), w.end());
        out.push_back(std::move(x));
      }
  };
  auto rows_with_wild_head = [&] {
    std::vector<Row> spec;
    for (Row r : matrix)
      if (r->head->kind == Kind::Wild) spec.push_back(r->tail);
    return spec;
  };
  if (t.is_tuple()) {
    if (!named) {
      extend(rows_with_wild_head(), rest, {"_"});
      return out;
    }
    const size_t n = t.elems.size();
    std::vector<Row> spec;
    for (Row r : matrix) spec.push_back(spread(r, n));
    for (Witness& w : witnesses(spec, column_types(t.elems, types), false)) {
      std::string text = "(";
      for (size_t i = 0; i < n; ++i) text += (i ? ", " : "") + w[i];
      text += n == 1 ? ",)" : ")";
      w.erase(w.begin(), w.begin() + static_cast<long>(n));
      w.insert(w.begin(), std::move(text));
      out.push_back(std::move(w));
    }
    return out;
  }
  const std::vector<Interval> all = type_values(t.scalar);
  auto range_text = [&](Interval iv) {
    if (iv.lo == iv.hi) return value_text(iv.lo, t.scalar);
    if (!scrutinee && all.size() == 1 && iv.lo == all[0].lo && iv.hi == all[0].hi)
      return std::string("_");
    return value_text(iv.lo, t.scalar) + "..=" + value_text(iv.hi, t.scalar);
  };
  std::vector<Interval> gaps;  // the values no head names, as maximal ranges (a bool's one by one)
  const std::vector<Interval> pieces = split(t.scalar, all, matrix, nullptr);
  if (!step((pieces.size() + 1) * matrix.size())) return out;
  for (const Interval& piece : pieces) {
    std::vector<Row> spec;
    bool held = false;
    for (Row r : matrix) {
      if (r->head->kind == Kind::Wild) {
        spec.push_back(r->tail);
      } else if (inside(piece, r->head->values)) {
        spec.push_back(r->tail);
        held = true;
      }
    }
    if (held) {
      extend(spec, rest, {range_text(piece)});
    } else if (!gaps.empty() && gaps.back().hi + 1 == piece.lo && t.scalar != Scalar::Bool) {
      gaps.back().hi = piece.hi;
    } else {
      gaps.push_back(piece);
    }
  }
  if (gaps.empty()) return out;
  if (!named && !scrutinee) {
    extend(rows_with_wild_head(), rest, {"_"});
    return out;
  }
  std::vector<std::string> fronts;
  for (const Interval& g : gaps) fronts.push_back(range_text(g));
  extend(rows_with_wild_head(), rest, fronts);
  return out;
}

}  // namespace vx::check::patterns
