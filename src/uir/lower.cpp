// Lowers a checked Vx `spawn on` region to .uir (spec/uir.md §7): block loops become global
// ranges, lane loops local ranges, plain loops unmarked ones; a tensor element's index becomes its
// row-major offset in i64; immutable scalars become SSA nodes and mutable ones one-element
// buffers, so the sequential meaning is kept bit for bit. What .uir cannot say (control flow,
// calls and built-ins, comparisons, f16/bf16/bool, sub-tensor views) makes the region
// unlowerable, with the reason. Needs a lowered program (lower/lower.hpp) that the kernel rules
// accepted.
#include <set>
#include <sstream>

#include "check/tir_walk.hpp"
#include "interp/runtime.hpp"
#include "support/internal_error.hpp"
#include "uir/uir.hpp"

namespace vx::uir {

namespace {

// A `match` (check/check_match.cpp makes it a chain of `if`s).
constexpr const char* kNoMatch = "it uses `match`, and .uir has no control flow but ranges";

struct Val {
  std::string text;  // `%name` or a literal
  Scalar type = Scalar::I32;
  bool literal = false;
};

struct Unlowerable {
  std::string reason;
};

uint64_t literal_bits(const tir::Expr& e) {
  Scalar s = e.type.scalar;
  if (s == Scalar::F32) return interp::to_bits<float>(static_cast<float>(e.lit.f));
  if (s == Scalar::F64) return interp::to_bits<double>(e.lit.f);
  return static_cast<uint64_t>(e.lit.i);
}

const char* op_word(tir::BinOp op) {
  switch (op) {
    case tir::BinOp::Add:
      return "add";
    case tir::BinOp::Sub:
      return "sub";
    case tir::BinOp::Mul:
      return "mul";
    case tir::BinOp::Div:
      return "div";
    case tir::BinOp::Rem:
      return "mod";
    default:
      return nullptr;
  }
}

class Lowerer {
 public:
  Lowerer(const tir::Program& p, const tir::Function& fn, const CaptureSource* values,
          LoweredRegion& r)
      : p_(p), fn_(fn), values_(values), r_(r) {}

  void lower(const tir::Stmt& spawn) {
    tir::writes_in(spawn.body, [&](int slot) { assigned_.insert(slot); });
    block(spawn.body);
    std::ostringstream text;
    text << "# " << r_.location << ": the `spawn on` region of `" << fn_.name
         << "`, lowered by vx\n";
    text << head_.str() << body_;
    r_.text = text.str();
  }

 private:
  [[noreturn]] void fail(std::string why) { throw Unlowerable{std::move(why)}; }

  std::string fresh(const std::string& base) {
    std::string b;
    for (char c : base)
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') b += c;
    if (b.empty()) b = "v";
    std::string n = b;
    for (int k = 1; used_.count(n); ++k) n = b + "." + std::to_string(k);
    used_.insert(n);
    return n;
  }
  std::string temp() { return fresh(std::to_string(++temps_)); }

  void line(const std::string& s) { body_ += std::string(2 * depth_, ' ') + s + "\n"; }
  // Emits `%name = INSTR` and returns `%name`.
  std::string def(const std::string& name, const std::string& instr) {
    last_def_at_ = body_.size() + 2 * depth_;
    line("%" + name + " = " + instr);
    last_ = "%" + name;
    last_bound_ = false;
    return last_;
  }
  // Gives the value `v` the name of the Vx variable it is bound to, when it is the instruction
  // just emitted and nothing refers to it yet: `%by = div %g 32` rather than `%1 = div %g 32`.
  // A value already bound (a loop's range, whose `end` names it; another variable's value, as in
  // `let c = b;`) keeps its name.
  std::string rename_last(const std::string& v, const std::string& var) {
    if (v != last_ || last_bound_ || body_.compare(last_def_at_, v.size() + 3, v + " = ") != 0)
      return v;
    std::string name = "%" + fresh(var);
    body_.replace(last_def_at_, v.size(), name);
    return last_ = name;
  }

  Scalar scalar_of(const Type& t, const std::string& what) {
    if (!uir_type(t.scalar))
      fail(what + " has the type `" + scalar_info(t.scalar).name + "`, which .uir does not have");
    return t.scalar;
  }

  const std::string& slot_name(int slot) { return fn_.slot_names[slot]; }

  // ---- captured values, declared at the top
  std::string captured_tensor(int slot) {
    if (auto it = buffers_.find(slot); it != buffers_.end()) return it->second;
    const Type& t = fn_.slot_types[slot];
    Scalar s = scalar_of(t, "the tensor `" + slot_name(slot) + "`");
    std::optional<Captured> v;
    if (values_) {
      v = (*values_)(slot);
      if (!v) fail("the contents of `" + slot_name(slot) + "` are not available");
    }
    // A `?` dimension of a reference parameter is known once the program runs.
    std::vector<int64_t> shape = v && !v->dims.empty() ? v->dims : t.dims;
    std::string dims;
    for (int64_t d : shape) {
      if (d <= 0) fail("the tensor `" + slot_name(slot) + "` has a dimension not known statically");
      dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    }
    dims_[slot] = shape;
    std::string name = fresh(slot_name(slot));
    head_ << "buffer %" << name << " " << scalar_info(s).name << "[" << dims << "]";
    if (v) {
      head_ << " data";
      for (uint64_t b : v->bits) head_ << " " << value_text(s, b);
    } else {
      head_ << "  # `" << slot_name(slot) << "` of `" << fn_.name
            << "`: its contents at the region's entry";
    }
    head_ << "\n";
    buffers_[slot] = "%" + name;
    r_.buffers.emplace_back(name, slot);
    return "%" + name;
  }

  Val captured_scalar(int slot) {
    const Type& t = fn_.slot_types[slot];
    Scalar s = scalar_of(t, "the variable `" + slot_name(slot) + "`");
    if (!values_)
      fail("it reads `" + slot_name(slot) +
           "`, whose value is known only when the "
           "program runs (`vx lower` does not run it)");
    auto v = (*values_)(slot);
    if (!v || v->bits.size() != 1) fail("the value of `" + slot_name(slot) + "` is not available");
    std::string name = fresh(slot_name(slot));
    head_ << "%" << name << " = const " << value_text(s, v->bits[0]) << " " << scalar_info(s).name
          << "\n";
    scalars_[slot] = "%" + name;
    return {"%" + name, s, false};
  }

  // ---- statements
  void block(const tir::Block* b) {
    if (!b) return;
    for (const tir::Stmt* s : b->stmts) stmt(*s);
    if (b->tail) expr(*b->tail);
  }

  void stmt(const tir::Stmt& s) {
    switch (s.kind) {
      case tir::StmtKind::Let:
        return let(s);
      case tir::StmtKind::Assign:
        return assign(s);
      case tir::StmtKind::Expr:
        if (s.value->from_match) fail(kNoMatch);
        if (s.value->kind == tir::ExprKind::BlockExpr) return block(s.value->block);
        expr(*s.value);
        return;
      case tir::StmtKind::For:
        return loop(s);
      case tir::StmtKind::While:
        fail("it uses `while`, and .uir has no control flow but ranges");
      case tir::StmtKind::Loop:
        fail("it uses `loop`, and .uir has no control flow but ranges");
      case tir::StmtKind::Spawn:
        fail("it holds another `spawn on` region");
      case tir::StmtKind::Return:
        fail("it uses `return`");
      case tir::StmtKind::Break:
        fail("it uses `break`");
      case tir::StmtKind::Continue:
        fail("it uses `continue`");
    }
  }

  void let(const tir::Stmt& s) {
    const Type& t = fn_.slot_types[s.slot];
    if (t.is_tensor_like()) return tensor_let(s);
    if (t.is_array()) fail("it declares the array `" + s.var_name + "`, and .uir has no arrays");
    if (!t.is_scalar()) fail("it declares `" + s.var_name + "`, which is not a scalar or tensor");
    Scalar ty = scalar_of(t, "the variable `" + s.var_name + "`");
    if (assigned_.count(s.slot)) {
      // A mutable scalar: a buffer of one element, made where the `let` stands.
      std::string name = fresh(s.var_name);
      line("buffer %" + name + " " + scalar_info(ty).name + "[1]");
      cells_[s.slot] = "%" + name;
      if (s.value) {
        Val v = expr(*s.value);
        store("%" + name, "0", v);
      }
      return;
    }
    if (!s.value) fail("it declares `" + s.var_name + "` without a value");
    Val v = expr(*s.value);
    if (v.literal)
      v = {def(fresh(s.var_name), "const " + v.text + " " + scalar_info(ty).name), ty};
    else
      v.text = rename_last(v.text, s.var_name);
    scalars_[s.slot] = v.text;
    last_bound_ = true;
  }

  void tensor_let(const tir::Stmt& s) {
    const tir::Expr* e = s.value;
    while (e && e->kind == tir::ExprKind::BlockExpr && e->block->stmts.empty() && e->block->tail)
      e = e->block->tail;
    if (!e || e->kind != tir::ExprKind::TensorNew)
      fail("it declares the tensor `" + s.var_name + "` other than with `fill` or `uninit`");
    const Type& t = fn_.slot_types[s.slot];
    Scalar ty = scalar_of(t, "the tensor `" + s.var_name + "`");
    std::string dims;
    for (int64_t d : t.dims) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    std::string name = fresh(s.var_name);
    std::string decl = "buffer %" + name + " " + scalar_info(ty).name + "[" + dims + "]";
    if (e->builtin_fill) {
      if (e->args[0]->kind != tir::ExprKind::Literal)
        fail("it fills the tensor `" + s.var_name + "` with a value that is not a constant");
      decl += " fill " + value_text(ty, literal_bits(*e->args[0]));
    }
    line(decl);
    buffers_[s.slot] = "%" + name;
  }

  void store(const std::string& buf, const std::string& offset, const Val& v) {
    std::string name = temp();
    line("%" + name + " = store " + buf + " " + offset + " " + v.text);
    last_ = "%" + name;
    last_bound_ = false;
  }

  void assign(const tir::Stmt& s) {
    const tir::Expr& target = *s.target;
    std::string buf, off;
    Scalar ty;
    if (target.kind == tir::ExprKind::Var) {
      auto it = cells_.find(target.slot);
      if (it == cells_.end()) fail("it assigns `" + target.text + "`, declared outside the region");
      buf = it->second;
      off = "0";
      ty = fn_.slot_types[target.slot].scalar;
    } else if (target.kind == tir::ExprKind::Index) {
      ty = scalar_of(target.type, "an element");
      buf = tensor_of(*target.args[0]);
      off = offset(target);
    } else {
      fail("it assigns something other than a variable or a tensor element");
    }
    Val v = expr(*s.value);
    if (s.compound) {
      const char* w = op_word(s.op);
      if (!w) fail(std::string("it uses the operator `") + tir::binop_spelling(s.op) + "=`");
      std::string old = def(temp(), "load " + buf + " " + off);
      v = {def(temp(), std::string(w) + " " + old + " " + v.text), ty};
    }
    store(buf, off, v);
  }

  // An integer known before the region runs: a constant, or (with values) arithmetic on
  // variables captured from outside the region, such as a range's bound `(n + 255) / 256`.
  std::optional<int64_t> static_int(const tir::Expr& e) {
    if (!e.type.is_scalar() || !is_int(e.type.scalar)) return std::nullopt;
    switch (e.kind) {
      case tir::ExprKind::Match:  // lowered before this step
      case tir::ExprKind::Field:
        tir::unlowered();
      case tir::ExprKind::Literal:
        return e.lit.i;
      case tir::ExprKind::Var:
        if (!values_ || scalars_.count(e.slot) || cells_.count(e.slot)) return std::nullopt;
        if (auto v = (*values_)(e.slot); v && v->bits.size() == 1)
          return static_cast<int64_t>(v->bits[0]);
        return std::nullopt;
      case tir::ExprKind::Cast:
        return static_int(*e.args[0]);
      case tir::ExprKind::Builtin:
        return static_size(e);
      case tir::ExprKind::Binary: {
        auto a = static_int(*e.args[0]), b = static_int(*e.args[1]);
        if (!a || !b) return std::nullopt;
        int64_t r = 0;
        switch (e.bop) {
          case tir::BinOp::Add:
            if (__builtin_add_overflow(*a, *b, &r)) return std::nullopt;
            return r;
          case tir::BinOp::Sub:
            if (__builtin_sub_overflow(*a, *b, &r)) return std::nullopt;
            return r;
          case tir::BinOp::Mul:
            if (__builtin_mul_overflow(*a, *b, &r)) return std::nullopt;
            return r;
          case tir::BinOp::Div:
            if (*b == 0 || *b == -1) return std::nullopt;
            return *a / *b;
          case tir::BinOp::Rem:
            if (*b == 0 || *b == -1) return std::nullopt;
            return *a % *b;
          default:
            return std::nullopt;
        }
      }
      case tir::ExprKind::Unit:
      case tir::ExprKind::String:
      case tir::ExprKind::Unary:
      case tir::ExprKind::Index:
      case tir::ExprKind::View:
      case tir::ExprKind::Ref:
      case tir::ExprKind::Call:
      case tir::ExprKind::TensorNew:
      case tir::ExprKind::Transfer:
      case tir::ExprKind::If:
      case tir::ExprKind::BlockExpr:
      case tir::ExprKind::Print:
      case tir::ExprKind::Assert:
      case tir::ExprKind::ArrayLit:
        return std::nullopt;
    }
    internal_error("unknown expression kind");
  }

  // `t.len()` / `t.dim(k)`: a fixed dimension, or (with values) a `?` one of a tensor captured
  // from outside the region, whose shape is known when the region starts (spec/types.md §3.1).
  std::optional<int64_t> static_size(const tir::Expr& e) {
    const int64_t dim = tir::queried_dim(e);
    if (dim < 0) return std::nullopt;
    const tir::Expr& t = *e.args[0];
    if (!t.type.is_tensor_like()) return std::nullopt;
    const size_t k = static_cast<size_t>(dim);
    if (k >= t.type.dims.size()) return std::nullopt;
    if (t.type.dims[k] != kUnknownDim) return t.type.dims[k];
    if (!values_ || t.kind != tir::ExprKind::Var) return std::nullopt;
    if (auto v = (*values_)(t.slot); v && k < v->dims.size()) return v->dims[k];
    return std::nullopt;
  }

  int64_t bound(const tir::Stmt& s, const tir::Expr& e) {
    if (auto v = static_int(e)) return *v;
    fail("the loop `" + s.var_name + "` has a bound that is not known before the region runs");
  }

  void loop(const tir::Stmt& s) {
    if (!s.adapters.empty())
      fail("the loop `" + s.var_name + "` runs over a range with `" +
           (s.adapters.front().step ? std::string(".step_by()") : std::string(".rev()")) +
           "`, and a .uir range counts up by one");
    // In 128 bits: the bounds of an i64 loop are any i64s.
    const int64_t a = bound(s, *s.start);
    const __int128 passes = static_cast<__int128>(bound(s, *s.end)) + (s.inclusive ? 1 : 0) - a;
    if (passes > 2147483647)  // spec/uir.md: a range holds at most 2^31 - 1 iterations
      fail("the loop `" + s.var_name + "` has more passes than a .uir range holds (2^31 - 1)");
    const int64_t count = std::max<int64_t>(0, static_cast<int64_t>(passes));
    Scalar ty = scalar_of(fn_.slot_types[s.slot], "the loop variable `" + s.var_name + "`");
    std::string name = fresh(s.var_name);
    std::string axis = s.across == tir::Across::Blocks ? " axis=global" : "";
    int64_t saved_threads = threads_;
    if (s.across == tir::Across::Lanes) {
      // A local bound is the block size (at most the threads a block of the machine check_uir
      // uses has); a lane loop with more passes than that runs them as a plain loop of the
      // block's code, which the block loop checks.
      if (count >= 1 && threads_ * count <= block_threads_) {
        axis = " axis=local";
        threads_ *= count;
      } else {
        line("# `" + s.var_name + "`: " + std::to_string(count) + " passes, more than a block's " +
             std::to_string(block_threads_) + " threads: a plain loop");
      }
    }
    std::string range = def(name, "range " + std::to_string(count) + axis);
    ++depth_;
    std::string v = range;
    if (ty != Scalar::I32) v = def(temp(), std::string("cast ") + v + " " + scalar_info(ty).name);
    if (a != 0) v = def(temp(), "add " + v + " " + std::to_string(a));
    scalars_[s.slot] = v;
    last_ = range;
    last_bound_ = true;
    block(s.body);
    std::string body_last = last_;
    --depth_;
    threads_ = saved_threads;
    def(temp(), "end " + body_last + " " + range);
  }

  // ---- expressions
  std::string tensor_of(const tir::Expr& e) {
    if (e.kind != tir::ExprKind::Var) fail("it indexes a sub-tensor view");
    if (e.type.is_array()) fail("it uses the array `" + e.text + "`, and .uir has no arrays");
    if (auto it = buffers_.find(e.slot); it != buffers_.end()) return it->second;
    return captured_tensor(e.slot);
  }

  // The row-major offset of an Index expression, in i64.
  std::string offset(const tir::Expr& e) {
    const tir::Expr& t = *e.args[0];
    auto known = dims_.find(t.slot);
    const std::vector<int64_t>& dims = known != dims_.end() ? known->second : t.type.dims;
    Val off;
    for (size_t k = 1; k < e.args.size(); ++k) {
      Val i = expr(*e.args[k]);
      if (!i.literal && i.type != Scalar::I64) i.text = def(temp(), "cast " + i.text + " i64");
      i.type = Scalar::I64;
      if (k == 1) {
        off = i;
        continue;
      }
      if (dims[k - 1] <= 0) fail("it indexes a tensor whose shape is not known statically");
      off = node(off);
      off.text = def(temp(), "mul " + off.text + " " + std::to_string(dims[k - 1]));
      off.text = def(temp(), "add " + off.text + " " + i.text);
    }
    return off.text;
  }

  Val literal(const tir::Expr& e) {
    Scalar s = scalar_of(e.type, "a literal");
    return {value_text(s, literal_bits(e)), s, true};
  }

  // A literal where .uir needs a node: both operands of an instruction literals.
  Val node(Val v) {
    if (!v.literal) return v;
    return {def(temp(), "const " + v.text + " " + scalar_info(v.type).name), v.type, false};
  }

  Val expr(const tir::Expr& e) {
    switch (e.kind) {
      case tir::ExprKind::Match:  // lowered before this step
      case tir::ExprKind::Field:
        tir::unlowered();
      case tir::ExprKind::Literal:
        return literal(e);
      case tir::ExprKind::Var: {
        if (auto it = scalars_.find(e.slot); it != scalars_.end())
          return {it->second, fn_.slot_types[e.slot].scalar, false};
        if (auto it = cells_.find(e.slot); it != cells_.end())
          return {def(temp(), "load " + it->second + " 0"), fn_.slot_types[e.slot].scalar, false};
        if (e.type.is_tensor_like()) fail("it uses the whole tensor `" + e.text + "`");
        if (e.type.is_array()) fail("it uses the array `" + e.text + "`, and .uir has no arrays");
        return captured_scalar(e.slot);
      }
      case tir::ExprKind::Unary: {
        if (e.uop != tir::UnOp::Neg) fail("it uses the operator `!`");
        Val a = node(expr(*e.args[0]));
        return {def(temp(), "neg " + a.text), a.type, false};
      }
      case tir::ExprKind::Binary: {
        const char* w = op_word(e.bop);
        if (!w) fail(std::string("it uses the operator `") + tir::binop_spelling(e.bop) + "`");
        Val a = expr(*e.args[0]);
        Val b = expr(*e.args[1]);
        if (a.literal && b.literal) a = node(a);
        Scalar ty = scalar_of(e.type, "an operation");
        return {def(temp(), std::string(w) + " " + a.text + " " + b.text), ty, false};
      }
      case tir::ExprKind::Cast: {
        Scalar to = scalar_of(e.type, "a cast");
        Val a = node(expr(*e.args[0]));
        scalar_of(Type::of(a.type), "a cast's operand");
        return {def(temp(), "cast " + a.text + " " + scalar_info(to).name), to, false};
      }
      case tir::ExprKind::Index: {
        Scalar ty = scalar_of(e.type, "an element");
        std::string buf = tensor_of(*e.args[0]);
        std::string off = offset(e);
        return {def(temp(), "load " + buf + " " + off), ty, false};
      }
      case tir::ExprKind::BlockExpr:
        if (e.from_match) fail(kNoMatch);
        if (e.block->tail && e.block->stmts.empty()) return expr(*e.block->tail);
        for (const tir::Stmt* s :
             e.block->stmts) {  // a `loop` with a value (check/check_loops.cpp)
          if (s->kind == tir::StmtKind::Loop)
            fail("it uses `loop`, and .uir has no control flow but ranges");
          // a call that copies a `&mut` struct back (check/check_struct_ref.cpp)
          if (s->value && s->value->kind == tir::ExprKind::Call)
            fail("it calls the function `" + p_.functions[s->value->fn_index].name + "`");
        }
        fail("it uses a block as a value");
      case tir::ExprKind::Builtin:
        fail(std::string("it calls `") + tir::builtin_spelling(e.builtin) +
             "`, which .uir has no instruction for");
      case tir::ExprKind::Call:
        fail("it calls the function `" + p_.functions[e.fn_index].name + "`");
      case tir::ExprKind::If:
        fail("it uses `if`, and .uir has no control flow but ranges");
      case tir::ExprKind::Print:
        fail("it prints");
      case tir::ExprKind::Assert:
        fail("it uses `assert!`");
      case tir::ExprKind::ArrayLit:
        fail("it makes an array, and .uir has no arrays");
      case tir::ExprKind::Unit:
      case tir::ExprKind::String:
      case tir::ExprKind::View:
      case tir::ExprKind::Ref:
      case tir::ExprKind::TensorNew:
      case tir::ExprKind::Transfer:
        fail("it uses an expression .uir cannot say (a reference, a view or a tensor)");
    }
    internal_error("unknown expression kind");
  }

  const tir::Program& p_;
  const tir::Function& fn_;
  const CaptureSource* values_;
  LoweredRegion& r_;
  std::ostringstream head_;
  std::string body_;
  size_t last_def_at_ = 0;  // where the last `%name = …` line's name starts in body_
  std::set<std::string> used_;
  std::set<int> assigned_;
  std::map<int, std::string> scalars_, cells_, buffers_;
  std::map<int, std::vector<int64_t>> dims_;  // the shapes of captured tensors
  std::string last_;
  bool last_bound_ = false;  // `last_` is a variable's value already: rename_last leaves it
  int temps_ = 0;
  int depth_ = 0;
  int64_t threads_ = 1;  // the product of the local ranges open here
  const int64_t block_threads_ = default_machine().lanes_per_block;
};

void find_spawns(const tir::Block* b, std::vector<const tir::Stmt*>& out);
void find_spawns_expr(const tir::Expr* e, std::vector<const tir::Stmt*>& out) {
  if (!e) return;
  find_spawns(e->block, out);
  find_spawns(e->else_block, out);
  for (const tir::Expr* a : e->args) find_spawns_expr(a, out);
}
void find_spawns(const tir::Block* b, std::vector<const tir::Stmt*>& out) {
  if (!b) return;
  for (const tir::Stmt* s : b->stmts) {
    if (s->kind == tir::StmtKind::Spawn) {
      out.push_back(s);
      continue;
    }
    find_spawns(s->body, out);
    find_spawns_expr(s->value, out);
  }
  find_spawns_expr(b->tail, out);
}

}  // namespace

LoweredRegion lower_region(const tir::Program& program, const tir::Function& fn,
                           const tir::Stmt& spawn, const CaptureSource* values) {
  LoweredRegion r;
  r.spawn = &spawn;
  LineCol lc = program.file->line_col(spawn.span.begin);
  r.location = program.file->path() + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.col);
  try {
    Lowerer(program, fn, values, r).lower(spawn);
    r.ok = true;
  } catch (const Unlowerable& u) {
    r.ok = false;
    r.text.clear();
    r.buffers.clear();
    r.reason = u.reason;
  }
  return r;
}

std::vector<std::pair<const tir::Function*, const tir::Stmt*>> program_regions(
    const tir::Program& program) {
  std::vector<std::pair<const tir::Function*, const tir::Stmt*>> out;
  for (const tir::Function& f : program.functions) {
    std::vector<const tir::Stmt*> spawns;
    find_spawns(f.body, spawns);
    for (const tir::Stmt* s : spawns) out.emplace_back(&f, s);
  }
  return out;
}

std::vector<LoweredRegion> lower_program(const tir::Program& program) {
  std::vector<LoweredRegion> out;
  for (auto [f, s] : program_regions(program)) out.push_back(lower_region(program, *f, *s));
  return out;
}

void print_lowered(std::ostream& out, const LoweredRegion& r) {
  if (r.ok)
    out << r.text << "\n";
  else
    out << "# " << r.location << ": not lowered: " << r.reason << "\n\n";
}

}  // namespace vx::uir
