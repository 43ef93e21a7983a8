// Items, types and blocks. Statements are in check_stmt.cpp, expressions in check_expr.cpp,
// built-ins in check_builtins.cpp, moves and borrows in moves.cpp.
#include <algorithm>
#include <boost/variant/get.hpp>

#include "check/checker_impl.hpp"
#include "check/lints.hpp"
#include "support/internal_error.hpp"
#include "support/suggest.hpp"

namespace vx {

std::unique_ptr<tir::Program> check_program(const ParsedProgram& parsed, Diagnostics& diags,
                                            const CheckOptions& options) {
  auto program = std::make_unique<tir::Program>();
  program->file = diags.file_ptr();
  check::Checker checker(parsed, diags, *program, options.session_decls);
  checker.run(options.needs_main);
  if (diags.has_errors()) return nullptr;
  return program;
}

}  // namespace vx

namespace vx::check {

Diagnostic& Checker::error(const char* code, Span span, std::string message, std::string label) {
  // An error about a value whose type an earlier error left unknown is that error's echo, as in
  // rustc: "no field on type `{error}`" after a mismatched field is never printed.
  const std::string unknown = "`" + type_name(Type::error()) + "`";
  if (diags_.has_errors() &&
      (message.find(unknown) != std::string::npos || label.find(unknown) != std::string::npos)) {
    static thread_local Diagnostic echo;
    echo = Diagnostic{};
    return echo;
  }
  return diags_.error(code, span, std::move(message), std::move(label));
}

void Checker::run(bool needs_main) {
  // Collect the items: functions and consts, each name once.
  std::map<std::string, Span> defined;
  auto define = [&](const std::string& name, Span s) {
    auto it = defined.find(name);
    if (it != defined.end()) {
      auto& d = error("E0102", s, "`" + name + "` is defined twice", "defined again here");
      d.secondary.push_back({it->second, "first defined here"});
      return false;
    }
    defined[name] = s;
    return true;
  };
  for (const auto& item : parsed_.program.items) {
    ast::visit(
        item, [](const ast::Attribute&) {}, [](const ast::ImportItem&) {},
        [&](const ast::FnItem& f) {
          if (!define(f.name.name, span(f.name))) return;
          FnSig sig;
          sig.name = f.name.name;
          sig.span = span(f.name);
          sig.item = &f;
          fn_by_name_[sig.name] = static_cast<int>(sigs_.size());
          sigs_.push_back(std::move(sig));
        },
        [&](const ast::ConstItem& c) {
          if (!define(c.name.name, span(c.name))) return;
          consts_[c.name.name].item = &c;
        },
        [](const ast::StructItem&) {});  // collect_structs, next
  }
  collect_structs();
  // Signatures (after every const is known, so that dimensions can name consts); what one names
  // is its function's (dead_code).
  prog_.dead_code.by_function.resize(sigs_.size());
  for (auto& sig : sigs_) {
    uses_ = &prog_.dead_code.by_function[static_cast<size_t>(&sig - sigs_.data())];
    std::map<std::string, Span> seen;
    for (const auto& p : sig.item->params) {
      if (seen.count(p.name.name)) {
        auto& d = error("E0102", span(p.name), "parameter `" + p.name.name + "` is declared twice",
                        "declared again here");
        d.secondary.push_back({seen[p.name.name], "first declared here"});
      }
      seen[p.name.name] = span(p.name);
      Type t = resolve_type(p.type);
      if (t.kind == TypeKind::Token || t.kind == TypeKind::Unit)
        error("E0104", span(p.type), "a parameter cannot have type `" + type_name(t) + "`");
      sig.params.push_back(t);
      sig.param_names.push_back(p.name.name);
    }
    sig.ret = sig.item->ret ? resolve_type(*sig.item->ret) : Type::unit();
    if (sig.ret.kind == TypeKind::String) check_elided_lifetime(sig);
    if (sig.ret.kind == TypeKind::Ref || sig.ret.kind == TypeKind::Token ||
        sig.ret.is_struct_ref()) {
      error("E0104", span(*sig.item->ret), "a function cannot return `" + type_name(sig.ret) + "`",
            sig.ret.is_struct_ref() ? "return the struct by value instead"
                                    : "return a tensor by value instead");
      sig.ret = Type::error();
    }
  }
  uses_ = nullptr;
  for (auto& [name, info] : consts_) {
    Type t;
    tir::Literal v;
    const_value(name, span(info.item->name), t, v);
  }
  prog_.functions.resize(sigs_.size());
  has_spawn_.assign(sigs_.size(), false);
  callees_.assign(sigs_.size(), {});
  plain_calls_.assign(sigs_.size(), {});
  for (size_t i = 0; i < sigs_.size(); ++i) check_function(static_cast<int>(i));
  check_device_calls();
  // What a `pub fn` takes, the code that calls the program made; what it returns, that code reads.
  for (const FnSig& sig : sigs_)
    if (sig.item && sig.item->is_pub) {
      for (const Type& t : sig.params) fields_read(t, true);
      fields_read(sig.ret);
    }
  declare_dead_code_items();
  auto main_it = fn_by_name_.find("main");
  if (main_it == fn_by_name_.end()) {
    if (needs_main && !diags_.has_errors()) {
      auto& d = error("E0103", {0, 0}, "the program has no `fn main`");
      d.helps.push_back("add `fn main() { … }`, where the program starts");
    }
    return;
  }
  const FnSig& m = sigs_[main_it->second];
  prog_.main_index = main_it->second;
  if (!m.params.empty())
    error("E0201", m.span, "`main` takes no parameters", "declared with parameters");
  if (!(m.ret.is_unit() || m.ret.is_scalar(Scalar::I32) || m.ret.is_error()))
    error("E0200", span(*m.item->ret),
          "`main` must return `()` or `i32`, not `" + type_name(m.ret) + "`");
}

bool Checker::const_value(const std::string& name, Span use, Type& type, tir::Literal& value) {
  auto it = consts_.find(name);
  if (it == consts_.end()) return false;
  ConstInfo& c = it->second;
  const Span own = span(c.item->name);
  if (use.begin != own.begin || use.end != own.end) uses().consts.insert(name);
  if (c.state == ConstInfo::InProgress) {
    error("E0206", use, "the value of const `" + name + "` depends on itself");
    c.state = ConstInfo::Failed;
  }
  if (c.state == ConstInfo::Pending) {
    c.state = ConstInfo::InProgress;
    c.type = resolve_type(c.item->type);
    if (c.type.kind == TypeKind::String) {
      // A `&str` const is a string literal (spec/types.md §1).
      tir::Expr* e = check_const_value(c);
      if (!e) e = error_expr(span(c.item->value));
      e = coerce(e, c.type, span(c.item->value), "the value");
      if (!e->type.is_error() && e->kind != tir::ExprKind::String)
        error("E0206", span(c.item->value), "the value of a `&str` const must be a string literal",
              "not a string literal");
      c.text = e->text;
      c.state = !e->type.is_error() && e->kind == tir::ExprKind::String ? ConstInfo::Done
                                                                        : ConstInfo::Failed;
    } else if (!c.type.is_scalar()) {
      if (!c.type.is_error())
        error("E0104", span(c.item->type),
              "a const must have a scalar type or `&str`, not `" + type_name(c.type) + "`");
      c.state = ConstInfo::Failed;
    } else {
      // A const's value is made of literals, other consts, operators and casts.
      tir::Expr* e = check_const_value(c);
      if (!e) e = error_expr(span(c.item->value));
      if (!e->type.is_error()) e = coerce(e, c.type, span(c.item->value), "the value");
      if (!e->type.is_error()) {
        size_t errors = diags_.error_count();
        tir::Expr* folded = fold_constant(e);
        if (folded)
          e = folded;
        else if (diags_.error_count() > errors)
          e = error_expr(e->span);
      }
      if (e->type.is_error()) {
        c.state = ConstInfo::Failed;
      } else if (e->kind != tir::ExprKind::Literal) {
        error("E0206", span(c.item->value),
              "the value of a const must be made of literals, consts, operators and casts",
              "not a constant value");
        c.state = ConstInfo::Failed;
      } else {
        c.value = e->lit;
        c.state = ConstInfo::Done;
      }
    }
  }
  type = c.state == ConstInfo::Done ? c.type : Type::error();
  value = c.value;
  return true;
}

Type Checker::resolve_type(const ast::Type& t) {
  return ast::visit(
      t, [&](const ast::NamedType& n) { return resolve_named(n); },
      [&](const ast::TensorType& tt) { return resolve_tensor_type(tt); },
      [&](const ast::RefType& r) { return resolve_ref(r); },
      [&](const ast::ArrayType& a) { return resolve_array_type(a); },
      [&](const ast::TupleType& tu) { return resolve_tuple(tu); });
}

Type Checker::resolve_named(const ast::NamedType& n) {
  Scalar s;
  if (scalar_by_name(n.name, s)) return Type::of(s);
  if (n.name == "()" || n.name == "void") return Type::unit();
  if (n.name == "Token") return Type::token();
  if (n.name == "str") {
    auto& d = error("E0104", span(n), "the type `str` is only used behind a reference",
                    "a string slice is `&str`");
    d.helps.push_back("write `&str`");
    return Type::error();
  }
  if (has_struct(n.name)) return struct_type(n.name, span(n));
  auto& d = error("E0104", span(n), "unknown type `" + n.name + "`", "not a type");
  std::vector<std::string> types = {"Token"};
  for (const auto& [name, info] : structs_) types.push_back(name);
#define VX_SCALAR(E, name, ctype, bits, is_int, is_signed, is_float, cuda, atomic) \
  types.push_back(name);
#include "check/scalar_types.def"
#undef VX_SCALAR
  if (n.name == "usize" || n.name == "isize")
    d.helps.push_back("Vx has no `" + n.name +
                      "`: an index may be of any integer type, and a length is `i32` "
                      "(`t.len()`); write `i32` or `i64`");
  else if (auto near = closest_name(n.name, types))
    d.helps.push_back("a type with a similar name exists: `" + *near + "`");
  return Type::error();
}

Type Checker::resolve_ref(const ast::RefType& r) {
  const auto* named = boost::get<ast::NamedType>(&r.inner.get());
  if (named && named->name == "str") return resolve_str(r);
  if (r.lifetime) {
    auto& d = error("E0210", span(*r.lifetime), "a lifetime can only be written in `&'static str`",
                    "not supported here");
    d.notes.push_back("references to tensors take no lifetime (spec/types.md §5)");
    return Type::error();
  }
  Type inner = resolve_type(r.inner.get());
  if (inner.is_error()) return inner;
  if (inner.is_struct()) {  // check_struct_ref.cpp
    inner.struct_ref = true;
    inner.ref_mut = r.is_mut;
    return inner;
  }
  if (inner.kind != TypeKind::Tensor) {
    error("E0104", span(r),
          "references are to tensors and structs only, not to `" + type_name(inner) + "`",
          "unsupported reference");
    return Type::error();
  }
  inner.kind = TypeKind::Ref;
  inner.ref_mut = r.is_mut;
  return inner;
}

Type Checker::resolve_tensor_type(const ast::TensorType& tt) {
  Type elem = resolve_type(tt.elem.get());
  if (elem.is_error()) return elem;
  if (!elem.is_scalar() || elem.scalar == Scalar::Char) {
    error("E0104", span(tt.elem.get()),
          "a tensor holds numbers or bool, not `" + type_name(elem) + "`");
    return Type::error();
  }
  std::vector<int64_t> dims;
  bool ok = true;
  if (tt.dims.size() > 8) {
    error("E0206", span(tt),
          "a tensor has at most 8 dimensions, this one has " + std::to_string(tt.dims.size()));
    return Type::error();
  }
  constexpr int64_t kMaxElems = INT32_MAX;
  int64_t total = 1;
  for (const auto& d : tt.dims) {
    int64_t v = 0;
    if (d.text == "?") {
      dims.push_back(kUnknownDim);
      continue;
    }
    if (d.text[0] >= '0' && d.text[0] <= '9') {
      ast::IntLit lit;
      lit.text = d.text;
      Type i64 = Type::of(Scalar::I64);
      // Reuse the literal reader; report through its diagnostics.
      tir::Expr* e = check_int_lit(lit, &i64, false, span(d));
      if (e->type.is_error()) {
        ok = false;
        continue;
      }
      v = e->lit.i;
    } else {
      Type ct;
      tir::Literal cv;
      if (!const_value(d.text, span(d), ct, cv)) {
        error("E0206", span(d), "dimension `" + d.text + "` is not a const",
              "a dimension is a number, a const or `?`");
        ok = false;
        continue;
      }
      if (ct.is_error()) {
        ok = false;
        continue;
      }
      if (!ct.is_scalar() || !is_int(ct.scalar)) {
        error("E0206", span(d), "dimension `" + d.text + "` is not an integer const");
        ok = false;
        continue;
      }
      v = cv.i;
    }
    // spec/types.md §3: a dimension and the element count are at most 2^31 - 1 (so `len()`
    // and every in-bounds index are i32 values).
    if (v <= 0 || v > kMaxElems) {
      error("E0206", span(d),
            "a dimension must be between 1 and 2^31 - 1 (2147483647), not " + std::to_string(v));
      ok = false;
      continue;
    }
    total = total > kMaxElems / v ? kMaxElems + 1 : total * v;
    dims.push_back(v);
  }
  if (!ok) return Type::error();
  if (total > kMaxElems) {
    error("E0206", span(tt),
          "the tensor has more than 2^31 - 1 (2147483647) elements: the product of its "
          "dimensions is too large");
    return Type::error();
  }
  if (dims.empty()) {
    error("E0206", span(tt), "a tensor needs at least one dimension");
    return Type::error();
  }
  Memory mem = Memory::CpuDram;
  if (tt.memory) {
    const auto& segs = tt.memory->segments;
    std::string m = segs.size() == 2 && segs[0].name == "Memory" ? segs[1].name : "";
    if (m == "CPU_DRAM")
      mem = Memory::CpuDram;
    else if (m == "HBM")
      mem = Memory::Hbm;
    else if (m == "SMEM")
      mem = Memory::Smem;
    else {
      error(
          "E0403", span(*tt.memory),
          "unknown memory `" +
              [&] {
                std::string s;
                for (size_t i = 0; i < segs.size(); ++i) s += (i ? "::" : "") + segs[i].name;
                return s;
              }() +
              "`",
          "expected `Memory::CPU_DRAM`, `Memory::HBM` or `Memory::SMEM`");
      return Type::error();
    }
  }
  if (mem == Memory::Smem && std::count(dims.begin(), dims.end(), kUnknownDim) > 0) {
    auto& d = error("E0206", span(tt), "an SMEM tile's dimensions are fixed: `?` is not allowed",
                    "a tile in SMEM");
    d.notes.push_back(
        "a block's shared memory is sized when the kernel is compiled (spec/types.md §3.1)");
    return Type::error();
  }
  return Type::tensor(elem.scalar, mem, std::move(dims));
}

// `&str` and `&'static str` (spec/types.md §1): every string slice is a literal, so `'static`
// is the only lifetime there is.
Type Checker::resolve_str(const ast::RefType& r) {
  if (r.lifetime && r.lifetime->name != "static") {
    auto& d =
        error("E0210", span(*r.lifetime),
              "use of undeclared lifetime name `'" + r.lifetime->name + "`", "undeclared lifetime");
    d.helps.push_back(
        "Vx has no lifetime parameters; every string slice is a literal: write "
        "`&'static str` or `&str`");
    return Type::error();
  }
  if (r.is_mut) {
    auto& d = error("E0104", span(r), "`&mut str` is not supported: a string slice cannot change",
                    "a mutable string slice");
    d.helps.push_back("write `&str`");
    return Type::error();
  }
  return Type::kind_only(TypeKind::String);
}

// Rust's lifetime elision for a returned `&str` written without a lifetime: it borrows from the
// one reference parameter; with none, or with more than one, the lifetime is missing (E0210).
void Checker::check_elided_lifetime(const FnSig& sig) {
  const auto* r = boost::get<ast::RefType>(&*sig.item->ret);
  if (!r || r->lifetime) return;
  std::vector<std::string> refs;
  for (size_t i = 0; i < sig.params.size(); ++i)
    if (sig.params[i].kind == TypeKind::String || sig.params[i].kind == TypeKind::Ref)
      refs.push_back(sig.param_names[i]);
  if (refs.size() == 1) return;
  auto& d =
      error("E0210", span(*r), "missing lifetime specifier", "expected named lifetime parameter");
  if (refs.empty())
    d.helps.push_back(
        "this function's return type contains a borrowed value, but there is no value for it "
        "to be borrowed from");
  else
    d.helps.push_back(
        "this function's return type contains a borrowed value, but the signature does not say "
        "whether it is borrowed from `" +
        refs[0] + "` or `" + refs[1] + "`");
  d.helps.push_back("a string literal lives as long as the program: write `&'static str`");
}

const ast::PathExpr* place_root(const ast::Postfix& p) {
  if (auto* pe = boost::get<ast::PathExpr>(&p.base)) return pe;
  // `(*r)`: a parenthesized dereference of a variable.
  auto* par = boost::get<ast::Paren>(&p.base);
  if (!par) return nullptr;
  const ast::Expr& inner = par->inner.get();
  if (!inner.rest.empty() || !inner.first.types.empty()) return nullptr;
  const ast::Unary& u = inner.first.operand;
  if (u.ops.size() != 1 || u.ops[0] != "*" || !u.operand.suffixes.empty()) return nullptr;
  return boost::get<ast::PathExpr>(&u.operand.base);
}

void Checker::check_device_calls() {
  // A function opens a region if it has one, or calls a function that does.
  std::vector<bool> opens = has_spawn_;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t f = 0; f < opens.size(); ++f)
      if (!opens[f])
        for (int c : callees_[f])
          if (opens[c]) {
            opens[f] = changed = true;
            break;
          }
  }
  for (const auto& [callee, at] : device_calls_)
    if (opens[callee]) {
      auto& d = error(
          "E0404", at,
          "`" + sigs_[callee].name + "` opens a `spawn on` region, so device code cannot call it",
          "called inside a `spawn on` region");
      d.secondary.push_back({sigs_[callee].span, "defined here"});
    }
  check_helper_memories();
}

Diagnostic& Checker::string_in_device_code(Span at) {
  auto& d = error("E0405", at, "a `&str` value cannot be used in device code",
                  "a string slice in device code");
  d.notes.push_back(
      "string slices live in host memory; device code has no `&str` (spec/types.md §1)");
  d.helps.push_back("print or compare strings in host code, outside the `spawn on` region");
  return d;
}

tir::Expr* Checker::host_only(tir::Expr* e) {
  if (spawn_depth_ > 0)
    string_in_device_code(e->span);
  else if (fn_index_ >= 0 && sig_ && sig_->name != "main")
    helper_strings_.push_back({fn_index_, e->span});
  return e;
}

void Checker::check_helper_memories() {
  // The contexts each function runs in, each with the call that gave it (an empty span: main,
  // or a function nothing calls, which `vx call` runs from the host).
  const size_t n = sigs_.size();
  std::vector<std::optional<Span>> host(n), device(n);
  std::vector<bool> called(n, false);
  for (const auto& calls : plain_calls_)
    for (const auto& [c, at] : calls) called[c] = true;
  for (const auto& [c, at] : device_calls_) {
    called[c] = true;
    if (!device[c]) device[c] = at;
  }
  for (size_t f = 0; f < n; ++f)
    if (!called[f] || sigs_[f].name == "main") host[f] = Span{};
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t f = 0; f < n; ++f)
      for (const auto& [c, at] : plain_calls_[f]) {
        if (host[f] && !host[c]) host[c] = at, changed = true;
        if (device[f] && !device[c]) device[c] = at, changed = true;
      }
  }
  std::vector<bool> reported(n, false);  // one E0405 per function is enough
  for (const auto& [fn, at] : helper_strings_) {
    if (!device[fn] || reported[fn]) continue;
    reported[fn] = true;
    auto& d = string_in_device_code(at);
    d.secondary.push_back(
        {*device[fn], "`" + sigs_[fn].name + "` runs as device code for this call"});
  }
  for (const HelperIndex& u : helper_indexes_) {
    const std::string& fn = sigs_[u.fn].name;
    if (host[u.fn] && u.memory != Memory::CpuDram) {
      auto& d = memory_error(u.at, u.name, u.memory, false, "indexed in host code");
      if (host[u.fn]->end > 0)
        d.secondary.push_back({*host[u.fn], "`" + fn + "` runs as host code for this call"});
    }
    if (device[u.fn] && u.memory == Memory::CpuDram) {
      auto& d = memory_error(u.at, u.name, u.memory, true, "indexed in device code");
      d.secondary.push_back({*device[u.fn], "`" + fn + "` runs as device code for this call"});
    }
  }
  check_helper_tensor_structs(device);  // check_struct_tensor.cpp
}

void Checker::check_function(int index) {
  const FnSig& sig = sigs_[index];
  tir::Function& f = prog_.functions[index];
  f.name = sig.name;
  f.is_pub = sig.item->is_pub;
  f.span = sig.span;
  f.ret = sig.ret;
  fn_ = &f;
  sig_ = &sig;
  fn_index_ = index;
  uses_ = &prog_.dead_code.by_function[static_cast<size_t>(index)];
  scopes_.clear();
  let_borrows_.clear();
  struct_leaf_slots_.clear();
  scopes_.emplace_back();
  loop_depth_ = spawn_depth_ = unsafe_depth_ = block_loop_depth_ = 0;
  loop_flows_.clear();
  std::vector<tir::Stmt*> none;
  for (size_t i = 0; i < sig.params.size(); ++i) {
    if (sig.params[i].is_tuple()) {  // a local for each of its scalars (check_tuple.cpp)
      std::vector<int> leaves;
      const bool by_ref = sig.params[i].struct_ref;
      declare_tuple(sig.param_names[i], sig.params[i], !by_ref && sig.item->params[i].is_mut,
                    span(sig.item->params[i].name), nullptr, none, &leaves);
      // `p: &mut P` writes the caller's struct, `p: &P` none (check_struct_ref.cpp); neither
      // is a `mut` binding for the unused_mut lint.
      if (by_ref) scopes_.back().back().is_mut = sig.params[i].ref_mut;
      f.param_slots.insert(f.param_slots.end(), leaves.begin(), leaves.end());
      continue;
    }
    f.param_slots.push_back(declare(sig.param_names[i], sig.params[i], sig.item->params[i].is_mut,
                                    span(sig.item->params[i].name)));
  }
  if (sig.ret.is_tuple()) {
    f.ret = Type::unit();
    f.ret_slots = leaf_slots(sig.ret, "_ret", span(*sig.item->ret), false);
    f.aggregates[f.ret_slots.front()] = {sig.ret, f.ret_slots};
  }
  declare_write_backs(f);
  Type result;
  f.body = check_block(sig.item->body, &sig.ret, result, false);
  if (!sig.ret.is_unit() && !sig.ret.is_error() && !f.body->tail && !never_ends(f.body, false)) {
    Span close{span(sig.item->body).end - 1, span(sig.item->body).end};
    auto& d = error(
        "E0205", close,
        "function `" + sig.name + "` may end without returning a `" + type_name(sig.ret) + "`",
        "the end of the function is reachable");
    d.secondary.push_back({span(*sig.item->ret), "the function returns this type"});
  } else if (f.body->tail && !sig.ret.is_error()) {
    f.body->tail = coerce(f.body->tail, sig.ret, f.body->tail->span, "the function's value");
    mark_moved(f.body->tail, f.body->tail->span);  // `*r` of a struct holding a tensor: E0306
  }
  if (sig.ret.is_tuple() && f.body->tail) {
    tir::Expr* tail = f.body->tail;
    f.body->tail = nullptr;
    return_tuple(tail, tail->span, f.body->stmts, false);
  }
  if (!diags_.has_errors()) check_no_tuples(f);
  fn_ = nullptr;
  uses_ = nullptr;
}

Local* Checker::lookup(const std::string& name) {
  for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
    for (auto l = s->rbegin(); l != s->rend(); ++l)
      if (l->name == name) return &*l;
  return nullptr;
}

int Checker::declare(const std::string& name, const Type& t, bool is_mut, Span decl) {
  int slot = fn_->slot_count();
  fn_->slot_types.push_back(t);
  fn_->slot_names.push_back(name);
  fn_->slot_decls.push_back(decl);
  fn_->slot_mut.push_back(is_mut);
  scopes_.back().push_back(Local{name, slot, t, is_mut, false, decl, {}, {}, nullptr});
  return slot;
}

void Checker::set_tail(tir::Block* blk, tir::Expr* e) { flat().set_tail(blk, e); }

tir::Block* Checker::check_block(const ast::Block& b, const Type* expected, Type& result,
                                 bool new_scope) {
  tir::Block* blk = prog_.new_block();
  blk->span = span(b);
  if (new_scope) scopes_.emplace_back();
  for (size_t i = 0; i < b.stmts.size(); ++i) {
    const ast::Stmt& s = b.stmts[i];
    const auto* es = boost::get<ast::ExprStmt>(&s);
    bool is_tail = es && !es->semicolon && !es->assign && i + 1 == b.stmts.size();
    if (const ast::LoopExpr* lp = is_tail ? bare_loop(es->expr) : nullptr) {
      // A `loop` as the tail: its statements join the block's, and its value is the tail.
      LoopParts parts = check_loop(*lp, expected, span(*lp), false);
      blk->stmts.insert(blk->stmts.end(), parts.stmts.begin(), parts.stmts.end());
      blk->tail = parts.value;
      continue;
    }
    if (is_tail) {
      set_tail(blk, check_expr(es->expr, expected));
      continue;
    }
    if (diags_.full()) break;
    check_stmt(s, blk->stmts);
  }
  if (blk->tail)
    result = blk->tail->type;
  else if (never_ends(blk, false))
    result = Type::error();  // never reaches its end: fits any type
  else
    result = Type::unit();
  if (new_scope) scopes_.pop_back();
  return blk;
}

}  // namespace vx::check
