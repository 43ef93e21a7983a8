#include "rules/index_poly.hpp"

#include <algorithm>

namespace vx::kr {

namespace {

// The expansion's bounds: a larger form is not compared (the nodes still are, by identity).
constexpr size_t kMaxMonomials = 256;
constexpr size_t kMaxDegree = 32;
constexpr __int128 kMaxCoefficient = static_cast<__int128>(1) << 100;

int type_code(IntType t) { return t.bits * 2 + (t.is_signed ? 1 : 0); }

// A coefficient as the form keeps it: modulo 2^bits in [0, 2^bits) for a type, within
// ±kMaxCoefficient for mathematical integers (nullopt past it).
std::optional<__int128> reduce(__int128 c, IntType t) {
  if (t.math()) {
    if (c > kMaxCoefficient || c < -kMaxCoefficient) return std::nullopt;
    return c;
  }
  unsigned __int128 mask = (static_cast<unsigned __int128>(1) << t.bits) - 1;
  return static_cast<__int128>(static_cast<unsigned __int128>(c) & mask);
}

// Adds `c * m` to `p`, dropping a monomial whose coefficient becomes 0.
bool add_term(Poly& p, const std::vector<int>& m, __int128 c, IntType t) {
  auto [it, fresh] = p.emplace(m, 0);
  __int128 sum;
  if (__builtin_add_overflow(it->second, c, &sum)) return false;
  auto r = reduce(sum, t);
  if (!r) return false;
  if (*r == 0)
    p.erase(it);
  else
    it->second = *r;
  return p.size() <= kMaxMonomials;
}

}  // namespace

int PolyForms::form_id(const IxNode* n) {
  const auto& f = modular(n);
  // A node too large to expand is its own form.
  std::pair<int, Poly> key{f ? type_code(n->type) : -1 - static_cast<int>(atom_id(n)),
                           f ? *f : Poly{}};
  auto [it, fresh] = form_ids_.emplace(std::move(key), static_cast<int>(form_ids_.size()));
  return it->second;
}

int PolyForms::atom_id(const IxNode* n) {
  if (n->is_leaf()) {
    auto [it, fresh] = leaf_atoms_.emplace(n, static_cast<int>(atoms_.size()));
    if (fresh) atoms_.push_back(n);
    return it->second;
  }
  AtomKey key{static_cast<int>(n->op), type_code(n->type), form_id(n->a),
              n->b ? form_id(n->b) : -1};
  auto [it, fresh] = op_atoms_.emplace(key, static_cast<int>(atoms_.size()));
  if (fresh) atoms_.push_back(n);
  return it->second;
}

std::optional<Poly> PolyForms::expand(const IxNode* n, IntType t, bool exact) {
  auto single = [&](const IxNode* x) -> std::optional<Poly> {
    Poly p;
    if (x->is_const()) {
      if (!add_term(p, {}, x->value, t)) return std::nullopt;
      return p;
    }
    p[{atom_id(x)}] = 1;
    return p;
  };
  if (n->is_leaf()) return single(n);
  const bool expands =
      n->op == IxOp::Add || n->op == IxOp::Sub || n->op == IxOp::Mul || n->op == IxOp::Neg;
  if (!expands || (!exact && type_code(n->type) != type_code(t))) return single(n);
  // The operands: of the same type (or any, exactly), their own forms; otherwise atoms.
  auto operand = [&](const IxNode* x) -> std::optional<Poly> {
    if (x->is_leaf()) return single(x);
    if (exact) return this->exact(x);
    if (type_code(x->type) == type_code(t)) return modular(x);
    return single(x);
  };
  auto a = operand(n->a);
  if (!a) return std::nullopt;
  Poly out;
  if (n->op == IxOp::Neg) {
    for (const auto& [m, c] : *a)
      if (!add_term(out, m, -c, t)) return std::nullopt;
    return out;
  }
  auto b = operand(n->b);
  if (!b) return std::nullopt;
  if (n->op == IxOp::Mul) {
    if (a->size() * b->size() > kMaxMonomials * 4) return std::nullopt;
    for (const auto& [ma, ca] : *a)
      for (const auto& [mb, cb] : *b) {
        if (ma.size() + mb.size() > kMaxDegree) return std::nullopt;
        std::vector<int> m = ma;
        m.insert(m.end(), mb.begin(), mb.end());
        std::sort(m.begin(), m.end());
        // Modular coefficients are below 2^64, exact ones within 2^100: reduce after each
        // product (unsigned, so that the modular one never overflows).
        __int128 c;
        if (t.math()) {
          if (__builtin_mul_overflow(ca, cb, &c)) return std::nullopt;
        } else {
          c = static_cast<__int128>(static_cast<unsigned __int128>(ca) *
                                    static_cast<unsigned __int128>(cb));
          c = *reduce(c, t);
        }
        if (!add_term(out, m, c, t)) return std::nullopt;
      }
    return out;
  }
  out = *a;
  for (const auto& [m, c] : *b)
    if (!add_term(out, m, n->op == IxOp::Sub ? -c : c, t)) return std::nullopt;
  return out;
}

const std::optional<Poly>& PolyForms::modular(const IxNode* n) {
  if (auto it = modular_.find(n); it != modular_.end()) return it->second;
  auto p = expand(n, n->type, false);
  return modular_.emplace(n, std::move(p)).first->second;
}

const std::optional<Poly>& PolyForms::exact(const IxNode* n) {
  if (auto it = exact_.find(n); it != exact_.end()) return it->second;
  auto p = expand(n, IntType{}, true);
  return exact_.emplace(n, std::move(p)).first->second;
}

bool PolyForms::same(const IxNode* a, const IxNode* b) {
  if (a == b) return true;
  if (!a || !b || type_code(a->type) != type_code(b->type)) return false;
  const auto& fa = modular(a);
  const auto& fb = modular(b);
  return fa && fb && *fa == *fb;
}

}  // namespace vx::kr
