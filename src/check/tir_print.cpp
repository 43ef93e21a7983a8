#include "check/tir_print.hpp"

#include <charconv>
#include <sstream>
#include <string>

namespace vx::tir {
namespace {

std::string shortest(double d, Scalar s) {
  char buf[64];
  auto r = s == Scalar::F64 ? std::to_chars(buf, buf + sizeof buf, d)
                            : std::to_chars(buf, buf + sizeof buf, static_cast<float>(d));
  std::string text(buf, r.ptr);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";  // 2 → 2.0 (not inf, nan)
  return text;
}

class Printer {
 public:
  Printer(std::ostream& out, const Program& program, const Marks* marks)
      : out_(out), program_(program), marks_(marks) {}

  void function(const Function& f) {
    fn_ = &f;
    out_ << "fn " << f.name << "(";
    for (size_t i = 0; i < f.param_slots.size(); ++i)
      out_ << (i ? ", " : "") << local(f.param_slots[i]) << ": "
           << type_name(f.slot_types[static_cast<size_t>(f.param_slots[i])]);
    // A tuple's value is returned in locals (ret_slots, before the write-backs): the header names
    // the type the source declares and the comment those locals.
    const size_t backs = f.write_back_from.size();
    const std::vector<int> value(f.ret_slots.begin(), f.ret_slots.end() - static_cast<long>(backs));
    const auto tuple = value.empty() ? f.aggregates.end() : f.aggregates.find(value.front());
    out_ << ") -> " << type_name(tuple == f.aggregates.end() ? f.ret : tuple->second.type)
         << " {  // " << where(f.span) << ", " << f.slot_count() << " slots";
    if (tuple != f.aggregates.end()) out_ << ", returned in (" << locals(value) << ")";
    // The `&mut` struct parameters' fields, which go back to the caller through return slots.
    if (backs > 0) {
      const std::vector<int> to(f.ret_slots.end() - static_cast<long>(backs), f.ret_slots.end());
      out_ << ", on return (" << locals(f.write_back_from) << ") -> (" << locals(to) << ")";
    }
    out_ << "\n";
    block_body(f.body, 1);
    out_ << "}\n";
  }

 private:
  std::ostream& out_;
  const Program& program_;
  const Marks* marks_;
  const Function* fn_ = nullptr;
  int depth_ = 0;  // the statement being printed

  std::string where(Span s) const {
    if (!program_.file) return "?";
    const LineCol lc = program_.file->line_col(s.begin);
    return std::to_string(lc.line) + ":" + std::to_string(lc.col);
  }
  std::string local(int slot) const {
    const auto i = static_cast<size_t>(slot);
    const std::string name = slot >= 0 && i < fn_->slot_names.size() ? fn_->slot_names[i] : "";
    return (name.empty() ? "_" : name) + "%" + std::to_string(slot);
  }
  static std::string indent(int depth) { return std::string(static_cast<size_t>(depth) * 4, ' '); }

  void block_body(const Block* b, int depth) {
    if (!b) return;
    for (size_t i = 0; i < b->stmts.size(); ++i) {
      marks_at(b, i, depth);
      stmt(*b->stmts[i], depth);
    }
    marks_at(b, b->stmts.size(), depth);
    if (!b->tail) return;
    const int saved = depth_;  // the blocks inside the tail indent from its own depth
    depth_ = depth;
    out_ << indent(depth) << expr(*b->tail) << "\n";
    depth_ = saved;
  }
  void marks_at(const Block* b, size_t position, int depth) {
    const std::vector<Mark>* at = marks_ ? marks_->at(b, position) : nullptr;
    if (!at) return;
    for (const Mark& m : *at) {
      if (m.kind == MarkKind::Checkpoint)
        out_ << indent(depth) << "// offload mark: checkpoint after the region at " << where(m.span)
             << "\n";
      else
        out_ << indent(depth) << "// offload mark: sync (the GPU's results copied back)\n";
    }
  }
  void braced(const Block* b, int depth, const std::string& comment = "") {
    out_ << " {" << (comment.empty() ? "" : "  // " + comment) << "\n";
    block_body(b, depth + 1);
    out_ << indent(depth) << "}";
  }
  std::string braced_text(const Block* b, int depth) {
    std::ostringstream text;
    Printer inner(text, program_, marks_);
    inner.fn_ = fn_;
    inner.braced(b, depth);
    return text.str();
  }

  void stmt(const Stmt& s, int depth) {
    struct Depth {  // blocks inside this statement's expressions indent from here
      int& d;
      int saved;
      ~Depth() { d = saved; }
    } keep{depth_, depth_};
    depth_ = depth;
    out_ << indent(depth);
    switch (s.kind) {
      case StmtKind::Let:
        out_ << "let " << local(s.slot) << ": "
             << type_name(fn_->slot_types[static_cast<size_t>(s.slot)]);
        if (s.value) out_ << " = " << expr(*s.value);
        out_ << ";\n";
        return;
      case StmtKind::Assign:
        out_ << expr(*s.target) << " " << (s.compound ? binop_spelling(s.op) : "") << "= "
             << expr(*s.value) << ";\n";
        return;
      case StmtKind::Expr:
        out_ << expr(*s.value) << ";\n";
        return;
      case StmtKind::While:
        out_ << "while " << expr(*s.value);
        braced(s.body, depth);
        out_ << "\n";
        return;
      case StmtKind::Loop:
        out_ << "loop";
        braced(s.body, depth);
        out_ << "\n";
        return;
      case StmtKind::For:
        out_ << "for " << local(s.slot) << " in ";
        if (!s.adapters.empty()) out_ << "(";
        out_ << expr(*s.start) << (s.inclusive ? "..=" : "..") << expr(*s.end);
        if (!s.adapters.empty()) out_ << ")";
        for (const tir::RangeAdapter& a : s.adapters)
          out_ << (a.step ? ".step_by(" + expr(*a.step) + ")" : std::string(".rev()"));
        if (s.across == Across::Blocks) out_ << " across blocks";
        if (s.across == Across::Lanes)
          out_ << " across lanes"
               << (s.lanes_written ? "(" + std::to_string(s.lane_count) + ")" : "");
        braced(s.body, depth, where(s.span));
        out_ << "\n";
        return;
      case StmtKind::Spawn:
        out_ << "spawn on(Topology::Device)";
        braced(s.body, depth, "region at " + where(s.span));
        out_ << "\n";
        return;
      case StmtKind::Return:
        out_ << "return" << (s.value ? " " + expr(*s.value) : "") << ";\n";
        return;
      case StmtKind::Break:
        out_ << "break;\n";
        return;
      case StmtKind::Continue:
        out_ << "continue;\n";
        return;
    }
  }

  std::string typed(const std::string& text, const Type& t) const {
    return "(" + text + " : " + type_name(t) + ")";
  }
  std::string args(const std::vector<Expr*>& list, size_t from = 0) {
    std::string text;
    for (size_t i = from; i < list.size(); ++i) text += (i > from ? ", " : "") + expr(*list[i]);
    return text;
  }

  // `match _match%4, y%1 { 0i32 | 2i32..=5i32 => { … } … }`, the scrutinee's setup before it
  // (`match { let _match%4: … } _match%4 { … }`); a name in a pattern is `_` (it binds the
  // scrutinee's own locals).
  std::string match(const Match& m) {
    std::string text = "match ";
    if (m.setup && !m.setup->stmts.empty()) text += braced_text(m.setup, depth_).substr(1) + " ";
    for (size_t i = 0; i < m.slots.size(); ++i) text += (i ? ", " : "") + local(m.slots[i]);
    text += " {\n";
    for (size_t k = 0; k < m.arms.size(); ++k) {
      const MatchArm& arm = m.arms[k];
      text += indent(depth_ + 1) + pattern(arm.pattern);
      if (arm.guard) text += " if " + expr(*arm.guard);
      text += " =>" + braced_text(arm.body, depth_ + 1);
      if (k == m.last && k + 1 < m.arms.size())
        text += "  // completes the cover: the arms below are never taken";
      text += "\n";
    }
    return text + indent(depth_) + "}";
  }
  std::string pattern(const Pattern& p) {
    std::string text;
    switch (p.kind) {
      case Pattern::Kind::Any:
        return "_";
      case Pattern::Kind::Value: {
        Expr value;
        value.kind = ExprKind::Literal;
        value.type = p.var->type;
        value.lit.i = static_cast<int64_t>(static_cast<uint64_t>(p.lo));
        text = expr(value);
        if (p.hi == p.lo) return text;
        value.lit.i = static_cast<int64_t>(static_cast<uint64_t>(p.hi));
        return text + "..=" + expr(value);
      }
      case Pattern::Kind::Tuple:
        for (size_t i = 0; i < p.subs.size(); ++i) text += (i ? ", " : "") + pattern(p.subs[i]);
        return "(" + text + (p.subs.size() == 1 ? ",)" : ")");
      case Pattern::Kind::Or:
        for (size_t i = 0; i < p.subs.size(); ++i) text += (i ? " | " : "") + pattern(p.subs[i]);
        return text;
    }
    return "?";
  }

  // An expression, and the locals its tuple value goes to (Expr::into_slots), as a call's.
  std::string expr(const Expr& e) { return value(e) + into(e.into_slots, e.declares); }
  // ` -> (a%1, b%2)`: the locals a tuple's scalars are written into (` -> let (…)`: declared
  // there, `_` for a scalar run for its effects only); nothing for none.
  std::string into(const std::vector<int>& slots, bool declares = false) const {
    std::string text;
    for (size_t k = 0; k < slots.size(); ++k)
      text += (k          ? ", "
               : declares ? " -> let ("
                          : " -> (") +
              (slots[k] < 0 ? "_" : local(slots[k])) + (k + 1 == slots.size() ? ")" : "");
    return text;
  }
  // `p.x%1, p.n%2`
  std::string locals(const std::vector<int>& slots) const {
    std::string text;
    for (size_t k = 0; k < slots.size(); ++k) text += (k ? ", " : "") + local(slots[k]);
    return text;
  }
  // ` back (p.x%1, p.n%2)`: the locals a call copies its `&mut` structs' fields back to.
  std::string back(const std::vector<int>& slots) const {
    return slots.empty() ? "" : " back (" + locals(slots) + ")";
  }
  std::string value(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Literal:
        if (e.type.is_scalar(Scalar::Bool)) return e.lit.i ? "true" : "false";
        if (e.type.is_scalar(Scalar::Char)) {
          fmt::Spec debug;
          debug.kind = '?';
          return fmt::format_char(static_cast<uint32_t>(e.lit.i), debug);
        }
        if (e.type.is_scalar() && is_float(e.type.scalar))
          return shortest(e.lit.f, e.type.scalar) + scalar_info(e.type.scalar).name;
        if (e.type.is_scalar() && !is_signed_int(e.type.scalar))
          return std::to_string(static_cast<uint64_t>(e.lit.i)) + scalar_info(e.type.scalar).name;
        return std::to_string(e.lit.i) +
               (e.type.is_scalar() ? scalar_info(e.type.scalar).name : "");
      case ExprKind::Unit:
        return "()";
      case ExprKind::String: {
        std::string text = "\"";
        for (char c : e.text)
          text += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
        return text + "\"";
      }
      case ExprKind::Var:
        return local(e.slot);
      case ExprKind::Unary:
        return typed(std::string(e.uop == UnOp::Neg ? "-" : "!") + expr(*e.args[0]), e.type);
      case ExprKind::Binary:
        return typed(expr(*e.args[0]) + " " + binop_spelling(e.bop) + " " + expr(*e.args[1]),
                     e.type);
      case ExprKind::Cast:
        return "(" + expr(*e.args[0]) + " as " + type_name(e.type) + ")";
      case ExprKind::Index:
      case ExprKind::View: {
        std::string text = expr(*e.args[0]);
        for (size_t i = 1; i < e.args.size(); ++i) text += "[" + expr(*e.args[i]) + "]";
        return typed(text, e.type);
      }
      case ExprKind::Ref:
        return typed(std::string(e.type.ref_mut ? "&mut " : "&") + expr(*e.args[0]), e.type);
      case ExprKind::Call: {
        return typed(program_.functions[static_cast<size_t>(e.fn_index)].name + "(" + args(e.args) +
                         ")" + back(e.back_slots) + into(e.out_slots),
                     e.type);
      }
      case ExprKind::Builtin: {
        const BuiltinKind k = builtin_kind(e.builtin);
        if ((k == BuiltinKind::Method || k == BuiltinKind::Query) && !e.args.empty())
          return typed(
              expr(*e.args[0]) + "." + builtin_spelling(e.builtin) + "(" + args(e.args, 1) + ")",
              e.type);
        return typed(std::string(builtin_spelling(e.builtin)) + "(" + args(e.args) + ")", e.type);
      }
      case ExprKind::TensorNew:
        if (e.args.size() > 1)
          return type_name(e.type) + "::fill_dims([" + args(e.args, 1) + "], " + expr(*e.args[0]) +
                 ")";
        return type_name(e.type) + (e.builtin_fill ? "::fill(" + args(e.args) + ")" : "::uninit()");
      case ExprKind::Transfer:
        return typed(
            "transfer(" + expr(*e.args[0]) + ", Memory::" + memory_name(e.type.memory) + ")",
            e.type);
      case ExprKind::If: {
        std::string text = "if " + expr(*e.args[0]) + braced_text(e.block, depth_);
        if (e.else_block) text += " else" + braced_text(e.else_block, depth_);
        return typed(text, e.type);
      }
      case ExprKind::BlockExpr: {
        std::string text = braced_text(e.block, depth_).substr(1);
        if (e.type.is_tuple() && !e.block->tail) {       // a flat tuple (check/flat_tuples.hpp)
          const bool prelude = !e.block->stmts.empty();  // the scalars on a line of the block
          depth_ += prelude;
          const std::string tuple = "(" + args(e.args) + (e.args.size() == 1 ? ",)" : ")");
          depth_ -= prelude;
          if (!prelude) return typed(tuple, e.type);
          text.insert(text.rfind('\n') + 1, indent(depth_ + 1) + tuple + "\n");
        }
        return typed(text, e.type);
      }
      case ExprKind::Match:
        return typed(match(*e.match), e.type);
      case ExprKind::Field:  // `.N`: the N-th scalar of the flat tuple, counted from 0
        return typed(expr(*e.args[0]) + "." + std::to_string(e.field), e.type);
      case ExprKind::ArrayLit:
        if (e.args.size() == 1 && e.type.dims[0] > 1)
          return typed("[" + expr(*e.args[0]) + "; " + std::to_string(e.type.dims[0]) + "]",
                       e.type);
        return typed("[" + args(e.args) + "]", e.type);
      case ExprKind::Print:
      case ExprKind::Assert: {
        std::string text = e.kind == ExprKind::Assert
                               ? (e.is_assert_eq ? "assert_eq!(" : "assert!(")
                               : (e.newline ? "println!(" : "print!(");
        size_t first_format_arg = 0;
        if (e.kind == ExprKind::Assert) {
          text += expr(*e.args[0]);
          if (e.is_assert_eq && e.args.size() > 1) text += ", " + expr(*e.args[1]);
          first_format_arg = e.is_assert_eq ? 2 : 1;
          if (e.format.empty()) return text + ")";
          text += ", ";
        }
        std::string format = "\"";
        for (const FormatPiece& p : e.format) {
          for (char c : p.literal)
            format += c == '\n'  ? std::string("\\n")
                      : c == '"' ? std::string("\\\"")
                                 : std::string(1, c);
          if (p.arg >= 0)  // a tuple the lowering has not taken apart: `{:?}`, `{:#?}`
            format += !e.args[static_cast<size_t>(p.arg)]->type.is_tuple() ? "{}"
                      : p.spec.alternate                                   ? "{:#?}"
                                                                           : "{:?}";
        }
        text += format + "\"";
        for (const FormatPiece& p : e.format)
          if (p.arg >= 0 && static_cast<size_t>(p.arg) >= first_format_arg)
            text += ", " + expr(*e.args[static_cast<size_t>(p.arg)]);
        return text + ")";
      }
    }
    return "?";
  }
};

}  // namespace

void print_program(std::ostream& out, const Program& program, const Marks* marks) {
  Printer p(out, program, marks);
  for (size_t i = 0; i < program.functions.size(); ++i) {
    if (i) out << "\n";
    p.function(program.functions[i]);
  }
}

}  // namespace vx::tir
