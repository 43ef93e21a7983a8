#include "check/index_dag.hpp"

namespace vx::kr {

const IxNode* IndexDag::intern(IxNode n) {
  Key k{static_cast<int>(n.op), n.value, n.key, n.a, n.b};
  auto it = index_.find(k);
  if (it != index_.end()) return it->second;
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

const IxNode* IndexDag::loop(const void* key, const std::string& name) {
  return intern(leaf(IxOp::Loop, key, name));
}
const IxNode* IndexDag::var(const void* key, const std::string& name) {
  return intern(leaf(IxOp::Var, key, name));
}
const IxNode* IndexDag::symbol(const void* key, const std::string& name) {
  return intern(leaf(IxOp::Symbol, key, name));
}
const IxNode* IndexDag::opaque(const void* key, const std::string& name) {
  return intern(leaf(IxOp::Opaque, key, name));
}

const IxNode* IndexDag::neg(const IxNode* a) {
  if (a->is_const() && a->value != INT64_MIN) return constant(-a->value);
  IxNode n;
  n.op = IxOp::Neg;
  n.a = a;
  return intern(n);
}

const IxNode* IndexDag::binary(IxOp op, const IxNode* a, const IxNode* b) {
  if (a->is_const() && b->is_const()) {
    IxNode tmp;
    tmp.op = op;
    tmp.a = a;
    tmp.b = b;
    if (auto v = evaluate(&tmp, [](const IxNode*) { return std::optional<int64_t>(); }))
      return constant(*v);
  }
  // Identities that keep the value for every integer: no reordering.
  if ((op == IxOp::Add || op == IxOp::Sub) && b->is_const() && b->value == 0) return a;
  if (op == IxOp::Add && a->is_const() && a->value == 0) return b;
  if ((op == IxOp::Mul || op == IxOp::Div) && b->is_const() && b->value == 1) return a;
  if (op == IxOp::Mul && a->is_const() && a->value == 1) return b;
  if (op == IxOp::Mul && ((a->is_const() && a->value == 0) || (b->is_const() && b->value == 0)))
    return constant(0);
  if (op == IxOp::Rem && b->is_const() && (b->value == 1 || b->value == -1)) return constant(0);
  IxNode n;
  n.op = op;
  n.a = a;
  n.b = b;
  return intern(n);
}

namespace {

int precedence(const IxNode* n) {
  switch (n->op) {
    case IxOp::Add: case IxOp::Sub: return 1;
    case IxOp::Mul: case IxOp::Div: case IxOp::Rem: return 2;
    case IxOp::Neg: return 3;
    default: return 4;
  }
}

void print(std::string& out, const IxNode* n) {
  switch (n->op) {
    case IxOp::Const: out += std::to_string(n->value); return;
    case IxOp::Loop: case IxOp::Var: case IxOp::Symbol: case IxOp::Opaque: out += n->name; return;
    case IxOp::Neg:
      out += "-";
      if (precedence(n->a) < 3) { out += "("; print(out, n->a); out += ")"; }
      else print(out, n->a);
      return;
    default: break;
  }
  int p = precedence(n);
  bool lp = precedence(n->a) < p;
  // The right operand needs parentheses at equal precedence too (a - (b + c), a * (b / c)).
  bool rp = precedence(n->b) < p || (precedence(n->b) == p && n->op != IxOp::Add && n->op != IxOp::Mul) ||
            (precedence(n->b) == p && (n->b->op == IxOp::Div || n->b->op == IxOp::Rem ||
                                       n->b->op == IxOp::Sub));
  if (lp) out += "(";
  print(out, n->a);
  if (lp) out += ")";
  switch (n->op) {
    case IxOp::Add: out += " + "; break;
    case IxOp::Sub: out += " - "; break;
    case IxOp::Mul: out += " * "; break;
    case IxOp::Div: out += " / "; break;
    default: out += " % "; break;
  }
  if (rp) out += "(";
  print(out, n->b);
  if (rp) out += ")";
}

}  // namespace

std::string to_string(const IxNode* n) {
  std::string s;
  print(s, n);
  return s;
}

}  // namespace vx::kr
