// `vx parse --dump=ast`: the AST, one node a line, indented by depth, with line:col.
#include <boost/variant/apply_visitor.hpp>
#include <ostream>

#include "parse/parser.hpp"

namespace vx {

namespace {

class Dumper {
 public:
  Dumper(std::ostream& out, const ParsedProgram& p, const SourceFile& f)
      : out_(out), parsed_(p), file_(f) {}

  void line(const ast::position_tagged& n, const std::string& text) {
    out_ << std::string(depth_ * 2, ' ') << text;
    Span s = parsed_.span(n);
    if (!(s.begin == 0 && s.end == 0)) {
      LineCol lc = file_.line_col(s.begin);
      out_ << "  @" << lc.line << ":" << lc.col;
    }
    out_ << "\n";
  }
  struct Indent {
    Dumper& d;
    explicit Indent(Dumper& x) : d(x) { ++d.depth_; }
    ~Indent() { --d.depth_; }
  };

  static std::string path(const ast::Path& p) {
    std::string s;
    for (size_t i = 0; i < p.segments.size(); ++i) s += (i ? "::" : "") + p.segments[i].name;
    return s;
  }

  void type(const ast::Type& t) {
    ast::visit(
        t, [&](const ast::NamedType& n) { line(n, "Type " + n.name); },
        [&](const ast::TensorType& tt) {
          std::string dims;
          for (size_t i = 0; i < tt.dims.size(); ++i) dims += (i ? ", " : "") + tt.dims[i].text;
          line(tt, "TensorType [" + dims + "]" + (tt.memory ? " " + path(*tt.memory) : ""));
          Indent in(*this);
          type(tt.elem.get());
        },
        [&](const ast::RefType& r) {
          std::string text = "RefType &";
          if (r.lifetime) text += "'" + r.lifetime->name + (r.is_mut ? " " : "");
          line(r, text + (r.is_mut ? "mut" : ""));
          Indent in(*this);
          type(r.inner.get());
        },
        [&](const ast::ArrayType& a) {
          line(a, "ArrayType ; " + a.len.text);
          Indent in(*this);
          type(a.elem.get());
        },
        [&](const ast::TupleType& tu) {
          line(tu, "TupleType");
          Indent in(*this);
          for (const ast::Type& e : tu.elems) type(e);
        });
  }

  static std::string pattern(const ast::TuplePat& t) {
    std::string s = "(";
    for (size_t i = 0; i < t.elems.size(); ++i) {
      s += i ? ", " : "";
      s += ast::visit(
          t.elems[i], [](const ast::BindPat& b) { return (b.is_mut ? "mut " : "") + b.name.name; },
          [](const ast::x3::forward_ast<ast::TuplePat>& tp) { return pattern(tp.get()); });
    }
    return s + (t.elems.size() == 1 ? ",)" : ")");
  }

  void exprs(const std::vector<ast::Expr>& es) {
    for (const auto& e : es) expr(e);
  }

  void expr(const ast::Expr& e) {
    if (e.rest.empty()) return cast(e.first);
    line(e, "BinaryChain");
    Indent in(*this);
    cast(e.first);
    for (const auto& r : e.rest) {
      line(r, "op " + r.op);
      cast(r.operand);
    }
  }

  void cast(const ast::Cast& c) {
    if (c.types.empty()) return unary(c.operand);
    line(c, "Cast");
    Indent in(*this);
    unary(c.operand);
    for (const auto& t : c.types) type(t);
  }

  void unary(const ast::Unary& u) {
    if (u.ops.empty()) return postfix(u.operand);
    std::string ops;
    for (const auto& o : u.ops) ops += (ops.empty() ? "" : " ") + o;
    line(u, "Unary " + ops);
    Indent in(*this);
    postfix(u.operand);
  }

  void postfix(const ast::Postfix& p) {
    if (p.suffixes.empty()) return primary(p.base);
    line(p, "Postfix");
    Indent in(*this);
    primary(p.base);
    for (const auto& s : p.suffixes) {
      ast::visit(
          s,
          [&](const ast::IndexSuffix& ix) {
            line(ix, "Index");
            Indent in2(*this);
            expr(ix.index.get());
          },
          [&](const ast::MethodSuffix& m) {
            line(m, "MethodCall ." + m.name.name);
            Indent in2(*this);
            exprs(m.args);
          },
          [&](const ast::FieldSuffix& fs) { line(fs, "Field ." + fs.name); });
    }
  }

  void primary(const ast::Primary& p) {
    ast::visit(
        p, [&](const ast::FloatLit& l) { line(l, "FloatLit " + l.text); },
        [&](const ast::IntLit& l) { line(l, "IntLit " + l.text); },
        [&](const ast::BoolLit& l) { line(l, "BoolLit " + l.text); },
        [&](const ast::StringLit& l) {
          std::string esc;
          for (char c : l.value)
            esc += c == '\n' ? std::string("\\n") : c == '"' ? "\\\"" : std::string(1, c);
          line(l, "StringLit \"" + esc + "\"");
        },
        [&](const ast::CharLit& l) {
          line(l, "CharLit '" + (l.value == "\n" ? std::string("\\n") : l.value) + "'");
        },
        [&](const ast::TensorCtor& c) {
          line(c, "TensorCtor ::" + c.method.name);
          Indent in(*this);
          type(ast::Type(c.type));
          exprs(c.args);
        },
        [&](const ast::MacroCall& m) {
          line(m, "MacroCall " + m.name.name + "!");
          Indent in(*this);
          exprs(m.args);
        },
        [&](const ast::PathExpr& pe) {
          if (!pe.call_args) return line(pe, "Path " + path(pe.path));
          line(pe, "Call " + path(pe.path));
          Indent in(*this);
          exprs(*pe.call_args);
        },
        [&](const ast::ArrayLit& a) {
          line(a, a.repeat ? "ArrayRepeat ; " + a.repeat->text : "Array");
          Indent in(*this);
          exprs(a.elems);
        },
        [&](const ast::StructLit& sl) {
          line(sl, "StructLit " + path(sl.name));
          Indent in(*this);
          for (const auto& f : sl.fields) {
            line(f, "FieldInit " + f.name.name);
            Indent in2(*this);
            if (f.value) expr(f.value->get());
          }
        },
        [&](const ast::UnitLit& u) { line(u, "Unit"); },
        [&](const ast::Paren& par) {
          line(par, par.is_tuple() ? "Tuple" : "Paren");
          Indent in(*this);
          expr(par.inner.get());
          exprs(par.rest);
        },
        [&](const ast::UnsafeBlock& ub) {
          line(ub, "Unsafe");
          Indent in(*this);
          block(ub.body.get());
        },
        [&](const ast::LoopExpr& lp) {
          line(lp, lp.label ? "Loop '" + lp.label->name : std::string("Loop"));
          Indent in(*this);
          block(lp.body.get());
        },
        [&](const ast::x3::forward_ast<ast::IfExpr>& ie) { if_expr(ie.get()); },
        [&](const ast::x3::forward_ast<ast::MatchExpr>& me) { match_expr(me.get()); },
        [&](const ast::x3::forward_ast<ast::Block>& b) { block(b.get()); });
  }

  void if_expr(const ast::IfExpr& e) {
    line(e, "If");
    Indent in(*this);
    expr(e.cond);
    block(e.then_block.get());
    for (const auto& ei : e.else_ifs) {
      line(ei, "ElseIf");
      Indent in2(*this);
      expr(ei.cond);
      block(ei.body.get());
    }
    if (e.else_block) {
      out_ << std::string(depth_ * 2, ' ') << "Else\n";
      Indent in2(*this);
      block(e.else_block->get());
    }
  }

  void match_expr(const ast::MatchExpr& e) {
    line(e, "Match");
    Indent in(*this);
    expr(e.scrutinee);
    for (const auto& a : e.arms) {
      line(a, "Arm");
      Indent in2(*this);
      for (const auto& alt : a.alts) line(alt, "Pattern " + pat_alt(alt));
      if (a.guard) {
        out_ << std::string(depth_ * 2, ' ') << "Guard\n";
        Indent in3(*this);
        expr(*a.guard);
      }
      expr(a.body.expr);
      if (a.body.assign) {
        line(*a.body.assign, "Assign " + a.body.assign->op);
        Indent in3(*this);
        expr(a.body.assign->value);
      }
    }
  }
  std::string pat_alt(const ast::PatAlt& alt) {
    std::string text = alt.binding ? alt.binding->name + " @ " : std::string();
    if (alt.tuple) {
      const ast::PatTuple& t = alt.tuple->get();
      text += "(";
      for (size_t i = 0; i < t.elems.size(); ++i) {
        if (i) text += ", ";
        if (t.elems[i].rest) text += "..";
        for (size_t k = 0; k < t.elems[i].alts.size(); ++k)
          text += (k ? " | " : "") + pat_alt(t.elems[i].alts[k]);
      }
      return text + (t.trailing_comma ? ",)" : ")");
    }
    text += pat_value(alt.lo);
    if (alt.range) text += " " + alt.range->op + " " + pat_value(alt.range->hi);
    return text;
  }
  std::string pat_value(const ast::PatValue& v) {
    std::string text = v.negative ? "-" : "";
    return text + ast::visit(
                      v.atom, [](const ast::IntLit& i) { return i.text; },
                      [](const ast::BoolLit& b) { return b.text; },
                      [](const ast::CharLit& c) {
                        return "'" + (c.value == "\n" ? std::string("\\n") : c.value) + "'";
                      },
                      [](const ast::Path& p) { return path(p); });
  }

  void block(const ast::Block& b) {
    line(b, "Block");
    Indent in(*this);
    for (const auto& s : b.stmts) stmt(s);
  }

  void stmt(const ast::Stmt& s) {
    ast::visit(
        s,
        [&](const ast::LetStmt& l) {
          line(l, std::string("Let ") + (l.is_mut ? "mut " : "") + l.name.name);
          Indent in(*this);
          if (l.type) type(*l.type);
          if (l.init) expr(*l.init);
        },
        [&](const ast::LetTupleStmt& l) {
          line(l, "LetTuple " + pattern(l.pat));
          Indent in(*this);
          if (l.type) type(*l.type);
          if (l.init) expr(*l.init);
        },
        [&](const ast::ReturnStmt& r) {
          line(r, "Return");
          Indent in(*this);
          if (r.value) expr(*r.value);
        },
        [&](const ast::BreakStmt& b) {
          line(b, b.label ? "Break '" + b.label->name : std::string("Break"));
          Indent in(*this);
          if (b.value) expr(*b.value);
        },
        [&](const ast::ContinueStmt& c) {
          line(c, c.label ? "Continue '" + c.label->name : std::string("Continue"));
        },
        [&](const ast::WhileStmt& w) {
          line(w, w.label ? "While '" + w.label->name : std::string("While"));
          Indent in(*this);
          expr(w.cond);
          block(w.body.get());
        },
        [&](const ast::ForStmt& f) {
          std::string across;
          if (f.across) {
            across = " across " + f.across->level;
            if (f.across->lane_count) across += "(" + f.across->lane_count->text + ")";
          }
          line(f, (f.label ? "For '" + f.label->name + " " : std::string("For ")) + f.var.name +
                      " " + f.range.range_op + across);
          Indent in(*this);
          expr(f.range.start);
          expr(f.range.end);
          for (const ast::MethodSuffix& m : f.range.adapters) {
            line(m, "RangeAdapter ." + m.name.name);
            Indent in2(*this);
            for (const ast::Expr& a : m.args) expr(a);
          }
          block(f.body.get());
        },
        [&](const ast::SpawnStmt& sp) {
          line(sp, "SpawnOn " + path(sp.topology));
          Indent in(*this);
          block(sp.body.get());
        },
        [&](const ast::ExprStmt& es) {
          if (es.assign) {
            line(es, "Assign " + es.assign->op);
            Indent in(*this);
            expr(es.expr);
            return expr(es.assign->value);
          }
          line(es, es.semicolon ? "ExprStmt" : "TailExpr");
          Indent in(*this);
          expr(es.expr);
        });
  }

  void program(const ast::Program& p) {
    line(p, "Program");
    Indent in(*this);
    for (const auto& item : p.items) {
      ast::visit(
          item,
          [&](const ast::Attribute& a) {
            line(a, std::string(a.inner ? "InnerAttribute #![" : "Attribute #[") + a.text + "]");
          },
          [&](const ast::ImportItem& im) { line(im, "Import " + path(im.path)); },
          [&](const ast::FnItem& f) {
            line(f, std::string(f.is_pub ? "PubFn " : "Fn ") + f.name.name);
            Indent in2(*this);
            for (const auto& prm : f.params) {
              line(prm, std::string(prm.is_mut ? "Param mut " : "Param ") + prm.name.name);
              Indent in3(*this);
              type(prm.type);
            }
            if (f.ret) {
              out_ << std::string(depth_ * 2, ' ') << "Returns\n";
              Indent in3(*this);
              type(*f.ret);
            }
            block(f.body);
          },
          [&](const ast::ConstItem& c) {
            line(c, std::string(c.is_pub ? "PubConst " : "Const ") + c.name.name);
            Indent in2(*this);
            type(c.type);
            expr(c.value);
          },
          [&](const ast::StructItem& st) {
            line(st, std::string(st.is_pub ? "PubStruct " : "Struct ") + st.name.name);
            Indent in2(*this);
            for (const auto& fd : st.fields) {
              line(fd, std::string(fd.is_pub ? "PubField " : "Field ") + fd.name.name);
              Indent in3(*this);
              type(fd.type);
            }
          });
    }
  }

 private:
  std::ostream& out_;
  const ParsedProgram& parsed_;
  const SourceFile& file_;
  int depth_ = 0;
};

}  // namespace

void dump_ast(std::ostream& out, const ParsedProgram& parsed, const SourceFile& file) {
  Dumper(out, parsed, file).program(parsed.program);
}

}  // namespace vx
