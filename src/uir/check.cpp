// The kernel rules for .uir (spec/uir.md §5): the lesson's shape of global and local loops (the
// loop-nest validator of src/check, with the limits of a machine), then the one disjointness
// check of src/check. Each range becomes a synthetic `for` statement and each
// buffer a slot, every offset becomes a node of the same hash-consed IndexDag the Vx checker uses,
// and check_disjointness (mixed-radix proof, same-expression rule, explain tables) runs unchanged:
// a global loop is a block loop, a local loop a lane loop. Needs a program read_uir accepted.
#include <algorithm>

#include "rules/kernel_access.hpp"
#include "rules/kernel_rules.hpp"
#include "rules/loop_nest.hpp"
#include "support/internal_error.hpp"
#include "uir/uir.hpp"

namespace vx::uir {

namespace {

kr::IxOp ix_op(Op op) {
  switch (op) {
    case Op::Add:
      return kr::IxOp::Add;
    case Op::Sub:
      return kr::IxOp::Sub;
    case Op::Mul:
      return kr::IxOp::Mul;
    case Op::Div:
      return kr::IxOp::Div;
    default:
      return kr::IxOp::Rem;
  }
}

class UirChecker {
 public:
  UirChecker(const Program& p, const Machine& m, Diagnostics& d)
      : p_(p), diags_(d), nest_(m), ix_(p.nodes.size()) {}

  bool run(std::vector<kr::StoreExplain>* explain) {
    size_t before = diags_.error_count();
    prepare();
    shape(p_.top, nullptr);
    if (diags_.error_count() != before) return false;
    kr::check_disjointness(facts_, diags_, explain);
    return diags_.error_count() == before;
  }

 private:
  // One synthetic For per range, one slot per buffer.
  void prepare() {
    fn_.name = "uir";
    for (size_t i = 0; i < p_.nodes.size(); ++i) {
      const Node& n = p_.nodes[i];
      if (n.op == Op::Range) {
        tir::Stmt* s = tir_.new_stmt();
        s->kind = tir::StmtKind::For;
        s->span = n.span;
        s->var_name = "%" + n.name;
        s->across = n.axis == Axis::Global  ? tir::Across::Blocks
                    : n.axis == Axis::Local ? tir::Across::Lanes
                                            : tir::Across::None;
        stmt_of_[i] = s;
      } else if (n.op == Op::Buffer) {
        slot_of_[i] = fn_.slot_count();
        fn_.slot_types.push_back(Type::tensor(n.type, Memory::Hbm, n.dims));
        fn_.slot_names.push_back("%" + n.name);
      } else if (n.has_value) {
        // A value the rule may not read (a load, a float) is a variable, like a Vx `let`:
        // fixed for the loops it is defined outside of, varying in the others.
        slot_of_[i] = fn_.slot_count();
        fn_.slot_types.push_back(Type::of(n.type));
        fn_.slot_names.push_back("%" + n.name);
      }
    }
    facts_.fn = &fn_;
    facts_.dag = &dag_;
    facts_.words = {"global", "local", "thread"};
    facts_.decl_fors.resize(fn_.slot_types.size());
    std::vector<const tir::Stmt*> fors;
    collect(p_.top, fors);
  }

  // A one-element buffer read or written at offset 0 (a Vx `let mut` scalar, lowered).
  bool cell(const Operand& buf, const Operand& off) const {
    return buf.node >= 0 && p_.nodes[buf.node].dims == std::vector<int64_t>{1} && off.node < 0 &&
           off.bits == 0;
  }
  // The cells a range's body stores, at any depth: their values there are not known after it,
  // nor at the start of each of its passes.
  void forget_cells(const std::vector<int>& list) {
    for (int i : list) {
      const Node& n = p_.nodes[i];
      if (n.op == Op::Store) cells_.erase(n.args[0].node);
      if (n.op == Op::Range) forget_cells(n.body);
    }
  }

  void collect(const std::vector<int>& list, std::vector<const tir::Stmt*>& fors) {
    for (int i : list) {
      const Node& n = p_.nodes[i];
      if (auto it = slot_of_.find(i); it != slot_of_.end()) facts_.decl_fors[it->second] = fors;
      if (n.op == Op::Range) {
        const tir::Stmt* s = must_find(stmt_of_, i);
        fors.push_back(s);
        facts_.loop_fors[s] = fors;
        facts_.loop_lo[s] = 0;
        facts_.loop_hi[s] = n.count - 1;
        if (s->across != tir::Across::None) facts_.across_loops.push_back(s);
        forget_cells(n.body);
        collect(n.body, fors);
        forget_cells(n.body);
        fors.pop_back();
      }
      // spec/uir.md §5.2: a load of a cell after a store to it in the same range body, with no
      // range between that stores it, is the value stored (a Vx `let mut` followed as
      // kernel-rules.md §4 step 1 follows it).
      if (n.op == Op::Store && cell(n.args[0], n.args[1])) cells_[n.args[0].node] = n.args[2];
      if (n.op == Op::Load && cell(n.args[0], n.args[1]) && is_int(n.type) && !ix_[i])
        if (auto it = cells_.find(n.args[0].node); it != cells_.end())
          ix_[i] = index_of(it->second);
      if (n.op == Op::Load || n.op == Op::Store) {
        const Node& buf = p_.nodes[n.args[0].node];
        kr::Access a;
        a.root = must_find(slot_of_, n.args[0].node);
        a.tensor = "%" + buf.name;
        a.type = &fn_.slot_types[a.root];
        a.write = n.op == Op::Store;
        a.offset = index_of(n.args[1]);
        int64_t elements = 1;  // a buffer's index is its linear offset
        for (int64_t d : a.type->dims)
          if (d <= 0 || __builtin_mul_overflow(elements, d, &elements)) elements = 0;
        a.indices.push_back({a.offset, elements});
        a.span = n.op_span;
        a.text =
            std::string(p_.file->text().substr(n.op_span.begin, n.op_span.end - n.op_span.begin));
        a.fors = fors;
        facts_.accesses.push_back(std::move(a));
      }
    }
  }

  // The offset node of an operand: loop indices, integer constants and integer arithmetic are
  // read; a loaded value, float arithmetic or a narrowing cast is a variable (see prepare).
  static kr::IntType int_type(Scalar s) {
    if (!is_int(s)) return {};
    const auto& info = scalar_info(s);
    return kr::IntType{static_cast<uint8_t>(info.bits), info.is_signed};
  }

  const kr::IxNode* index_of(const Operand& o) {
    if (o.node < 0) return dag_.constant(static_cast<int64_t>(o.bits));
    return index_of(o.node);
  }
  const kr::IxNode* index_of(int i) {
    if (ix_[i]) return ix_[i];
    const Node& n = p_.nodes[i];
    const kr::IxNode* r = nullptr;
    auto opaque = [&] { return dag_.var(&fn_.slot_types[must_find(slot_of_, i)], "%" + n.name); };
    if (!is_int(n.type) && n.op != Op::Range) {
      r = opaque();
    } else {
      switch (n.op) {
        case Op::Range:
          r = dag_.loop(must_find(stmt_of_, i), "%" + n.name);
          break;
        case Op::Const:
          r = dag_.constant(static_cast<int64_t>(n.args[0].bits));
          break;
        case Op::Add:
        case Op::Sub:
        case Op::Mul:
        case Op::Div:
        case Op::Mod:
          // In the instruction's type: .uir's integers wrap (spec/uir.md §3), and the prover
          // refuses an offset that may (spec/kernel-rules.md §4.7).
          r = dag_.binary(ix_op(n.op), index_of(n.args[0]), index_of(n.args[1]), int_type(n.type));
          break;
        case Op::Neg:
          r = dag_.neg(index_of(n.args[0]), int_type(n.type));
          break;
        case Op::Cast: {
          // A cast that keeps every value (to a wider integer type) keeps the node, as Vx's
          // widening casts do (spec/kernel-rules.md §4.1).
          const Operand& a = n.args[0];
          Scalar from = a.node >= 0    ? p_.nodes[a.node].type
                        : a.float_text ? Scalar::F64
                                       : Scalar::I32;
          const ScalarInfo &fi = scalar_info(from), &ti = scalar_info(n.type);
          bool keeps = is_int(from) &&
                       (ti.bits > fi.bits ? (ti.is_signed || !fi.is_signed)
                                          : ti.bits == fi.bits && ti.is_signed == fi.is_signed);
          // A loop index cast to a type that holds all of its values keeps them too (Vx's
          // `for l in 0u16..256u16` lowers to a range cast to u16).
          if (!keeps && is_int(n.type) && a.node >= 0 && p_.nodes[a.node].op == Op::Range)
            keeps = kr::fits(p_.nodes[a.node].count - 1, int_type(n.type));
          r = keeps ? index_of(a) : opaque();
          break;
        }
        default:
          r = opaque();
          break;
      }
    }
    return ix_[i] = r;
  }

  Diagnostic& fail(KernelRule rule, const Node& n, std::string msg, std::string label) {
    return kernel_rule_error(diags_, rule, n.span, std::move(msg), std::move(label));
  }

  // The lesson's rules for the shape of a kernel (spec/uir.md §5.1): print outside the loops
  // that run at the same time, and the loop nest's (loop_nest.hpp).
  void shape(const std::vector<int>& list, const Node* parent) {
    for (int i : list) {
      const Node& n = p_.nodes[i];
      if (n.op == Op::Print && (nest_.block_loops() > 0 || nest_.lane_loops() > 0)) {
        auto& d = fail(KernelRule::PrintsInPass, n,
                       "`print` cannot be in a global or local loop: its iterations run at "
                       "the same time",
                       "in a kernel");
        d.helps.push_back("print after the loop's `end`");
      }
      if (n.op != Op::Range) continue;
      if (n.axis == Axis::None) {
        shape(n.body, &n);
        continue;
      }
      kr::NestLoop loop;
      loop.level = n.axis == Axis::Global ? tir::Across::Blocks : tir::Across::Lanes;
      loop.parent = !parent                        ? kr::NestParent::Region
                    : parent->axis == Axis::Global ? kr::NestParent::BlockLoop
                    : parent->axis == Axis::Local  ? kr::NestParent::LaneLoop
                                                   : kr::NestParent::Other;
      loop.passes = n.count;
      loop.lanes_written = true;  // a local loop's bound is its block size
      loop.lanes = n.count;
      const kr::NestVerdict v = nest_.check(loop);
      if (v) report(v, n, parent);
      nest_.enter(loop, v);
      shape(n.body, &n);
      nest_.leave();
    }
  }

  // A fault of the loop nest's shape, in the lesson's words.
  void report(const kr::NestVerdict& v, const Node& n, const Node* parent) {
    const std::string bound = std::to_string(v.limit);
    switch (v.fault) {
      case kr::NestFault::None:
        return;
      case kr::NestFault::MachineWithoutLanes:
        fail(v.rule, n, "the machine has no blocks and threads for a global or local loop",
             "not on this machine");
        return;
      case kr::NestFault::BlockInLaneLoop:
        fail(v.rule, n, "a global loop cannot be inside a local loop", "inside a local loop");
        return;
      case kr::NestFault::BlockNotDirect:
        fail(v.rule, n, "a global loop is at the top level or directly in another global loop",
             "inside the plain loop `%" + parent->name + "`")
            .helps.push_back("move the loop out of the plain loop around it");
        return;
      case kr::NestFault::BlocksTooDeep:
        fail(v.rule, n, kr::too_deep_message(tir::Across::Blocks, "global"),
             "a fourth global loop");
        return;
      case kr::NestFault::GridTooLarge:
        fail(v.rule, n,
             "a grid has at most " + bound + " blocks in a dimension, and this loop has " +
                 std::to_string(n.count) + " iterations",
             "too many blocks");
        return;
      case kr::NestFault::LaneOutsideBlock:
        fail(v.rule, n, "a local loop must be inside a global loop", "not in a global loop");
        return;
      case kr::NestFault::LaneNotDirect:
        fail(v.rule, n, "a local loop inside another local loop must be directly in its body",
             "not directly in a local loop");
        return;
      case kr::NestFault::LanesTooDeep:
        fail(v.rule, n, kr::too_deep_message(tir::Across::Lanes, "local"), "a fourth local loop");
        return;
      case kr::NestFault::NoLanes:
      case kr::NestFault::LanesNotConstant:
      case kr::NestFault::TooManyLanes:
        fail(v.rule, n,
             "the bound of a local loop is the block size: a literal from 1 to " + bound +
                 ", and this one is " + std::to_string(n.count),
             "not a block size");
        return;
      case kr::NestFault::TooManyLanesInNest:
        fail(v.rule, n,
             "the local loops in each other ask for " + std::to_string(v.asked) +
                 " threads; a block has at most " + bound,
             "too many threads");
        return;
    }
  }

  const Program& p_;
  Diagnostics& diags_;
  kr::LoopNest nest_;
  tir::Program tir_;  // the arena of the synthetic loops
  tir::Function fn_;
  kr::IndexDag dag_;
  kr::FunctionFacts facts_;
  std::map<int, const tir::Stmt*> stmt_of_;
  std::map<int, int> slot_of_;
  std::vector<const kr::IxNode*> ix_;
  std::map<int, Operand> cells_;  // cell -> the value last stored to it, where known
};

}  // namespace

bool check_uir(const Program& program, Diagnostics& diags, std::vector<kr::StoreExplain>* explain,
               const Machine& machine) {
  return UirChecker(program, machine, diags).run(explain);
}

}  // namespace vx::uir
