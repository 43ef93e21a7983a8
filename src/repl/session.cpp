// How one input runs against the session.
//
// An input of statements is wrapped into a program the ordinary pipeline accepts:
//
//     <the session's items>
//     fn main() {
//     let n: i32 = 300i32;                    // one `let` per binding the session holds
//     let mut grid: Tensor<f32, [64, 300], Memory::HBM>;
//     spawn on(Topology::Device) { }          // marker "enter": the runner fills the slots
//     <the input; a final expression becomes `let __vx_it = EXPR;`>
//     spawn on(Topology::Device) { }          // marker "leave": the runner takes the slots
//     }
//
// The two empty regions are handed to our RegionRunner (interp/interpreter.hpp), which fills the
// `let` slots with the session's values at "enter" and takes the values of every binding in scope
// at "leave". So values persist without re-running what made them, and the interpreter is used
// unchanged. Tensors the input touches are copied in, so a runtime error half-way leaves the
// session's own copy as it was; the session takes the new values only when "leave" was reached
// and the run ended without an error. Integer bindings are declared with their value, so the
// kernel rules fold them as they would in a file; a tensor moved by an earlier input is declared
// and moved again (`let __vx_moved_0 = a;`), so that a use of it is E0301 as in a file.
//
// Nothing of the wrapping shows (spec/cli.md §7.6): a diagnostic is placed in the text the user
// typed (Composed::map), or in the earlier input that defined the item it points into; a label on
// a binding's declaration or move becomes a note that the binding comes from an earlier input; and
// what lies in no text the user typed is said without a place. `main()` would call the wrapper:
// it is E0101, since a `fn main` entered runs once and is not kept. While an input runs, Ctrl-C
// stops it (repl/interrupt.hpp) like a runtime error, leaving the session as it was.
#include "repl/session.hpp"

#include <fstream>
#include <optional>

#include "interp/interpreter.hpp"
#include "pipeline/pipeline.hpp"
#include "repl/interrupt.hpp"
#include "repl/save.hpp"
#include "repl/session_impl.hpp"
#include "repl/uir_session.hpp"
#include "repl/wrapped.hpp"

namespace vx::repl {

bool Session::Impl::eval(const Input& in) {
  if (trim(in.text).empty()) return true;
  RunningInput running;
  interrupted = false;
  if (has_word(in.text, "spawn")) {
    last_kernel = Kernel::Vx;
    last_vx_kernel = in;
  }
  return is_items(in.text) ? eval_items(in) : eval_statements(in, false);
}

bool Session::Impl::eval_uir(const Input& in) {
  if (trim(in.text).empty()) return true;
  RunningInput running;
  if (uir_has_range(in.text)) last_kernel = Kernel::Uir;
  const bool ok = uir.eval(in.name, in.text, options.max_steps, options.max_seconds);
  interrupted = !ok && interrupt_requested();
  if (interrupted && hooks.interrupted) hooks.interrupted();
  return ok;
}

bool Session::Impl::load(const std::string& path) {
  // At most 16 MiB and a byte are read, so `:load /dev/zero` is refused at once (E0003).
  int status = 0;
  auto file = read_source_or_report(path, err, ErrorFormat::Human, status);
  err.flush();
  if (!file) return false;
  last_load = path;
  const Input in{path, file->text()};
  const bool uir_file = path.size() > 4 && path.compare(path.size() - 4, 4, ".uir") == 0;
  return uir_file ? eval_uir(in) : eval(in);
}

bool Session::Impl::save(const std::string& path, bool overwrite) {
  const bool uir_file = path.size() > 4 && path.compare(path.size() - 4, 4, ".uir") == 0;
  std::string text;
  size_t count = 0;
  if (uir_file) {
    text =
        "# Saved by `vx repl` (:save): the session's .uir inputs, in order.\n" + uir.program_text();
  } else {
    std::vector<std::string> item_texts;
    for (const Item& it : items) {
      item_texts.push_back(it.text);
      // A redefined item that an earlier input used: the program has its last form only.
      if (!it.redefined || it.name.empty()) continue;
      for (size_t k = 0; k < it.defined_at && k < saved_statements.size(); ++k)
        if (has_word(saved_statements[k], it.name)) {
          err << "note: `" << it.name << "` was redefined after an input that used it: the "
              << "saved program has its last definition only, so what it prints may differ\n";
          break;
        }
    }
    item_texts.insert(item_texts.end(), saved_mains.begin(), saved_mains.end());
    text = saved_program(item_texts, saved_statements, saved_values);
    count = saved_statements.size();
  }
  if (!save_file(path, text, overwrite, saved_files, err)) {
    err.flush();
    return false;
  }
  if (uir_file)
    out << "saved the .uir inputs to " << path << " (`vx run " << path << "` runs them)\n";
  else
    out << "saved " << count << (count == 1 ? " input" : " inputs") << " and " << items.size()
        << (items.size() == 1 ? " item" : " items") << " to " << path << " (`vx run " << path
        << "` runs them)\n";
  out.flush();
  err.flush();
  return true;
}

Session::Session(SessionOptions options, std::ostream& out, std::ostream& err)
    : impl_(std::make_unique<Impl>(std::move(options), out, err)) {
  if (!impl_->options.machine.empty()) {
    std::string why;
    if (!load_machine(impl_->options.machine, impl_->machine, why))
      throw std::runtime_error("cannot read the machine file: " + why);
  }
}

Session::~Session() = default;

bool Session::eval(const std::string& text) { return impl_->eval({"<repl>", text}); }

bool Session::eval_uir(const std::string& text) { return impl_->eval_uir({"<repl>", text}); }

bool Session::load(const std::string& path) { return impl_->load(path); }

bool Session::reload() {
  if (impl_->last_load.empty()) {
    impl_->err << "error: no file loaded yet: `:load FILE` reads one\n";
    impl_->err.flush();
    return false;
  }
  return impl_->load(impl_->last_load);
}

bool Session::save(const std::string& path, bool overwrite) { return impl_->save(path, overwrite); }

bool Session::last_interrupted() const { return impl_->interrupted; }

bool Session::type_of(const std::string& expr) {
  return impl_->type_of_function(expr) || impl_->eval_statements({"<repl>", expr}, true);
}

bool Session::show(const std::string& part) { return impl_->show(part); }

void Session::list_vars() { impl_->list_vars(); }

void Session::check_last() { impl_->check_last(); }

void Session::map_last(kr::MapFormat format, const std::string& file) {
  impl_->check_last(format, file);
}

void Session::emit_last() {
  if (impl_->last_region.empty())
    impl_->out << "no region entered yet\n";
  else
    impl_->out << impl_->last_region;
  impl_->out.flush();
}

void Session::set_hooks(SessionHooks hooks) { impl_->hooks = std::move(hooks); }

void Session::set_timing(bool on) { impl_->timing = on; }
bool Session::timing() const { return impl_->timing; }

void Session::reset() {
  impl_->items.clear();
  impl_->bindings.clear();
  impl_->last_kernel = Impl::Kernel::None;
  impl_->last_vx_kernel.reset();
  impl_->last_region.clear();
  impl_->uir.reset();
  impl_->saved_statements.clear();
  impl_->saved_mains.clear();
  impl_->saved_values = false;
  impl_->noted_lints.clear();
}

std::vector<std::string> Session::names() const {
  std::vector<std::string> n;
  for (const Binding& b : impl_->bindings)
    if (!b.moved) n.push_back(b.name);
  for (const Item& i : impl_->items)
    if (!i.name.empty()) n.push_back(i.name);
  return n;
}

}  // namespace vx::repl
