// An input of statements: composed into main's body after the session's bindings, run between the
// two markers, and the bindings in scope at "leave" taken back (session.cpp's opening comment).
#include <chrono>
#include <functional>
#include <iomanip>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "check/tir_walk.hpp"
#include "interp/interpreter.hpp"
#include "interp/runtime.hpp"  // with_scalar and scalar_text: the interpreter's values
#include "offload/cuda_driver.hpp"
#include "offload/emit_cuda.hpp"
#include "offload/runner.hpp"
#include "pipeline/params.hpp"
#include "pipeline/pipeline.hpp"
#include "repl/interrupt.hpp"
#include "repl/report.hpp"
#include "repl/session_impl.hpp"
#include "repl/tensor_text.hpp"
#include "repl/uir_session.hpp"
#include "repl/wrapped.hpp"

namespace vx::repl {

namespace {

constexpr const char* kMarker = "spawn on(Topology::Device) { }\n";
constexpr const char* kIt = "__vx_it";  // the binding that holds the value of a final expression

}  // namespace

void Session::Impl::glue_items(Composed& c, const std::set<std::string>& except) const {
  for (size_t k = 0; k < items.size(); ++k) {
    const Item& it = items[k];
    if (!it.name.empty() && except.count(it.name)) continue;
    c.item(it.text, it.from, static_cast<int>(k));
    c.glue("\n");
  }
}

Composed Session::Impl::compose_statements(const std::string& in,
                                           const std::optional<TailSpan>& tail, Tail mode,
                                           bool leave) const {
  Composed c;
  glue_items(c);
  c.glue("fn main() {\n");
  for (const Binding& b : bindings) {
    std::string d =
        std::string("let ") + (b.is_mut ? "mut " : "") + b.name + ": " + type_name(b.type);
    if (b.type.is_scalar(Scalar::Bool))
      d += b.bits ? " = true" : " = false";
    else if (b.type.is_scalar() && is_int(b.type.scalar))
      d += " = " + int_literal(b.type.scalar, b.bits);
    c.decl(d + ";\n", b.name, false);
  }
  int k = 0;  // a moved binding is moved again here, so the checker knows it as moved
  for (const Binding& b : bindings)
    if (b.moved)
      c.decl("let __vx_moved_" + std::to_string(k++) + " = " + b.name + ";\n", b.name, true);
  c.glue(kMarker);
  if (tail && mode != Tail::None) {
    c.input(in, 0, tail->begin);
    if (mode == Tail::Let) {
      c.glue(std::string("let ") + kIt + " = ");
      c.input(in, tail->begin, tail->end);
      c.glue(";");
    }
    c.input(in, tail->end, in.size());
  } else {
    c.input(in, 0, in.size());
  }
  c.glue("\n");
  if (leave) c.glue(kMarker);
  c.glue("}\n");
  return c;
}

std::optional<Session::Impl::TailSpan> Session::Impl::find_tail(const std::string& in,
                                                                const SourceFile& input,
                                                                bool& parsed) {
  // A bracket, string or comment the input leaves open (or a stray closer) would meet the
  // wrapper's own `{` and `}`: the pre-scan of the input alone says it at the input's text.
  {
    Diagnostics alone(std::make_shared<const SourceFile>(input.path(), input.text()));
    if (!prescan(alone.file(), alone)) {
      parsed = false;
      for (Diagnostic d : alone.list()) {
        // Said of the input, without a line and column: the protocol counts lines from its
        // request's first line, not the input's (spec/cli.md §7.7).
        for (std::string& n : d.notes) {
          if (n.rfind("the file ends", 0) != 0) continue;
          n.replace(0, 13, "the input ends");
          if (const size_t at = n.find(" that closes the "); at != std::string::npos)
            n = n.substr(0, at) + " that closes it";
        }
        deliver(err, &input, d);
      }
      err.flush();
      return std::nullopt;
    }
  }
  Attempt a =
      run_pipeline(compose_statements(in, std::nullopt, Tail::None, false), machine, false, true);
  parsed = a.parsed() != nullptr;
  if (!parsed) {
    report_all(a, input);
    return std::nullopt;
  }
  const ast::FnItem* main_fn = nullptr;
  for (const ast::Item& it : a.parsed()->program.items)
    if (const auto* f = boost::get<ast::FnItem>(&it); f && f->name.name == "main") main_fn = f;
  if (!main_fn || main_fn->body.stmts.empty()) return std::nullopt;
  const auto* es = boost::get<ast::ExprStmt>(&main_fn->body.stmts.back());
  if (!es || es->semicolon || es->assign) return std::nullopt;
  Span s;
  if (!a.composed.map(a.parsed()->span(*es), s)) return std::nullopt;
  return TailSpan{s.begin, s.end};
}

bool Session::Impl::refuse_main_calls(const Attempt& a, const SourceFile& input) const {
  const tir::Program& p = *a.program();
  std::optional<Span> call;
  for (const tir::Function& f : p.functions)
    tir::walk_block(f.body, [&](const tir::Stmt*, const tir::Expr* e) {
      if (e && e->kind == tir::ExprKind::Call && e->fn_index == p.main_index && !call)
        call = e->span;
    });
  if (!call) return false;
  Diagnostic d;
  d.code = "E0101";
  d.message = "cannot find function `main`";
  d.span = {call->begin, std::min<uint32_t>(call->begin + 4, call->end)};
  d.label = "not found";
  d.notes.push_back(
      "a `fn main` entered in the REPL runs once, when it is entered: it is not kept");
  if (!last_load.empty()) d.helps.push_back("`:reload` reads `" + last_load + "` again");
  report(err, d, a.composed, input);
  err.flush();
  return true;
}

std::string Session::Impl::runner_mode(const Attempt& a) {
  if (options.offload == "off") return "off";
  if (!device_probed) {
    bool any = false;  // a region of the user's (not a marker)
    std::function<void(const tir::Block*)> find = [&](const tir::Block* b) {
      if (!b) return;
      for (const tir::Stmt* s : b->stmts) {
        if (s->kind == tir::StmtKind::Spawn && !s->body->stmts.empty()) any = true;
        find(s->body);
      }
    };
    for (const auto& f : a.program()->functions) find(f.body);
    if (!any) return "off";
    device_probed = true;
    offload::CudaDriver driver;
    std::string why;
    device_ok = driver.open(why);
    if (!device_ok) err << "no CUDA device\n";
  }
  return device_ok ? options.offload : "off";
}

bool Session::Impl::run(Attempt& a, SessionRunner& runner, const SourceFile& input) {
  pipeline::RunRequest request;
  request.offload.mode = runner_mode(a);
  request.max_steps = options.max_steps;
  request.max_seconds = options.max_seconds;
  request.interrupt = interrupt_flag();
  request.around = [&](offload::OffloadRunner* offload) {
    runner.offload = offload;
    return &runner;
  };
  if (timing || hooks.region_ran)
    runner.on_timed = [&](const tir::Stmt& spawn, bool gpu, double ms) {
      Span s;
      std::string where = "a region";
      const bool mine = a.composed.map(spawn.span, s);
      if (mine) where = "the region at " + location(input, s);
      if (hooks.region_ran) hooks.region_ran(input, mine ? s : Span{}, gpu, ms);
      if (!timing) return;
      std::ostringstream line;
      line << "time: " << where << " ran on the " << (gpu ? "GPU" : "host") << " in " << std::fixed
           << std::setprecision(3) << ms << " ms\n";
      out << line.str();
    };
  bool failed = false;
  request.report_error = [&](std::ostream& o, const Diagnostic& d) {
    failed = true;
    if (is_interrupt(d) && interrupt_requested()) {
      interrupted = true;
      if (hooks.interrupted) hooks.interrupted();
      fresh_line_after_ctrl_c(o);
      report(o, interrupt_report(d), a.composed, input);
    } else {
      report(o, d, a.composed, input);
    }
  };
  const int status = pipeline::run(a.c, request, out, err);
  out.flush();
  return !failed && status == 0;
}

void Session::Impl::remember_region(const Attempt& a, const SourceFile& input) {
  for (const auto& r : offload::emit_regions(*a.program())) {
    Span s;
    if (!r.spawn || r.spawn->body->stmts.empty() || !a.composed.map(r.spawn->span, s)) continue;
    std::string source = r.source;
    if (source.rfind("// <session>", 0) == 0) source.erase(0, source.find('\n') + 1);  // our own
    last_region = "// the region at " + location(input, s) + " (" + r.name + ")\n" +
                  (r.ok ? source : "// not emitted: " + r.reason + "\n");
  }
}

std::vector<int> Session::Impl::binding_of_decl() const {
  std::vector<int> of;
  for (size_t b = 0; b < bindings.size(); ++b)
    of.insert(of.end(), bindings[b].locals(), static_cast<int>(b));
  return of;
}

std::map<std::string, Session::Impl::InScope> Session::Impl::lets_in_scope(
    const Attempt& a, const tir::Function& main_fn, const std::vector<int>& of,
    size_t enter) const {
  std::map<uint32_t, bool> let_mut;  // the input's `let`s (the TIR does not keep `mut`)
  for (const ast::Item& item : a.parsed()->program.items)
    if (const auto* f = boost::get<ast::FnItem>(&item); f && f->name.name == "main")
      for (const ast::Stmt& s : f->body.stmts)
        if (const auto* l = boost::get<ast::LetStmt>(&s))
          let_mut[a.parsed()->span(s).begin] = l->is_mut;
  std::map<std::string, InScope> scope;
  const size_t decls = of.size();
  const auto& stmts = main_fn.body->stmts;
  for (size_t i = 0; i + 1 < stmts.size(); ++i) {
    const tir::Stmt* s = stmts[i];
    if (s->kind != tir::StmtKind::Let || s->slot < 0 || (i >= decls && i < enter)) continue;
    // A tuple or struct is the `let` of its first leaf (`t.0`, `p.x`: check_tuple.cpp); the
    // other leaves, and the checker's temporaries, are no names of their own.
    const auto found = main_fn.aggregates.find(s->slot);
    const tir::Function::Aggregate* aggregate =
        found != main_fn.aggregates.end() ? &found->second : nullptr;
    const size_t dot = s->var_name.find('.');
    if (dot != std::string::npos && !aggregate) continue;
    const std::string name = s->var_name.substr(0, dot);
    if (i < decls)
      scope[name] = {s->slot, of[i], bindings[static_cast<size_t>(of[i])].is_mut, aggregate};
    else
      scope[name] = {s->slot, -1,
                     aggregate ? static_cast<bool>(main_fn.slot_mut[static_cast<size_t>(s->slot)])
                               : let_mut[s->span.begin],
                     aggregate};
  }
  return scope;
}

std::optional<Binding> Session::Impl::take_aggregate(interp::Frame& f, const std::string& name,
                                                     const tir::Function::Aggregate& aggregate,
                                                     bool is_mut, const tir::Function& fn) {
  Binding b{name, aggregate.type, is_mut, 0, nullptr, false, {}};
  for (int slot : aggregate.leaves) {
    const Type& t = fn.slot_types[static_cast<size_t>(slot)];
    Binding leaf{"", t, false, 0, nullptr, false, {}};
    if (t.is_scalar() || t.kind == TypeKind::String) {
      leaf.bits = f.s[slot];
    } else if (t.is_array() && f.t[slot].owned) {
      leaf.tensor = std::move(f.t[slot].owned);
      f.t[slot].clear();
    } else {
      return std::nullopt;
    }
    b.leaves.push_back(std::move(leaf));
  }
  return b;
}

bool Session::Impl::eval_statements(const Input& in, bool type_only) {
  SourceFile input(in.name, in.text);
  bool parsed = false;
  std::optional<TailSpan> tail = find_tail(in.text, input, parsed);
  if (!parsed) return false;
  if (type_only && !tail) {
    err << "error: `:type` needs an expression\n";
    return false;
  }
  Attempt a = run_pipeline(compose_statements(in.text, tail, Tail::Let, true), machine, false);
  if (!a.program()) {
    report_all(a, input);
    return false;
  }
  if (refuse_main_calls(a, input)) return false;
  const tir::Function* main_fn = &a.program()->functions[a.program()->main_index];
  auto it_slot = [&]() -> int {
    int slot = -1;
    for (const tir::Stmt* s : main_fn->body->stmts)
      if (s->kind == tir::StmtKind::Let && s->var_name == kIt) slot = s->slot;
    return slot;
  };
  std::string tail_text = tail ? in.text.substr(tail->begin, tail->end - tail->begin) : "";
  if (type_only) {
    const int slot = it_slot();
    if (slot < 0) return false;
    out << trim(tail_text) << " : " << type_name(main_fn->slot_types[slot]) << "\n";
    return true;
  }
  // A tensor binding typed alone is shown, not moved into the value.
  std::string show;
  if (tail && it_slot() >= 0 && main_fn->slot_types[it_slot()].kind == TypeKind::Tensor &&
      is_identifier(trim(tail_text))) {
    show = trim(tail_text);
    a = run_pipeline(compose_statements(in.text, tail, Tail::Drop, true), machine, false);
    if (!a.program()) {
      report_all(a, input);
      return false;
    }
    main_fn = &a.program()->functions[a.program()->main_index];
  }
  std::optional<Span> shown;
  if (tail) shown = Span{static_cast<uint32_t>(tail->begin), static_cast<uint32_t>(tail->end)};
  report_all(a, input, shown);  // its warnings
  remember_region(a, input);

  const auto& stmts = main_fn->body->stmts;
  const std::vector<int> of = binding_of_decl();
  const size_t decls = of.size();
  const size_t enter = decls + std::count_if(bindings.begin(), bindings.end(),
                                             [](const Binding& b) { return b.moved; });
  const std::map<std::string, InScope> scope = lets_in_scope(a, *main_fn, of, enter);
  std::set<int> touched;
  visit_exprs(main_fn->body, [&](const tir::Expr* e) {
    if (e->kind == tir::ExprKind::Var) touched.insert(e->slot);
  });

  SessionRunner runner;
  runner.enter = stmts[enter];
  runner.leave = stmts.back();
  runner.on_enter = [&](interp::Frame& f) {
    size_t i = 0;  // main's statement that declares the next local
    auto fill = [&](const Binding& b, bool always) {
      const int slot = stmts[i++]->slot;
      if (b.moved) return;
      if (!b.tensor)
        f.s[slot] = b.bits;
      else if (always || touched.count(slot))
        f.t[slot].own(copy_storage(*b.tensor));
    };
    for (const Binding& b : bindings) {
      if (!b.type.is_tuple()) fill(b, false);
      for (const Binding& leaf : b.leaves) fill(leaf, true);  // a tuple's or struct's
    }
  };
  bool left = false;
  std::vector<Binding> taken;
  std::set<std::string> gone;  // moved, or shadowed by what cannot be kept
  Shown value;
  runner.on_leave = [&](interp::Frame& f) {
    left = true;
    for (auto& [name, sc] : scope) {
      if (sc.aggregate) {
        std::optional<Binding> b = take_aggregate(f, name, *sc.aggregate, sc.is_mut, *main_fn);
        if (name == kIt && b) {
          value = {aggregate_text(*b), type_name(b->type)};
        } else if (!b) {
          gone.insert(name);
          if (name != kIt && holds_tensor(sc.aggregate->type))  // spec/cli.md §7
            err << "note: `" << name << "` is a `" << type_name(sc.aggregate->type)
                << "`, a struct holding a tensor: the session does not keep it after this "
                   "input\n";
        } else
          taken.push_back(std::move(*b));
        continue;
      }
      const Type& t = main_fn->slot_types[sc.slot];
      if (name == kIt) {
        if (t.is_scalar() || t.kind == TypeKind::String)
          value = {value_text(t, f.s[sc.slot]), type_name(t)};
        else if (t.is_array() && f.t[sc.slot].view.data)
          value = {interp::format_array(t.scalar, f.t[sc.slot].view, fmt::Spec{.kind = '?'}),
                   type_name(t)};
        else if (t.is_tensor_like() && f.t[sc.slot].view.data)
          value = tensor_shown(t, f.t[sc.slot].view);
        continue;
      }
      const bool untouched_tensor = sc.binding >= 0 &&
                                    (t.kind == TypeKind::Tensor || t.is_array()) &&
                                    (!touched.count(sc.slot) || bindings[sc.binding].moved);
      if (untouched_tensor) continue;
      Binding b{name, t, sc.is_mut, 0, nullptr, false, {}};
      if (t.is_scalar() || t.kind == TypeKind::String) {  // a `&str` is its interned text
        b.bits = f.s[sc.slot];
      } else if ((t.kind == TypeKind::Tensor || t.is_array()) && f.t[sc.slot].owned) {
        b.tensor = std::move(f.t[sc.slot].owned);
        f.t[sc.slot].clear();
      } else if (t.kind == TypeKind::Tensor) {
        b.moved = true;
      } else {
        gone.insert(name);
        continue;
      }
      taken.push_back(std::move(b));
    }
  };
  if (!run(a, runner, input)) return false;
  if (!left) {
    err << "note: `return` ended the input early: its bindings are not kept\n";
    err.flush();
    return true;
  }
  for (Binding& b : taken) {
    auto same = std::find_if(bindings.begin(), bindings.end(),
                             [&](const Binding& x) { return x.name == b.name; });
    if (same != bindings.end())
      *same = std::move(b);
    else
      bindings.push_back(std::move(b));
  }
  std::erase_if(bindings, [&](const Binding& b) { return gone.count(b.name) > 0; });
  for (const Binding& b : bindings)
    if (b.name == show && b.tensor) value = tensor_shown(b.type, interp::whole_view(*b.tensor));
  if (!value.type.empty() && hooks.value)
    hooks.value(value.value, value.type, value.line());
  else if (!value.type.empty())
    out << value.line();
  out.flush();
  saved_statements.push_back(
      saved_statement(in.text, tail, !show.empty(), value.type.empty() ? "" : value.line()));
  saved_values = saved_values || (tail && show.empty());
  return true;
}

std::string Session::Impl::saved_statement(const std::string& text,
                                           const std::optional<TailSpan>& tail, bool shown,
                                           const std::string& value) {
  if (!tail) return text;
  const std::string expr = text.substr(tail->begin, tail->end - tail->begin);
  std::string stmt;
  if (shown) {
    stmt = "// " + expr + ": shown by the REPL";
  } else {
    stmt = expr + ";";
    if (!value.empty() && value.find('\n') + 1 == value.size())
      stmt += "  // " + value.substr(0, value.size() - 1);
  }
  return text.substr(0, tail->begin) + stmt + text.substr(tail->end);
}

}  // namespace vx::repl
