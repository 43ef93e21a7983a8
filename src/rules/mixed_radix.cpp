#include "rules/mixed_radix.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace vx::kr {

std::string Digit::text() const {
  switch (form) {
    case DigitForm::Div:
      return var + " / " + std::to_string(k);
    case DigitForm::Mod:
      return var + " % " + std::to_string(k);
    default:
      return var;
  }
}

namespace {

// A product of atoms times a constant. Atoms are Loop leaves, `loop / k`, `loop % k`, and
// sub-expressions that are fixed in every pass.
struct Term {
  int64_t coef = 1;
  std::vector<const IxNode*> factors;  // sorted by pointer
};

constexpr size_t kMaxTerms = 256;

class Expander {
 public:
  explicit Expander(const Classify& c) : classify_(c) {}
  std::string why;
  bool too_large = false;  // refused for its size (spec/kernel-rules.md §4.8), not its shape

  bool fixed(const IxNode* n) {
    auto it = fixed_.find(n);
    if (it != fixed_.end()) return it->second;
    bool r;
    if (n->is_const())
      r = true;
    else if (n->too_deep)
      r = false;  // it may hide any loop index
    else if (n->is_leaf())
      r = classify_(n).kind == LeafInfo::Fixed;
    else
      r = fixed(n->a) && (!n->b || fixed(n->b));
    fixed_[n] = r;
    return r;
  }

  bool digit_leaf(const IxNode* n) {
    return n->op == IxOp::Loop && classify_(n).kind == LeafInfo::Digit;
  }

  std::optional<std::vector<Term>> expand(const IxNode* n) {
    if (n->is_const()) return std::vector<Term>{{n->value, {}}};
    if (fixed(n)) return std::vector<Term>{{1, {n}}};
    switch (n->op) {
      case IxOp::Loop:
        if (digit_leaf(n)) return std::vector<Term>{{1, {n}}};
        [[fallthrough]];
      case IxOp::Var:
      case IxOp::Opaque:
      case IxOp::Symbol:
        if (n->too_deep) {
          too_large = true;
          why = "it nests operations more than " + std::to_string(kMaxIndexDepth) + " deep";
        } else {
          why = "it depends on `" + n->name + "`, which can change from one pass to the next";
        }
        return std::nullopt;
      case IxOp::Neg: {
        auto x = expand(n->a);
        if (!x) return std::nullopt;
        for (auto& t : *x)
          if (!negate(t.coef)) return std::nullopt;
        return x;
      }
      case IxOp::Add:
      case IxOp::Sub: {
        auto x = expand(n->a);
        if (!x) return std::nullopt;
        auto y = expand(n->b);
        if (!y) return std::nullopt;
        for (auto& t : *y) {
          if (n->op == IxOp::Sub && !negate(t.coef)) return std::nullopt;
          x->push_back(std::move(t));
        }
        if (x->size() > kMaxTerms) return too_big();
        return x;
      }
      case IxOp::Mul: {
        auto x = expand(n->a);
        if (!x) return std::nullopt;
        auto y = expand(n->b);
        if (!y) return std::nullopt;
        if (x->size() * y->size() > kMaxTerms) return too_big();
        std::vector<Term> out;
        for (const auto& s : *x)
          for (const auto& t : *y) {
            Term p;
            if (__builtin_mul_overflow(s.coef, t.coef, &p.coef)) return too_big();
            p.factors = s.factors;
            p.factors.insert(p.factors.end(), t.factors.begin(), t.factors.end());
            std::sort(p.factors.begin(), p.factors.end());
            out.push_back(std::move(p));
          }
        return out;
      }
      case IxOp::Div:
      case IxOp::Rem: {
        if (n->b->is_const() && n->b->value > 0 && digit_leaf(n->a))
          return std::vector<Term>{{1, {n}}};
        const char* op = n->op == IxOp::Div ? "/" : "%";
        if (!n->b->is_const() || n->b->value <= 0)
          why = "`" + to_string(n) + "` " + (n->op == IxOp::Div ? "divides" : "takes a remainder") +
                " by something other than a positive constant";
        else
          why = std::string("`") + to_string(n) + "` applies `" + op +
                "` to more than one loop index; a digit is a loop index, or one loop index `" + op +
                " k`, times a constant";
        return std::nullopt;
      }
      default:
        return std::nullopt;
    }
  }

 private:
  bool negate(int64_t& c) {
    if (c == INT64_MIN) {
      too_big();
      return false;
    }
    c = -c;
    return true;
  }
  std::nullopt_t too_big() {
    too_large = true;
    why = "the expression is too large to expand";
    return std::nullopt;
  }
  const Classify& classify_;
  std::unordered_map<const IxNode*, bool> fixed_;
};

std::optional<int64_t> mul_abs(int64_t c, std::optional<int64_t> v) {
  if (!v || c == INT64_MIN) return std::nullopt;
  int64_t a = c < 0 ? -c : c, r;
  if (__builtin_mul_overflow(a, *v, &r)) return std::nullopt;
  return r;
}

// Expanding an offset walks it as a tree: refuse one that is large written out.
constexpr uint64_t kMaxExpandedSize = 4096;

void fill_range(Digit& d, const LeafInfo& info) {
  auto lo = info.lo, hi = info.hi;
  // Checked arithmetic: a range too wide for int64 has no known largest value.
  switch (d.form) {
    case DigitForm::Index: {
      int64_t w;
      if (lo && hi && !__builtin_sub_overflow(*hi, *lo, &w)) d.largest = w;
      break;
    }
    case DigitForm::Div:
      if (lo && *lo >= 0 && hi) d.largest = *hi / d.k - *lo / d.k;
      break;
    case DigitForm::Mod:
      if (lo && *lo >= 0) {
        if (hi && *lo / d.k == *hi / d.k)
          d.largest = *hi % d.k - *lo % d.k;
        else
          d.largest = d.k - 1;
      } else {
        int64_t w;  // a negative index gives a negative remainder
        if (!__builtin_mul_overflow(d.k - 1, int64_t{2}, &w)) d.largest = w;
      }
      break;
  }
  if (d.largest && *d.largest < 0) d.largest = 0;  // an empty loop
  d.adds = mul_abs(d.coefficient, d.largest);
}

}  // namespace

RadixProof prove_unique(const IxNode* offset, const Classify& classify, bool single_pass) {
  RadixProof proof;
  if (offset->size > kMaxExpandedSize) {
    proof.failure = RadixProof::NotDigits;
    proof.too_large = true;
    proof.why = "the index has more than " + std::to_string(kMaxExpandedSize) +
                " operations when written out, more than the rule expands";
    return proof;
  }
  Expander ex(classify);
  auto terms = ex.expand(offset);
  if (!terms) {
    proof.failure = RadixProof::NotDigits;
    proof.too_large = ex.too_large;
    proof.why = ex.why;
    return proof;
  }
  // Collect like terms.
  std::map<std::vector<const IxNode*>, int64_t> sum;
  for (const auto& t : *terms) {
    int64_t& c = sum[t.factors];
    if (__builtin_add_overflow(c, t.coef, &c)) {
      proof.failure = RadixProof::NotDigits;
      proof.too_large = true;
      proof.why = "the expression is too large to expand";
      return proof;
    }
  }
  std::string constant;
  auto add_constant = [&](int64_t c, const std::string& what) {
    if (!constant.empty())
      constant += c < 0 ? " - " : " + ";
    else if (c < 0)
      constant += "-";
    // |c| as unsigned: the magnitude of INT64_MIN is 2^63, which no int64_t holds.
    uint64_t a = c < 0 ? uint64_t{0} - static_cast<uint64_t>(c) : static_cast<uint64_t>(c);
    if (what.empty())
      constant += std::to_string(a);
    else if (a == 1)
      constant += what;
    else
      constant += std::to_string(a) + " * " + what;
  };
  for (const auto& [factors, coef] : sum) {
    if (coef == 0) continue;
    std::vector<const IxNode*> digit_atoms, fixed_atoms;
    for (const IxNode* f : factors) (ex.fixed(f) ? fixed_atoms : digit_atoms).push_back(f);
    std::string fixed_text;
    for (const IxNode* f : fixed_atoms) {
      if (!fixed_text.empty()) fixed_text += " * ";
      bool paren = !f->is_leaf();
      fixed_text += paren ? "(" + to_string(f) + ")" : to_string(f);
    }
    if (digit_atoms.empty()) {
      add_constant(coef, fixed_text);
      continue;
    }
    auto atom_text = [](const IxNode* a) { return to_string(a); };
    if (digit_atoms.size() > 1) {
      proof.failure = RadixProof::NotDigits;
      proof.why = "it multiplies `" + atom_text(digit_atoms[0]) + "` by `" +
                  atom_text(digit_atoms[1]) + "`; a digit is multiplied by a constant";
      return proof;
    }
    if (!fixed_atoms.empty()) {
      proof.failure = RadixProof::NotDigits;
      proof.why = "the coefficient of `" + atom_text(digit_atoms[0]) + "` is `" + fixed_text +
                  "`, not a constant";
      return proof;
    }
    Digit d;
    const IxNode* a = digit_atoms[0];
    d.loop = a->op == IxOp::Loop ? a : a->a;
    d.var = d.loop->name;
    if (a->op == IxOp::Div) d.form = DigitForm::Div;
    if (a->op == IxOp::Rem) d.form = DigitForm::Mod;
    if (a->op != IxOp::Loop) d.k = a->b->value;
    d.coefficient = coef;
    LeafInfo info = classify(d.loop);
    d.parallel = info.parallel;
    fill_range(d, info);
    // A digit of one value (a loop of one pass) adds the same in every pass: it is part of the
    // offset, not a digit, and must not take a place in the comparisons.
    if (d.largest && *d.largest == 0 && !d.parallel) {
      add_constant(coef, d.text());
      continue;
    }
    proof.digits.push_back(d);
  }
  proof.constant_part = constant.empty() ? "0" : constant;

  // The lesson's table: largest coefficient first.
  auto abs64 = [](int64_t c) { return c < 0 ? -static_cast<__int128>(c) : c; };
  std::stable_sort(proof.digits.begin(), proof.digits.end(), [&](const Digit& x, const Digit& y) {
    if (abs64(x.coefficient) != abs64(y.coefficient))
      return abs64(x.coefficient) > abs64(y.coefficient);
    return x.text() < y.text();
  });
  int n = static_cast<int>(proof.digits.size());
  for (int i = 0; i + 1 < n; ++i) {
    kr::Comparison c;
    c.digit = i;
    c.coefficient = proof.digits[i].coefficient;
    __int128 s = 0;
    bool known = true;
    std::string parts;
    for (int j = i + 1; j < n; ++j) {
      const Digit& d = proof.digits[j];
      if (!parts.empty()) parts += " + ";
      if (!d.adds) {
        known = false;
        parts += "?";
        continue;
      }
      parts += std::to_string(*d.adds);
      s += *d.adds;
    }
    __int128 ac = abs64(c.coefficient);
    if (known && s <= INT64_MAX) c.smaller = static_cast<int64_t>(s);
    c.holds = c.smaller && ac > s;
    std::string lhs = int128_text(ac);
    if (!known) {
      c.text = lhs + " > " + parts + ": the largest value of a smaller digit is not known";
    } else {
      std::string rhs = n - i - 1 > 1 ? parts + " = " + int128_text(s) : parts;
      c.text = lhs + (c.holds ? " > " : " <= ") + rhs;
    }
    if (!c.holds && proof.failed < 0) proof.failed = static_cast<int>(proof.comparisons.size());
    proof.comparisons.push_back(c);
  }

  // The digits of the parallel index must determine it.
  const IxNode* par = nullptr;
  for (const Digit& d : proof.digits)
    if (d.parallel) par = d.loop;
  proof.determined = single_pass;
  if (par) {
    LeafInfo info = classify(par);
    std::map<int64_t, int> div_mod;  // k -> bit 1: div, bit 2: mod
    for (const Digit& d : proof.digits) {
      if (d.loop != par) continue;
      if (d.form == DigitForm::Index) proof.determined = true;
      if (d.form == DigitForm::Div) div_mod[d.k] |= 1;
      if (d.form == DigitForm::Mod) {
        div_mod[d.k] |= 2;
        if (info.lo && info.hi && *info.lo >= 0 && *info.hi - *info.lo < d.k)
          proof.determined = true;
      }
    }
    for (const auto& [k, bits] : div_mod)
      if (bits == 3) proof.determined = true;
  }
  if (proof.failed >= 0)
    proof.failure = RadixProof::Comparison;
  else if (!proof.determined)
    proof.failure = RadixProof::NotDetermined;
  return proof;
}

std::optional<Collision> find_collision(
    const IxNode* write, const IxNode* other, const std::vector<LoopRange>& loops,
    const std::function<std::optional<int64_t>(const IxNode*)>& fixed,
    const DimIndices& write_indices, const DimIndices& other_indices,
    const std::vector<Guard>& write_guards, const std::vector<Guard>& other_guards,
    int64_t budget) {
  // Each evaluation walks the offsets as trees.
  if (write->size > kMaxExpandedSize || (other && other->size > kMaxExpandedSize))
    return std::nullopt;
  __int128 total = 1;
  for (const auto& l : loops) {
    if (l.hi < l.lo) return std::nullopt;
    // i64::MIN..i64::MAX has 2^64 passes
    total *= (static_cast<__int128>(l.hi) - l.lo) / std::max<int64_t>(l.step, 1) + 1;
    if (total > budget) return std::nullopt;
  }
  int par = -1;
  for (size_t i = 0; i < loops.size(); ++i)
    if (loops[i].parallel) par = static_cast<int>(i);
  if (par < 0) return std::nullopt;
  std::vector<int64_t> cur(loops.size());
  for (size_t i = 0; i < loops.size(); ++i) cur[i] = loops[i].lo;
  auto value_of = [&](const IxNode* leaf) -> std::optional<int64_t> {
    for (size_t i = 0; i < loops.size(); ++i)
      if (loops[i].leaf == leaf) return cur[i];
    return fixed(leaf);
  };
  std::unordered_map<int64_t, std::vector<int64_t>> writer;  // element -> first assignment
  std::vector<std::pair<int64_t, std::vector<int64_t>>> reads;
  // The element the access reaches in this pass: none when it does not get there or an index is
  // out of its dimension; nullopt when that cannot be told.
  auto reached = [&](const IxNode* offset, const DimIndices& indices,
                     const std::vector<Guard>& guards) -> std::optional<std::optional<int64_t>> {
    auto runs = guards_hold(guards, value_of);
    if (!runs) return std::nullopt;
    if (!*runs) return std::optional<int64_t>();
    for (const auto& [index, size] : indices) {
      if (size <= 0) continue;
      auto v = evaluate(index, value_of);
      if (!v) return std::nullopt;
      if (*v < 0 || *v >= size) return std::optional<int64_t>();
    }
    auto e = evaluate(offset, value_of);
    if (!e) return std::nullopt;
    return e;
  };
  for (int64_t step = 0; step < static_cast<int64_t>(total); ++step) {
    auto w = reached(write, write_indices, write_guards);
    if (!w) return std::nullopt;
    if (*w) {
      auto [it, fresh] = writer.emplace(**w, cur);
      if (!fresh && it->second[par] != cur[par]) return Collision{it->second, cur, **w, false};
    }
    if (other) {
      auto r = reached(other, other_indices, other_guards);
      if (!r) return std::nullopt;
      if (*r) reads.emplace_back(**r, cur);
    }
    for (int i = static_cast<int>(loops.size()) - 1; i >= 0; --i) {
      const int64_t step = std::max<int64_t>(loops[i].step, 1);
      if (static_cast<__int128>(loops[i].hi) - cur[i] >= step) {  // never past i64::MAX
        cur[i] += step;
        break;
      }
      cur[i] = loops[i].lo;
    }
  }
  for (const auto& [elem, who] : reads) {
    auto it = writer.find(elem);
    if (it != writer.end() && it->second[par] != who[par])
      return Collision{it->second, who, elem, true};
  }
  return std::nullopt;
}

}  // namespace vx::kr
