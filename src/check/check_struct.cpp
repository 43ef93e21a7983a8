// Structs (spec/types.md §9). A struct is a tuple with a name and named fields: its type is a
// Tuple whose `name` and `fields` are set, so the tuple machinery (check_tuple.cpp) gives each of
// its scalars a local of its own, passes, returns, assigns and prints it, and every back end runs
// structs unchanged. This file resolves the struct items, checks the literals `P { x: 1.0, n }`
// and finds fields by name.
#include <boost/variant/get.hpp>

#include "check/checker_impl.hpp"
#include "support/suggest.hpp"

namespace vx::check {

namespace {

bool field_type_ok(const Type& t) {
  return t.is_scalar() || (t.is_tuple() && !t.struct_ref) || t.is_array() ||
         t.kind == TypeKind::Tensor;
}

int field_index(const Type& t, const std::string& name) {
  for (size_t k = 0; k < t.fields.size(); ++k)
    if (t.fields[k] == name) return static_cast<int>(k);
  return -1;
}

// "`a`", "`a` and `b`", "`a`, `b` and `c`", as rustc lists missing fields (four or more: the
// first three and "and N other fields").
std::string name_list(const std::vector<std::string>& names) {
  std::string s;
  const size_t shown = names.size() > 3 ? 3 : names.size();
  for (size_t k = 0; k < shown; ++k) {
    if (k > 0) s += k + 1 == shown && names.size() <= 3 ? " and " : ", ";
    s += "`" + names[k] + "`";
  }
  if (names.size() > 3) {
    const size_t rest = names.size() - 3;
    s += " and " + std::to_string(rest) + " other field" + (rest == 1 ? "" : "s");
  }
  return s;
}

void field_help(Diagnostic& d, const Type& t, const std::string& name) {
  if (auto near = closest_name(name, t.fields)) {
    d.helps.push_back("a field with a similar name exists: `" + *near + "`");
    return;
  }
  std::string all;
  for (const std::string& f : t.fields) all += (all.empty() ? "`" : ", `") + f + "`";
  d.notes.push_back("available fields are: " + all);
}

}  // namespace

void Checker::collect_structs() {
  for (const auto& item : parsed_.program.items) {
    const auto* st = boost::get<ast::StructItem>(&item);
    if (!st) continue;
    auto it = structs_.find(st->name.name);
    if (it != structs_.end()) {
      auto& d = error("E0102", span(st->name),
                      "the name `" + st->name.name + "` is defined multiple times",
                      "`" + st->name.name + "` redefined here");
      d.secondary.push_back({span(it->second.item->name), "previous definition here"});
      continue;
    }
    structs_[st->name.name].item = st;
  }
  // In the order written, so that a cycle is reported at the first struct of it in the file.
  for (const auto& item : parsed_.program.items)
    if (const auto* st = boost::get<ast::StructItem>(&item))
      struct_type(st->name.name, span(st->name));
}

Type Checker::struct_type(const std::string& name, Span use) {
  (void)use;
  auto it = structs_.find(name);
  if (it == structs_.end()) return Type::error();
  StructInfo& s = it->second;
  if (s.state == StructInfo::InProgress) {
    auto& d = error("E0213", span(s.item->name), "recursive type `" + name + "` has infinite size",
                    "recursive without indirection");
    d.notes.push_back(
        "spec/types.md §9: a struct holds the values of its fields, so it cannot hold itself, "
        "directly or through another struct or a tuple; Vx has no `Box` or references in "
        "fields");
    s.state = StructInfo::Failed;
  }
  if (s.state != StructInfo::Pending) return s.state == StructInfo::Done ? s.type : Type::error();
  s.state = StructInfo::InProgress;
  Type t = Type::kind_only(TypeKind::Tuple);
  t.name = name;
  bool bad = false;
  if (s.item->fields.empty()) {
    auto& d =
        error("E0001", span(s.item->name), "Vx has no unit structs", "a struct with no fields");
    d.helps.push_back("a struct holds at least one field: `struct " + name + " { x: f32 }`");
    bad = true;
  }
  for (const ast::FieldDecl& f : s.item->fields) {
    const int seen = field_index(t, f.name.name);
    if (seen >= 0) {
      auto& d = error("E0102", span(f.name), "field `" + f.name.name + "` is already declared",
                      "field already declared");
      d.secondary.push_back({span(s.item->fields[static_cast<size_t>(seen)].name),
                             "`" + f.name.name + "` first declared here"});
      bad = true;
      continue;
    }
    Type ft = resolve_type(f.type);
    if (ft.is_error()) {
      bad = true;
    } else if (ft.kind == TypeKind::Tensor && ft.memory != Memory::CpuDram) {
      tensor_field_memory_error(ft, span(f.type));  // check_struct_tensor.cpp
      bad = true;
    } else if (!field_type_ok(ft)) {
      auto& d = error("E0104", span(f.type),
                      "a struct holds scalars, arrays, tuples, structs and tensors, not `" +
                          type_name(ft) + "`",
                      "cannot be a field of a struct");
      d.notes.push_back(
          "spec/types.md §9: a struct's fields are values; a reference, a `&str` or `()` is "
          "not one");
      bad = true;
    }
    t.elems.push_back(ft);
    t.fields.push_back(f.name.name);
  }
  if (s.state == StructInfo::Failed) return Type::error();  // E0213 above it
  s.type = t;
  s.state = bad ? StructInfo::Failed : StructInfo::Done;
  return bad ? Type::error() : t;
}

tir::Expr* Checker::check_struct_lit(const ast::StructLit& l, Span s) {
  const std::string name = l.name.segments.back().name;
  const Span name_span = span(l.name);
  auto check_values = [&] {  // for their own errors
    for (const ast::FieldInit& f : l.fields)
      if (f.value) check_expr(f.value->get(), nullptr);
  };
  if (l.name.segments.size() != 1 || !has_struct(name)) {
    std::string path;
    for (const ast::Ident& seg : l.name.segments) path += (path.empty() ? "" : "::") + seg.name;
    auto& d = error("E0104", name_span,
                    "cannot find struct, variant or union type `" + path + "` in this scope",
                    "not found in this scope");
    std::vector<std::string> names;
    for (const auto& [n, info] : structs_) names.push_back(n);
    if (auto near = closest_name(name, names))
      d.helps.push_back("a struct with a similar name exists: `" + *near + "`");
    check_values();
    return error_expr(s);
  }
  const Type t = struct_type(name, name_span);
  if (t.is_error()) {
    check_values();
    return error_expr(s);
  }
  std::vector<Span> given(t.elems.size(), Span{0, 0});
  std::vector<bool> has(t.elems.size(), false);
  std::vector<tir::Expr*> parts;  // in the order written, which is the order they run
  std::vector<int> part_field;
  bool bad = false;
  for (const ast::FieldInit& f : l.fields) {
    const int k = field_index(t, f.name.name);
    if (k < 0) {
      auto& d =
          error("E0212", span(f.name),
                "struct `" + name + "` has no field named `" + f.name.name + "`", "unknown field");
      field_help(d, t, f.name.name);
      if (f.value) check_expr(f.value->get(), nullptr);
      bad = true;
      continue;
    }
    const size_t uk = static_cast<size_t>(k);
    if (has[uk]) {
      auto& d = error("E0212", span(f.name), "field `" + f.name.name + "` specified more than once",
                      "used more than once");
      d.secondary.push_back({given[uk], "first use of `" + f.name.name + "`"});
      if (f.value) check_expr(f.value->get(), nullptr);
      bad = true;
      continue;
    }
    has[uk] = true;
    given[uk] = span(f.name);
    tir::Expr* v = f.value ? check_expr(f.value->get(), &t.elems[uk])
                           : use_var(f.name.name, span(f.name), true);  // `P { x }`
    v = coerce(v, t.elems[uk], f.value ? span(f.value->get()) : span(f.name));
    mark_moved(v, f.value ? span(f.value->get()) : span(f.name));  // a tensor is moved in
    if (v->type.is_error()) {
      bad = true;
      continue;
    }
    parts.push_back(v);
    part_field.push_back(k);
  }
  std::vector<std::string> missing;
  for (size_t k = 0; k < t.fields.size(); ++k)
    if (!has[k]) missing.push_back(t.fields[k]);
  if (!missing.empty() && !bad) {
    const std::string list = name_list(missing);
    error("E0212", name_span,
          std::string("missing field") + (missing.size() == 1 ? " " : "s ") + list +
              " in initializer of `" + name + "`",
          "missing " + list);
    bad = true;
  }
  if (bad) return error_expr(s);
  if (holds_tensor(t) && !struct_tensor_allowed(t, name, name_span)) return error_expr(s);
  tir::Expr* flat = new_flat(t, s);
  std::vector<tir::Expr*> leaves = sequence(parts, flat->block->stmts);
  // The scalars of each field, taken from the order written into the order declared.
  std::vector<std::vector<tir::Expr*>> by_field(t.elems.size());
  size_t at = 0;
  for (size_t p = 0; p < parts.size(); ++p) {
    const size_t k = static_cast<size_t>(part_field[p]);
    const size_t n = static_cast<size_t>(t.elems[k].leaf_count());
    by_field[k].assign(leaves.begin() + static_cast<long>(at),
                       leaves.begin() + static_cast<long>(at + n));
    at += n;
  }
  for (const auto& f : by_field) flat->args.insert(flat->args.end(), f.begin(), f.end());
  uses().constructed.insert(name);
  return flat;
}

void Checker::fields_read(const Type& t, bool constructed) {
  if (!t.is_tuple()) return;
  if (t.is_struct() && structs_.count(t.name)) {
    for (const std::string& f : t.fields) uses().read.insert({t.name, f});
    if (constructed) uses().constructed.insert(t.name);
  }
  for (const Type& e : t.elems) fields_read(e, constructed);
}

void Checker::declare_dead_code_items() {
  for (const auto& [name, info] : structs_) {
    const ast::StructItem& item = *info.item;
    tir::DeadCodeFacts::Declared d{span(item.name), name, item.is_pub, {}};
    for (const ast::FieldDecl& f : item.fields)
      d.fields.push_back({span(f.name), f.name.name, f.is_pub, {}});
    prog_.dead_code.structs.push_back(std::move(d));
  }
  for (const auto& [name, info] : consts_)
    prog_.dead_code.consts.push_back({span(info.item->name), name, info.item->is_pub, {}});
}

int Checker::struct_field(const Type& base, const ast::FieldSuffix& f, Span s, bool reads) {
  const int k = field_index(base, f.name);
  if (k >= 0) {
    if (reads && structs_.count(base.name)) uses().read.insert({base.name, f.name});
    return k;
  }
  auto& d = error("E0211", span(f), "no field `" + f.name + "` on type `" + base.name + "`",
                  "unknown field");
  (void)s;
  field_help(d, base, f.name);
  return -1;
}

tir::Expr* Checker::struct_compare_error(const Type& t, const std::string& op, Span op_span,
                                         Span whole) {
  auto& d = error("E0202", op_span,
                  "binary operation `" + op + "` cannot be applied to type `" + t.name + "`",
                  "`" + t.name + "` is compared field by field");
  d.notes.push_back(
      "spec/types.md §9: Vx derives nothing, so a struct has no `==`, as a Rust "
      "struct without `#[derive(PartialEq)]`");
  d.helps.push_back("compare the fields: `a.x == b.x && …`");
  return error_expr(whole);
}

}  // namespace vx::check
