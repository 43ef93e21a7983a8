// :check and :map of the last kernel, :show, :vars and :type of a function: what the session
// holds, as the REPL prints it.
#include <fstream>
#include <optional>

#include "interp/interpreter.hpp"
#include "interp/runtime.hpp"  // with_scalar and scalar_text: the interpreter's values
#include "offload/emit_cuda.hpp"
#include "parse/parser.hpp"
#include "pipeline/pipeline.hpp"
#include "repl/interrupt.hpp"
#include "repl/report.hpp"
#include "repl/session_impl.hpp"
#include "repl/tensor_text.hpp"
#include "repl/uir_session.hpp"
#include "repl/wrapped.hpp"
#include "support/suggest.hpp"

namespace vx::repl {

void Session::Impl::check_last(std::optional<kr::MapFormat> map, const std::string& map_file) {
  if (last_kernel == Kernel::Uir) {
    if (map) {
      err << "error: `:map` draws Vx kernels; the last kernel entered is .uir (`:check` shows "
             "its tables)\n";
      return;
    }
    uir.check_last();
    return;
  }
  if (last_kernel == Kernel::None || !last_vx_kernel) {
    out << "no kernel entered yet: `:check` checks the last input with a `spawn on` region, or "
           "with a `range` in `:uir` mode\n";
    out.flush();
    return;
  }
  const Input* last = &*last_vx_kernel;
  auto input_ptr = std::make_shared<const SourceFile>(last->name, last->text);
  const SourceFile& input = *input_ptr;
  Composed c;
  if (is_items(last->text)) {
    ParsedItems p;
    if (!parse_items(*last, input_ptr, p)) return;
    c = compose_items(*last, p);
  } else {
    bool parsed = false;
    auto tail = find_tail(last->text, input, parsed);
    if (!parsed) return;
    c = compose_statements(last->text, tail, Tail::Let, true);
  }
  Attempt a = run_pipeline(std::move(c), machine, true, false, map.has_value());
  report_all(a, input);
  if (!a.checked()) {
    out << "the kernel rules run on a program that passes the checker: fix the errors above "
           "first\n";
    return;
  }
  std::vector<kr::StoreExplain> mine;
  for (kr::StoreExplain s : a.c.explained) {
    if (!a.composed.map(s.span, s.span)) continue;
    for (auto& lc : s.checks) a.composed.map(lc.loop_span, lc.loop_span);
    mine.push_back(std::move(s));
  }
  if (map && !map_file.empty()) {
    std::ofstream file(map_file, std::ios::binary);
    if (file) kr::render_maps(file, input, mine, *map, false);
    if (file.close(), !file)
      err << "error: cannot write `" << map_file << "`\n";
    else
      out << "wrote `" << map_file << "`\n";
  } else if (map) {
    kr::render_maps(out, input, mine, *map, *map == kr::MapFormat::Text && diagnostic_color());
  } else if (hooks.explained && !mine.empty()) {
    for (const kr::StoreExplain& s : mine) hooks.explained(input, s);
  } else {
    kr::render_explain(out, input, mine);
  }
  out.flush();
}

void Session::Impl::forget_bindings_of_struct(const std::string& name) {
  std::erase_if(bindings, [&](const Binding& b) {
    if (!mentions_struct(b.type, name)) return false;
    err << "note: `" << b.name << "` held a `" << name
        << "` as it was before this input: the binding is gone\n";
    return true;
  });
}

const Binding* Session::Impl::binding(const std::string& name) const {
  for (const Binding& b : bindings)
    if (b.name == name) return &b;
  return nullptr;
}

const Item* Session::Impl::function(const std::string& name) const {
  for (const Item& it : items)
    if (it.kind == "fn" && it.name == name) return &it;
  return nullptr;
}

bool Session::Impl::show(const std::string& text) {
  Part part;
  std::string why;
  const Binding* b = nullptr;
  if (parse_part(text, part, why) && !(b = binding(part.name))) {
    std::vector<std::string> known;
    for (const Binding& x : bindings) known.push_back(x.name);
    why = "no binding `" + part.name + "` in the session";
    if (auto near = closest_name(part.name, known)) why += "; did you mean `" + *near + "`?";
  } else if (b && b->moved) {
    why = "`" + part.name + "` was moved away by an earlier input";
  } else if (b && !b->tensor && !part.selectors.empty()) {
    why = "`" + part.name + "` is not a tensor (its type is " + type_name(b->type) +
          "): it has no parts";
  }
  if (!why.empty() || !b) {
    err << "error: " << why << "\n";
    err.flush();
    return false;
  }
  if (b->type.is_tuple()) {
    out << value_line(aggregate_text(*b), type_name(b->type));
    out.flush();
    return true;
  }
  if (!b->tensor) {
    out << value_line(value_text(b->type, b->bits), type_name(b->type));
    out.flush();
    return true;
  }
  const interp::TensorView v = interp::whole_view(*b->tensor);
  Layout layout = row_major(b->tensor->dims);
  if (!select_part(part, layout, why)) {
    err << "error: " << why << "\n";
    err.flush();
    return false;
  }
  if (part.selectors.empty()) {
    out << tensor_shown(b->type, v).line();
    out.flush();
    return true;
  }
  const std::string grid = grid_text(
      layout, [&](int64_t at) { return element_text(b->type.scalar, v, at); }, 2);
  Type part_type = Type::of(b->type.scalar);
  std::string note;
  if (!layout.dims.empty()) {  // a part of it, with its own shape
    part_type = Type::tensor(b->type.scalar, b->type.memory, layout.dims);
    note = " (" + std::to_string(layout.size()) + " of the " + elements_note(v.size) + " of `" +
           part.name + "`, in " + memory_name(b->type.memory) + ")";
  }
  out << value_line(grid, type_name(part_type) + note);
  out.flush();
  return true;
}

void Session::Impl::list_vars() {
  if (bindings.empty() &&
      std::none_of(items.begin(), items.end(), [](const Item& it) { return !it.name.empty(); })) {
    out << "no bindings or items yet\n";
    out.flush();
    return;
  }
  for (const Binding& b : bindings)
    out << (b.is_mut ? "mut " : "") << b.name << " : " << type_name(b.type)
        << (b.moved ? " (moved)" : "") << "\n";
  for (const Item& it : items) {
    if (it.kind == "fn")
      out << it.name << " : " << it.signature << "\n";
    else if (it.kind == "const")
      eval_statements({"<repl>", it.name}, true);  // prints `N : TYPE`
  }
  out.flush();
}

bool Session::Impl::type_of_function(const std::string& expr) {
  const std::string name = trim(expr);
  const Item* f = is_identifier(name) && !binding(name) ? function(name) : nullptr;
  if (!f) return false;
  out << name << " : " << f->signature << "\n";
  out.flush();
  return true;
}

}  // namespace vx::repl
