#include "rules/index_dag.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "support/internal_error.hpp"

namespace vx::kr {

std::string IntType::name() const {
  if (math()) return "an integer";
  return (is_signed ? "i" : "u") + std::to_string(bits);
}

namespace {
__int128 type_min(IntType t) {
  return t.is_signed ? -(static_cast<__int128>(1) << (t.bits - 1)) : 0;
}
__int128 type_max(IntType t) {
  return t.is_signed ? (static_cast<__int128>(1) << (t.bits - 1)) - 1
                     : (static_cast<__int128>(1) << t.bits) - 1;
}
}  // namespace

bool fits(__int128 v, IntType t) { return t.math() || (v >= type_min(t) && v <= type_max(t)); }

std::optional<int64_t> wrap_to(__int128 v, IntType t) {
  if (!t.math()) {
    unsigned __int128 m = (static_cast<unsigned __int128>(1) << t.bits) - 1;
    unsigned __int128 u = static_cast<unsigned __int128>(v) & m;
    if (t.is_signed && (u >> (t.bits - 1)) & 1)
      v = static_cast<__int128>(u) - (m + 1);
    else
      v = static_cast<__int128>(u);
  }
  if (v < INT64_MIN || v > INT64_MAX) return std::nullopt;
  return static_cast<int64_t>(v);
}

const IxNode* IndexDag::intern(IxNode n) {
  bool leaf = n.is_leaf() && !n.is_const();
  Key k{static_cast<int>(n.op),
        n.value,
        n.key,
        n.a,
        n.b,
        leaf ? 0 : n.type.bits * 2 + (n.type.is_signed ? 1 : 0)};
  auto it = index_.find(k);
  if (it != index_.end()) return it->second;
  if (n.a) {
    n.depth = 1 + std::max(n.a->depth, n.b ? n.b->depth : 0);
    n.size = std::min(kMaxTreeSize, 1 + n.a->size + (n.b ? n.b->size : 0));
  }
  const IxNode* p = &nodes_.emplace_back(std::move(n));
  index_.emplace(k, p);
  return p;
}

const IxNode* IndexDag::constant(int64_t v) {
  IxNode n;
  n.op = IxOp::Const;
  n.value = v;
  return intern(n);
}

namespace {
IxNode leaf(IxOp op, const void* key, const std::string& name) {
  IxNode n;
  n.op = op;
  n.key = key;
  n.name = name;
  return n;
}
}  // namespace

const IxNode* IndexDag::loop(const void* key, const std::string& name, IntType t) {
  IxNode n = leaf(IxOp::Loop, key, name);
  n.type = t;
  return intern(n);
}
const IxNode* IndexDag::var(const void* key, const std::string& name, IntType t) {
  IxNode n = leaf(IxOp::Var, key, name);
  n.type = t;
  return intern(n);
}
const IxNode* IndexDag::symbol(const void* key, const std::string& name) {
  return intern(leaf(IxOp::Symbol, key, name));
}
const IxNode* IndexDag::opaque(const void* key, const std::string& name) {
  return intern(leaf(IxOp::Opaque, key, name));
}

const IxNode* IndexDag::too_deep() {
  IxNode n = leaf(IxOp::Opaque, &too_deep_keys_.emplace_back(), "(too deep)");
  n.too_deep = true;
  return intern(n);
}

const IxNode* IndexDag::neg(const IxNode* a, IntType t) {
  if (a->is_const() && a->value != INT64_MIN && fits(-static_cast<__int128>(a->value), t))
    return constant(-a->value);
  if (a->depth >= kMaxIndexDepth) return too_deep();
  IxNode n;
  n.op = IxOp::Neg;
  n.a = a;
  n.type = t;
  return intern(n);
}

const IxNode* IndexDag::binary(IxOp op, const IxNode* a, const IxNode* b, IntType t) {
  if (a->is_const() && b->is_const()) {
    // Fold only what does not wrap: a constant that wraps is left for find_wrap to refuse.
    IxNode tmp;
    tmp.op = op;
    tmp.a = a;
    tmp.b = b;
    tmp.type = IntType{};  // exact, nullopt outside int64
    if (auto v = evaluate(&tmp, [](const IxNode*) { return std::optional<int64_t>(); }))
      if (fits(*v, t)) return constant(*v);
  }
  if (std::max(a->depth, b->depth) >= kMaxIndexDepth) return too_deep();
  // Identities that keep the value for every integer: no reordering.
  if ((op == IxOp::Add || op == IxOp::Sub) && b->is_const() && b->value == 0) return a;
  if (op == IxOp::Add && a->is_const() && a->value == 0) return b;
  if ((op == IxOp::Mul || op == IxOp::Div) && b->is_const() && b->value == 1) return a;
  if (op == IxOp::Mul && a->is_const() && a->value == 1) return b;
  if (op == IxOp::Mul && ((a->is_const() && a->value == 0) || (b->is_const() && b->value == 0)))
    return constant(0);
  if (op == IxOp::Rem && b->is_const() && (b->value == 1 || b->value == -1)) return constant(0);
  // (x / W) * W + x % W is x for truncating division and W > 0, in any type: |(x / W) * W| <= |x|
  // cannot wrap (spec/kernel-rules.md §4 step 1: `[x / W][x % W]` of a dimension of W).
  if (op == IxOp::Add) {
    auto whole = [](const IxNode* m, const IxNode* r) {
      if (m->op != IxOp::Mul || r->op != IxOp::Rem || !r->b->is_const() || r->b->value <= 0)
        return false;
      const IxNode* d = m->a->op == IxOp::Div ? m->a : m->b;
      const IxNode* w = d == m->a ? m->b : m->a;
      return d->op == IxOp::Div && w->is_const() && w->value == r->b->value && d->b == r->b &&
             d->a == r->a && d->type.bits == r->type.bits && d->type.is_signed == r->type.is_signed;
    };
    if (whole(a, b)) return b->a;
    if (whole(b, a)) return a->a;
  }
  IxNode n;
  n.op = op;
  n.a = a;
  n.b = b;
  n.type = t;
  return intern(n);
}

namespace {

int precedence(const IxNode* n) {
  switch (n->op) {
    case IxOp::Add:
    case IxOp::Sub:
      return 1;
    case IxOp::Mul:
    case IxOp::Div:
    case IxOp::Rem:
      return 2;
    case IxOp::Neg:
      return 3;
    default:
      return 4;
  }
}

// A binary operation as Vx writes it, with its spaces: " + ", " * ", " % ".
const char* op_text(IxOp op) {
  switch (op) {
    case IxOp::Add:
      return " + ";
    case IxOp::Sub:
      return " - ";
    case IxOp::Mul:
      return " * ";
    case IxOp::Div:
      return " / ";
    default:
      return " % ";
  }
}

// Prints `n`; a node in `names` (other than `top`) prints as its name.
void print(std::string& out, const IxNode* n, const std::unordered_map<const IxNode*, int>& names,
           const IxNode* top) {
  if (n != top)
    if (auto it = names.find(n); it != names.end()) {
      out += "e" + std::to_string(it->second);
      return;
    }
  switch (n->op) {
    case IxOp::Const:
      out += std::to_string(n->value);
      return;
    case IxOp::Loop:
    case IxOp::Var:
    case IxOp::Symbol:
    case IxOp::Opaque:
      out += n->name;
      return;
    case IxOp::Neg:
      out += "-";
      if (precedence(n->a) < 3 && !names.count(n->a)) {
        out += "(";
        print(out, n->a, names, top);
        out += ")";
      } else {
        print(out, n->a, names, top);
      }
      return;
    default:
      break;
  }
  int p = precedence(n);
  // A named operand prints as one word: it needs no parentheses.
  auto prec = [&](const IxNode* x) { return names.count(x) ? 4 : precedence(x); };
  bool lp = prec(n->a) < p;
  // The right operand needs parentheses at equal precedence too (a - (b + c), a * (b / c)).
  int pb = prec(n->b);
  bool rp = pb < p || (pb == p && n->op != IxOp::Add && n->op != IxOp::Mul) ||
            (pb == p && (n->b->op == IxOp::Div || n->b->op == IxOp::Rem || n->b->op == IxOp::Sub));
  if (lp) out += "(";
  print(out, n->a, names, top);
  if (lp) out += ")";
  out += op_text(n->op);
  if (rp) out += "(";
  print(out, n->b, names, top);
  if (rp) out += ")";
}

// Past this many nodes written out, shared sub-expressions are printed once, by name.
constexpr uint64_t kMaxPrintedTree = 256;

}  // namespace

std::string to_string(const IxNode* n) {
  std::string s;
  if (n->size <= kMaxPrintedTree) {
    print(s, n, {}, nullptr);
    return s;
  }
  // Name every operation reached more than once, in an order where each name is defined before
  // it is used (children first).
  std::unordered_map<const IxNode*, int> parents;
  std::vector<const IxNode*> order;  // operations, children before parents
  std::vector<std::pair<const IxNode*, bool>> stack{{n, false}};
  while (!stack.empty()) {
    auto [x, done] = stack.back();
    stack.pop_back();
    if (x->is_leaf()) continue;
    if (done) {
      order.push_back(x);
      continue;
    }
    if (parents[x]++ > 0) continue;
    stack.push_back({x, true});
    if (x->b) stack.push_back({x->b, false});
    stack.push_back({x->a, false});
  }
  std::unordered_map<const IxNode*, int> names;
  std::vector<const IxNode*> named;
  for (const IxNode* x : order)
    if (x != n && parents[x] > 1) {
      names.emplace(x, static_cast<int>(named.size()) + 1);
      named.push_back(x);
    }
  print(s, n, names, nullptr);
  for (size_t i = 0; i < named.size(); ++i) {
    s += i == 0 ? ", where e" : ", e";
    s += std::to_string(i + 1) + " = ";
    print(s, named[i], names, named[i]);
  }
  return s;
}

namespace {
struct Interval {
  __int128 lo, hi;
};
// Products and sums saturate here: far outside every type, so still refused, never overflowing.
constexpr __int128 kHuge = static_cast<__int128>(1) << 120;
__int128 clamp(__int128 v) { return v > kHuge ? kHuge : v < -kHuge ? -kHuge : v; }
__int128 sat_mul(__int128 a, __int128 b) {
  __int128 r;
  if (__builtin_mul_overflow(a, b, &r)) return (a < 0) != (b < 0) ? -kHuge : kHuge;
  return clamp(r);
}

// The range of every node below `root`; with `stop_at_wrap`, stops at the first operation that
// may leave its type (`found`), else such an operation may give any value of its type.
// Nodes in `may_wrap` saturate to their type instead of stopping.
Interval analyse(const IxNode* root, const LeafRange& leaf_range, bool stop_at_wrap,
                 std::optional<Wrap>& found,
                 const std::unordered_set<const IxNode*>* may_wrap = nullptr) {
  std::unordered_map<const IxNode*, Interval> range;
  // Children before parents, without recursion.
  std::vector<std::pair<const IxNode*, bool>> stack{{root, false}};
  while (!stack.empty() && !found) {
    auto [n, done] = stack.back();
    stack.pop_back();
    if (range.count(n)) continue;
    if (n->is_const()) {
      range[n] = {n->value, n->value};
      continue;
    }
    if (n->is_leaf()) {
      auto r = leaf_range(n);
      IntType t = n->type;
      if (r)
        range[n] = {r->first, r->second};
      else if (t.math())
        range[n] = {-kHuge, kHuge};
      else
        range[n] = {type_min(t), type_max(t)};
      continue;
    }
    if (!done) {
      stack.push_back({n, true});
      if (n->b) stack.push_back({n->b, false});
      stack.push_back({n->a, false});
      continue;
    }
    Interval a = must_find(range, n->a), b = n->b ? must_find(range, n->b) : Interval{0, 0},
             r{0, 0};
    switch (n->op) {
      case IxOp::Neg:
        r = {-a.hi, -a.lo};
        break;
      case IxOp::Add:
        r = {clamp(a.lo + b.lo), clamp(a.hi + b.hi)};
        break;
      case IxOp::Sub:
        r = {clamp(a.lo - b.hi), clamp(a.hi - b.lo)};
        break;
      case IxOp::Mul: {
        __int128 c[4] = {sat_mul(a.lo, b.lo), sat_mul(a.lo, b.hi), sat_mul(a.hi, b.lo),
                         sat_mul(a.hi, b.hi)};
        r = {*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
        break;
      }
      case IxOp::Div:
        if (b.lo <= 0 && b.hi >= 0) {
          // The divisor may be 0 (a runtime error) or ±1: at most |a| either way.
          __int128 m = std::max(a.hi < 0 ? -a.hi : a.hi, a.lo < 0 ? -a.lo : a.lo);
          r = {-m, m};
        } else {
          __int128 c[4] = {a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi};
          r = {*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
        }
        break;
      case IxOp::Rem: {
        // |a % b| < |b| and |a % b| <= |a|, with the sign of a.
        __int128 mb = std::max(b.hi < 0 ? -b.hi : b.hi, b.lo < 0 ? -b.lo : b.lo);
        __int128 m = mb > 0 ? mb - 1 : 0;
        r = {a.lo < 0 ? std::max(-m, a.lo) : 0, a.hi > 0 ? std::min(m, a.hi) : 0};
        break;
      }
      default:
        break;
    }
    if (!fits(r.lo, n->type) || !fits(r.hi, n->type)) {
      if (stop_at_wrap && !(may_wrap && may_wrap->count(n)))
        found = Wrap{n, r.lo, r.hi};
      else
        r = {type_min(n->type), type_max(n->type)};
    }
    range[n] = r;
  }
  return found ? Interval{0, 0} : must_find(range, root);
}
}  // namespace

std::optional<Wrap> find_wrap(const IxNode* root, const LeafRange& leaf_range,
                              const std::function<bool(const IxNode*)>& fixed_leaf) {
  // Fixed sub-expressions: the same value in every pass, whatever their operations do.
  std::unordered_map<const IxNode*, bool> fixed;
  std::vector<std::pair<const IxNode*, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [n, done] = stack.back();
    stack.pop_back();
    if (fixed.count(n)) continue;
    if (n->is_const())
      fixed[n] = true;
    else if (n->is_leaf())
      fixed[n] = !n->too_deep && fixed_leaf && fixed_leaf(n);
    else if (!done) {
      stack.push_back({n, true});
      if (n->b) stack.push_back({n->b, false});
      stack.push_back({n->a, false});
    } else {
      fixed[n] = must_find(fixed, n->a) && (!n->b || must_find(fixed, n->b));
    }
  }
  // The spine: the row-major combination (mathematical), and below it, sums with one fixed
  // operand. Adding the same value to every pass's index is a bijection modulo 2^bits, so a
  // wrap there keeps different passes different; any other operation is checked.
  std::unordered_set<const IxNode*> may_wrap;
  std::vector<const IxNode*> spine{root};
  while (!spine.empty()) {
    const IxNode* n = spine.back();
    spine.pop_back();
    if (n->is_leaf() || !may_wrap.insert(n).second) continue;
    if (must_find(fixed, n)) continue;  // wholly fixed: any value, the same in every pass
    bool math = n->type.math() && n->op != IxOp::Div && n->op != IxOp::Rem;
    if (math && n->b) {
      spine.push_back(n->a);
      spine.push_back(n->b);
    } else if ((n->op == IxOp::Add || n->op == IxOp::Sub) &&
               (must_find(fixed, n->a) || must_find(fixed, n->b))) {
      spine.push_back(must_find(fixed, n->a) ? n->b : n->a);
    } else {
      may_wrap.erase(n);
    }
  }
  for (const auto& [n, f] : fixed)
    if (f && !n->is_leaf()) may_wrap.insert(n);
  std::optional<Wrap> found;
  analyse(root, leaf_range, true, found, &may_wrap);
  return found;
}

bool never_wraps(const IxNode* n, const LeafRange& leaf_range) {
  std::optional<Wrap> found;
  analyse(n, leaf_range, true, found, nullptr);
  return !found;
}

std::pair<__int128, __int128> value_range(const IxNode* n, const LeafRange& leaf_range) {
  std::optional<Wrap> none;
  Interval r = analyse(n, leaf_range, false, none);
  return {r.lo, r.hi};
}

std::string int128_text(__int128 v) {
  if (v >= kHuge) return "more than 2^120";
  if (v <= -kHuge) return "less than -2^120";
  bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : v;
  std::string d;
  do {
    d.insert(d.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  } while (u);
  return neg ? "-" + d : d;
}

std::string describe_wrap(const Wrap& w) {
  auto text = int128_text;
  IntType t = w.node->type;
  std::string s = "`" + to_string(w.node) + "` computes in " + t.name() + ", whose values are " +
                  text(type_min(t)) + " to " + text(type_max(t)) + ", and may be ";
  if (!fits(w.hi, t))
    s += "as large as " + text(w.hi);
  else
    s += "as small as " + text(w.lo);
  return s;
}

std::string widen_help(const Wrap& w) {
  const IxNode* n = w.node;
  const IntType t = n->type;
  if (t.math() || !n->a) return {};
  std::optional<IntType> wide;
  for (IntType c : {IntType{32, true}, IntType{64, true}})
    if (c.bits > t.bits && fits(w.lo, c) && fits(w.hi, c)) {
      wide = c;
      break;
    }
  if (!wide) return {};
  std::set<const IxNode*> seen;
  bool source = true;  // every leaf is a constant, a variable or a loop's own index
  for (const IxNode* side : {n->a, n->b})
    for_each_leaf(side, seen, [&](const IxNode* l) {
      source = source && (l->op == IxOp::Const || l->op == IxOp::Var ||
                          (l->op == IxOp::Loop && l->name.find('(') == std::string::npos));
    });
  if (!source) return {};
  const std::string type = wide->name();
  auto cast = [&](const IxNode* x) {
    const std::string s = to_string(x);
    return "(" + (x->is_leaf() ? s : "(" + s + ")") + " as " + type + ")";
  };
  auto operand = [&](const IxNode* x) {
    return x->is_leaf() ? to_string(x) : "(" + to_string(x) + ")";
  };
  std::string text;
  if (n->op == IxOp::Neg) {
    text = "-" + cast(n->a);
  } else {
    // The first operand that is not a constant is cast; the constant takes the wider type.
    const bool first = !n->a->is_const();
    text = (first ? cast(n->a) : operand(n->a)) + op_text(n->op) +
           (first ? operand(n->b) : cast(n->b));
  }
  return "compute `" + to_string(n) + "` in " + type + ", which holds every value it takes (" +
         int128_text(w.lo) + " to " + int128_text(w.hi) + "): `" + text +
         "`, and cast the index's other terms with it";
}

}  // namespace vx::kr
