// An input of items (`fn`, `const`, `struct`, `import`) or a whole program: its items parsed
// alone, the session's others glued before them, and a `main` run when it has one.
#include <optional>
#include <tuple>
#include <utility>

#include "interp/interpreter.hpp"
#include "parse/parser.hpp"
#include "pipeline/params.hpp"
#include "pipeline/pipeline.hpp"
#include "repl/interrupt.hpp"
#include "repl/report.hpp"
#include "repl/session_impl.hpp"
#include "repl/uir_session.hpp"
#include "repl/wrapped.hpp"

namespace vx::repl {

bool Session::Impl::parse_items(const Input& in, const std::shared_ptr<const SourceFile>& input,
                                ParsedItems& out_items) {
  pipeline::Options parse_only;
  parse_only.through = pipeline::Step::Parse;
  const pipeline::Compiled c = pipeline::compile(std::make_shared<SourceFile>(*input), parse_only);
  if (!c.ok()) {
    // An item cut short meets the end of the text: said as the end of the input, where its
    // code ends (not past its last newline).
    Diagnostics said(input);
    const size_t code_end = in.text.find_last_not_of(" \t\r\n") + 1;
    for (Diagnostic d : c.diags->list()) {
      if (d.code == "E0001" && d.span.begin >= code_end && d.message.ends_with("end of file"))
        at_end_of_input(d, *input, true);
      said.add(std::move(d));
    }
    if (hooks.diagnostic)
      for (const Diagnostic& d : said.list()) hooks.diagnostic(*input, d);
    else
      emit_diagnostics(err, said, ErrorFormat::Human, ":explain");
    return false;
  }
  const ParsedProgram* parsed = c.parsed.get();
  for (const ast::Item& it : parsed->program.items) {
    Item item;
    Span s = boost::apply_visitor([&](const auto& x) { return parsed->span(x); }, it.get());
    using Named = std::pair<std::string, std::string>;  // its name and kind
    std::tie(item.name, item.kind) = ast::visit(
        it, [](const ast::Attribute&) { return Named(); },
        [](const ast::ImportItem&) { return Named(); },
        [](const ast::FnItem& f) { return Named(f.name.name, "fn"); },
        [](const ast::ConstItem& c) { return Named(c.name.name, "const"); },
        [](const ast::StructItem& st) { return Named(st.name.name, "struct"); });
    item.text = in.text.substr(s.begin, s.end - s.begin);
    item.origin = input;
    item.from = s.begin;
    if (item.name == "main") {
      out_items.has_main = true;
      const Span name = parsed->span(ast::must_get<ast::FnItem>(it).name);
      out_items.main_text =
          item.text.substr(0, name.begin - s.begin) + item.text.substr(name.end - s.begin);
      out_items.main_name_at = name.begin - s.begin;
      continue;
    }
    if (!item.name.empty()) out_items.names.insert(item.name);
    out_items.items.push_back(item);
  }
  return true;
}

Composed Session::Impl::compose_items(const Input& in, const ParsedItems& p) const {
  Composed c;
  glue_items(c, p.names);
  c.input(in.text, 0, in.text.size());
  c.glue(p.has_main ? "\n" : "\nfn main() {\n}\n");
  return c;
}

bool Session::Impl::eval_items(const Input& in) {
  auto input = std::make_shared<const SourceFile>(in.name, in.text);
  ParsedItems p;
  if (!parse_items(in, input, p)) return false;
  Composed c = compose_items(in, p);
  Attempt a = run_pipeline(std::move(c), machine, false);
  if (!a.program()) {
    report_all(a, *input);
    return false;
  }
  if (!p.has_main && refuse_main_calls(a, *input)) return false;
  report_all(a, *input);  // its warnings
  remember_region(a, *input);
  if (p.has_main) {
    SessionRunner runner;  // no markers: main is the program's own
    if (!run(a, runner, *input)) return false;
    // :save keeps its run as a call of its main, renamed.
    std::string name = "main_" + std::to_string(saved_mains.size() + 1);
    while (function(name) || p.names.count(name)) name += "_";
    saved_mains.push_back(p.main_text.substr(0, p.main_name_at) + name +
                          p.main_text.substr(p.main_name_at));
    saved_statements.push_back(name + "();");
  }
  for (Item& item : p.items) {
    for (const tir::Function& f : a.program()->functions)
      if (item.kind == "fn" && f.name == item.name) item.signature = params::signature(f);
    auto same = std::find_if(items.begin(), items.end(), [&](const Item& x) {
      return item.name.empty() ? x.text == item.text : x.name == item.name;
    });
    if (!item.name.empty())
      out << (same != items.end() ? "redefined " : "defined ") << item.kind << " " << item.name
          << "\n";
    item.defined_at = saved_statements.size();
    item.redefined = same != items.end();
    if (item.redefined && item.kind == "struct") forget_bindings_of_struct(item.name);
    if (same != items.end())
      *same = std::move(item);
    else
      items.push_back(std::move(item));
  }
  out.flush();
  return true;
}

}  // namespace vx::repl
