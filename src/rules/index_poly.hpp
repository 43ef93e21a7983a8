// Index expressions as canonical polynomials (spec/kernel-rules.md §4 step 2): the form in which
// two accesses are compared, so that `1 + t` and `t + 1`, or `(a + b) * 4` and `4 * a + 4 * b`,
// are one index. A polynomial is a sum of monomials, each a constant times a product of atoms; an
// atom is a leaf of the index graph (index_dag.hpp) or an operation the polynomial does not
// expand (`/`, `%`, and in the modular form an operation of another type), identified by its
// operator, type and the canonical forms of its operands. Equal forms are equal values in every
// pass. Needs only the index graph.
#pragma once
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "rules/index_dag.hpp"

namespace vx::kr {

// monomial (atom ids, sorted; empty: the constant) -> coefficient, never 0.
using Poly = std::map<std::vector<int>, __int128>;

class PolyForms {
 public:
  // The form of `n` as the program computes it: every `+ - *` and negation of `n`'s own type is
  // expanded, coefficients modulo 2^bits (two's complement arithmetic is a ring, so the forms of
  // two expressions are equal only when their values are, wrapping included); an operation of
  // another type is an atom. nullopt: larger than the rule expands.
  const std::optional<Poly>& modular(const IxNode* n);
  // The form of `n` in mathematical integers, every `+ - *` and negation expanded whatever its
  // type. Its value is `n`'s only when no operation of `n` wraps (never_wraps).
  const std::optional<Poly>& exact(const IxNode* n);
  // Whether `a` and `b` compute the same value in every pass: the same node, or the same type
  // and equal modular forms.
  bool same(const IxNode* a, const IxNode* b);
  // The node an atom stands for (the first node seen with its identity).
  const IxNode* atom(int id) const { return atoms_[id]; }

 private:
  std::optional<Poly> expand(const IxNode* n, IntType t, bool exact);
  int atom_id(const IxNode* n);
  using AtomKey = std::tuple<int, int, int, int>;  // op, type, operand forms
  int form_id(const IxNode* n);                    // an id for the modular form of n
  std::vector<const IxNode*> atoms_;
  std::unordered_map<const IxNode*, int> leaf_atoms_;
  std::map<AtomKey, int> op_atoms_;
  std::map<std::pair<int, Poly>, int> form_ids_;
  std::unordered_map<const IxNode*, std::optional<Poly>> modular_, exact_;
};

}  // namespace vx::kr
