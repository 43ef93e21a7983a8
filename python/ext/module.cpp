// The extension module `vx._vx` (spec/python.md): the pipeline of pipeline/pipeline.hpp called from
// Python, as `vx call` calls it (pipeline/call.cpp) but on Python's arrays instead of files. A
// program is compiled once (through the offload marks, as a library: no `main` needed); each call
// of a `pub fn` binds Python's arguments (arguments.cpp), releases the GIL, runs the function with
// the pipeline, and turns its return value, its runtime error or its printed output back into
// Python's (results.cpp). vx/__init__.py wraps it; nothing here is meant to be called directly.
#include <pthread.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <signal.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>

#include "arguments.hpp"
#include "check/tir_walk.hpp"
#include "pipeline/call.hpp"
#include "pipeline/params.hpp"
#include "pipeline/pipeline.hpp"
#include "repl/interrupt.hpp"
#include "results.hpp"
#include "rules/write_map.hpp"

namespace vx::python {

namespace {

// Raises the exception class `name` of the package (vx/__init__.py), made with `args`.
template <class... A>
[[noreturn]] void raise_vx(const char* name, A&&... args) {
  py::object type = py::module_::import("vx").attr(name);
  py::object exc = type(std::forward<A>(args)...);
  PyErr_SetObject(type.ptr(), exc.ptr());
  throw py::error_already_set();
}

py::list diagnostics_list(const Diagnostics& diags) {
  py::list out;
  for (const Diagnostic& d : diags.list()) out.append(from_json(diagnostic_json(diags.file(), d)));
  return out;
}

std::string rendered(const Diagnostics& diags) {
  std::ostringstream s;
  emit_diagnostics(s, diags, ErrorFormat::Human);
  return s.str();
}

// What a command would have printed under --error-format=json, one object a line, as
// diagnostics (a machine file's, a source file that cannot be read).
py::list diagnostics_from_lines(const std::string& text, std::string& rendered_text) {
  py::list out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) continue;
    rendered_text += j.value("rendered", "");
    out.append(from_json(j));
  }
  return out;
}

// The comment lines right above a function (`///` or `//`), as its docstring.
std::string doc_comment(const SourceFile& file, Span span) {
  std::vector<std::string> lines;
  for (int line = file.line_col(span.begin).line - 1; line >= 1; --line) {
    std::string_view text = file.line_text(line);
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    if (text.starts_with("#[")) continue;  // an attribute between the comment and the function
    if (!text.starts_with("//")) break;
    text.remove_prefix(text.starts_with("///") ? 3 : 2);
    if (text.starts_with(" ")) text.remove_prefix(1);
    lines.emplace_back(text);
  }
  std::string out;
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) out += *it + "\n";
  return out;
}

// ---- Ctrl-C -------------------------------------------------------------------------------------

// Whether a call may take SIGINT over while it runs: on Python's main thread (where Python's own
// handler would raise KeyboardInterrupt), and only while that handler is Python's default one (a
// program that set its own, or ignores SIGINT, keeps it).
bool interruptible() {
  static py::object* getsignal = nullptr;
  static py::object* default_handler = nullptr;
  static unsigned long main_thread = 0;
  if (!getsignal) {
    // _signal's getsignal: signal.getsignal turns the handler into an enum by trying (and
    // failing, with exceptions) each of its members, a few µs per call.
    py::module_ signal = py::module_::import("_signal");
    getsignal = new py::object(signal.attr("getsignal"));  // kept for the process's life
    default_handler = new py::object(signal.attr("default_int_handler"));
    main_thread =
        py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  }
  if (PyThread_get_thread_ident() != main_thread) return false;
  return (*getsignal)(SIGINT).is(*default_handler);
}

// While alive, SIGINT stops the running call (the REPL's handler, repl/interrupt.hpp): the run
// ends at its next loop pass or call with a runtime error, which the call raises as
// KeyboardInterrupt. The handler that was there (Python's) is put back after.
class InterruptScope {
 public:
  explicit InterruptScope(bool on) {
    if (!on) return;
    handler_.emplace();
    running_.emplace();
  }
  const std::atomic<bool>* flag() const { return handler_ ? repl::interrupt_flag() : nullptr; }
  bool interrupted() const { return handler_ && repl::interrupt_requested(); }

 private:
  std::optional<repl::InterruptHandler> handler_;
  std::optional<repl::RunningInput> running_;
};

// One call runs at a time in the process: the interpreter's host threads already use every core,
// and a run sets process-wide state (the memory budget, the offload tier's free hook).
std::mutex g_run_mutex;

// ---- where a call runs
// ---------------------------------------------------------------------------

// The deepest chain of calls each function can start (itself counted as 1), or -1 where a call it
// can reach recurses (a Vx call can then nest up to the interpreter's call-depth limit).
std::vector<int> call_depths(const tir::Program& program) {
  const size_t n = program.functions.size();
  std::vector<std::vector<int>> callees(n);
  for (size_t i = 0; i < n; ++i)
    tir::walk_block(program.functions[i].body, [&](const tir::Stmt*, const tir::Expr* e) {
      if (e && e->kind == tir::ExprKind::Call && e->fn_index >= 0)
        callees[i].push_back(e->fn_index);
    });
  constexpr int kUnseen = 0, kOpen = -2, kRecursive = -1;
  std::vector<int> depth(n, kUnseen);
  std::function<int(int)> visit = [&](int f) {
    int& d = depth[static_cast<size_t>(f)];
    if (d == kOpen) return kRecursive;
    if (d != kUnseen) return d;
    d = kOpen;
    int deepest = 1;
    for (int c : callees[static_cast<size_t>(f)]) {
      const int below = visit(c);
      if (below == kRecursive) {
        deepest = kRecursive;
        break;
      }
      deepest = std::max(deepest, below + 1);
    }
    return depth[static_cast<size_t>(f)] = deepest;
  };
  for (size_t i = 0; i < n; ++i) visit(static_cast<int>(i));
  return depth;
}

// The bytes of stack below this point on the calling thread (found once per thread).
size_t stack_left() {
  thread_local uintptr_t low = 0;
  if (low == 0) {
    pthread_attr_t attr;
    void* base = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
    pthread_attr_getstack(&attr, &base, &size);
    pthread_attr_destroy(&attr);
    low = reinterpret_cast<uintptr_t>(base);
  }
  char here;
  const auto at = reinterpret_cast<uintptr_t>(&here);
  return at > low ? at - low : 0;
}

// Whether a function whose calls nest `depth` deep runs on the caller's thread: saved a thread's
// start and end, and the two hand-overs between threads, which are most of a small call's time on
// a loaded machine. A few KiB of stack each Vx call takes in the interpreter (interpreter.hpp);
// 64 KiB a level and 2 MiB for the rest (expressions nest at most 256 deep) leave a wide margin.
// A recursive function runs on run_program's thread with its 1 GiB stack, as under `vx run`.
bool runs_here(int depth) {
  if (depth < 1 || depth > 64) return false;
  return stack_left() >= (size_t{2} << 20) + static_cast<size_t>(depth) * (size_t{64} << 10);
}

// ---- a call's options ---------------------------------------------------------------------------

struct CallOptions {
  std::string offload = "off";
  int host_threads = 0;
  int64_t max_steps = 0;
  bool check_races = false;
};

const char* const kOptionNames[] = {"offload", "host_threads", "max_steps", "check_races"};

// Takes the options out of `kwargs` into `opt`; returns the keyword arguments left (a copy of the
// dict when it held options).
py::object take_options(py::object kwargs, CallOptions& opt) {
  if (kwargs.is_none() || PyDict_GET_SIZE(kwargs.ptr()) == 0) return kwargs;
  py::dict rest;
  bool any = false;
  for (const char* name : kOptionNames) any = any || PyDict_GetItemString(kwargs.ptr(), name);
  if (!any) return kwargs;
  rest = py::reinterpret_steal<py::dict>(PyDict_Copy(kwargs.ptr()));
  auto take = [&](const char* name) -> py::object {
    if (!rest.contains(name)) return py::none();
    py::object v = rest[name];
    PyDict_DelItemString(rest.ptr(), name);
    return v;
  };
  if (py::object v = take("offload"); !v.is_none()) {
    const std::string mode = py::isinstance<py::str>(v) ? v.cast<std::string>() : std::string();
    if (mode != "off" && mode != "verify" && mode != "gpu")
      throw py::value_error("offload= takes \"off\", \"verify\" or \"gpu\", not " +
                            std::string(py::repr(v)));
    opt.offload = mode;
  }
  if (py::object v = take("host_threads"); !v.is_none()) {
    if (!py::isinstance<py::int_>(v) || v.cast<int64_t>() < 1 || v.cast<int64_t>() > 4096)
      throw py::value_error(
          "host_threads= takes a number of threads from 1 to 4096 (None: "
          "VX_HOST_THREADS, else every core), not " +
          std::string(py::repr(v)));
    opt.host_threads = v.cast<int>();
  }
  if (py::object v = take("max_steps"); !v.is_none()) {
    if (!py::isinstance<py::int_>(v) || v.cast<int64_t>() < 0)
      throw py::value_error(
          "max_steps= takes a number of steps, 0 or more (0 or None: no limit), "
          "not " +
          std::string(py::repr(v)));
    opt.max_steps = v.cast<int64_t>();
  }
  if (py::object v = take("check_races"); !v.is_none()) {
    if (!PyBool_Check(v.ptr()))
      throw py::value_error("check_races= takes True or False, not " + std::string(py::repr(v)));
    opt.check_races = v.ptr() == Py_True;
  }
  return rest;
}

// What the run printed on its error stream: the offload tier's notes (`no CUDA device`, `vx: …`)
// become vx.OffloadWarning; the program's own `eprintln!` goes to sys.stderr.
void forward_output(const std::string& out, const std::string& err) {
  if (!out.empty()) py::module_::import("sys").attr("stdout").attr("write")(out);
  std::string program_err;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) {
    if (line == "no CUDA device" || line.starts_with("vx: ")) {
      py::object category = py::module_::import("vx").attr("OffloadWarning");
      if (PyErr_WarnEx(category.ptr(), line.c_str(), 2) != 0) throw py::error_already_set();
    } else {
      program_err += line + "\n";
    }
  }
  if (!program_err.empty()) py::module_::import("sys").attr("stderr").attr("write")(program_err);
}

// ---- a compiled program -------------------------------------------------------------------------

class Program {
 public:
  // `text` the source, `path` the name its diagnostics give it.
  Program(std::shared_ptr<SourceFile> file, const std::string& machine_path, bool deny_warnings)
      : machine_(default_machine()) {
    if (!machine_path.empty()) {
      std::ostringstream err;
      if (!pipeline::load_machine_for(machine_path, file->path(), machine_, err,
                                      ErrorFormat::Json)) {
        std::string text;
        py::list diags = diagnostics_from_lines(err.str(), text);
        raise_vx("CompileError", text, diags);
      }
    }
    pipeline::Options options;
    options.through = pipeline::Step::OffloadMarks;
    options.machine = &machine_;
    options.deny_warnings = deny_warnings;
    options.needs_main = false;
    {
      py::gil_scoped_release release;
      compiled_ = pipeline::compile(std::move(file), options);
    }
    if (!compiled_.ok())
      raise_vx("CompileError", rendered(*compiled_.diags), diagnostics_list(*compiled_.diags));
    warnings_ = diagnostics_list(*compiled_.diags);
    const tir::Program& program = *compiled_.program;
    for (size_t i = 0; i < program.functions.size(); ++i) {
      const tir::Function& fn = program.functions[i];
      if (!fn.is_pub) continue;
      FunctionInfo info;
      info.index = static_cast<int>(i);
      info.name = fn.name;
      info.params = params::of(fn);
      for (const params::Param& p : info.params) {
        names_.push_back(
            py::reinterpret_steal<py::object>(PyUnicode_InternFromString(p.name.c_str())));
        info.param_names.push_back(names_.back().ptr());
      }
      infos_.emplace(static_cast<int>(i), std::move(info));
    }
    depths_ = call_depths(program);
  }

  static std::unique_ptr<Program> from_source(const std::string& source, const std::string& path,
                                              const std::string& machine, bool deny_warnings) {
    std::string text = source;
    if (text.starts_with(kByteOrderMark)) text.erase(0, kByteOrderMark.size());
    auto file = std::make_shared<SourceFile>(path, std::move(text));
    if (file->text().size() > kMaxSourceBytes) {  // as a file over the limit is refused
      Diagnostics diags(file);
      diags.error("E0003", {0, 0}, source_too_large_message(), "the source starts here");
      raise_vx("CompileError", rendered(diags), diagnostics_list(diags));
    }
    return std::make_unique<Program>(std::move(file), machine, deny_warnings);
  }

  static std::unique_ptr<Program> from_file(const std::string& path, const std::string& machine,
                                            bool deny_warnings) {
    std::ostringstream err;
    int status = 0;
    auto file = read_source_or_report(path, err, ErrorFormat::Json, status);
    if (!file) {
      std::string text;
      py::list diags = diagnostics_from_lines(err.str(), text);
      if (status == 1) raise_vx("CompileError", text, diags);
      // Unreadable: the message as `vx` gives it ("cannot read `x.vx`: No such file or directory").
      std::string message = text.starts_with("error: ") ? text.substr(7) : text;
      while (!message.empty() && message.back() == '\n') message.pop_back();
      PyErr_SetString(PyExc_OSError, message.c_str());
      throw py::error_already_set();
    }
    return std::make_unique<Program>(std::move(file), machine, deny_warnings);
  }

  const std::string& path() const { return compiled_.file->path(); }
  const std::string& source() const { return compiled_.file->text(); }
  py::list warnings() const { return warnings_; }

  // Every `pub fn`, in the order of the source: its name, its signature, its parameters and
  // return type as Vx writes them, its doc comment and its line.
  py::list functions() const {
    py::list out;
    const tir::Program& program = *compiled_.program;
    for (const auto& [index, info] : infos_) {
      const tir::Function& fn = program.functions[static_cast<size_t>(index)];
      py::list ps;
      for (const params::Param& p : info.params)
        ps.append(py::make_tuple(p.name, type_name(p.type)));
      const Type* aggregate = params::returned_aggregate(fn);
      const Type& ret = aggregate ? *aggregate : fn.ret;
      py::dict d;
      d["name"] = fn.name;
      d["signature"] = fn.name + params::signature(fn).substr(2);  // `fn(…)` with its name
      d["params"] = ps;
      d["returns"] = ret.is_unit() ? py::object(py::none()) : py::object(py::str(type_name(ret)));
      d["doc"] = doc_comment(*compiled_.file, fn.span);
      d["line"] = compiled_.file->line_col(fn.span.begin).line;
      out.append(d);
    }
    return out;
  }

  // The index of the `pub fn` `name`; AttributeError (the message of `vx call`) when there is none.
  int function_index(const std::string& name) const {
    std::string why;
    const int index = call::find_pub_fn(*compiled_.program, name, "Python", why);
    if (index < 0) throw py::attribute_error(why);
    return index;
  }

  py::object call(int index, py::tuple args, py::object kwargs_in) {
    auto it = infos_.find(index);
    if (it == infos_.end())
      throw py::value_error("no `pub fn` has the index " + std::to_string(index));
    const FunctionInfo& info = it->second;
    const tir::Function& fn = compiled_.program->functions[static_cast<size_t>(index)];
    CallOptions opt;
    py::object kwargs = take_options(std::move(kwargs_in), opt);
    BoundCall bound;
    try {
      bind_arguments(fn, info, args.ptr(), kwargs.is_none() ? nullptr : kwargs.ptr(), opt.offload,
                     bound);
    } catch (const ArgumentRefused& e) {
      raise_vx("ArgumentError", std::string(e.what()));
    }

    pipeline::RunRequest run;
    run.offload.mode = opt.offload;
    run.check_races = opt.check_races;
    run.max_steps = opt.max_steps;
    run.host_threads = opt.host_threads;
    run.entry = index;
    run.on_this_thread = runs_here(depths_[static_cast<size_t>(index)]);
    std::optional<nlohmann::json> error;
    run.report_error = [&](std::ostream&, const Diagnostic& d) {
      error = diagnostic_json(*compiled_.file, d);
    };
    run.bind = [&](const tir::Function&, interp::Frame& frame) {
      for (const auto& [slot, bits] : bound.scalars) frame.s[slot] = bits;
      for (TensorArgument& a : bound.tensors) {
        if (a.by_value) {  // moved into the call: the function owns (and may change) a copy
          auto s = std::make_unique<interp::TensorStorage>(a.type->scalar, a.type->memory, a.dims,
                                                           false);
          if (a.bytes) std::memcpy(s->data, a.data, a.bytes);
          frame.t[a.slot].own(std::move(s));
        } else {  // the caller's memory itself, with no storage of vx's behind it
          frame.t[a.slot].view = {a.data, nullptr, a.dims.data(), static_cast<int>(a.dims.size()),
                                  a.size, nullptr};
        }
      }
    };
    // CUDA tensors: their device memory is the offload tier's copy of them, used in place.
    std::string adopt_error;
    if (std::any_of(bound.tensors.begin(), bound.tensors.end(),
                    [](const TensorArgument& a) { return a.device != 0; }))
      run.around = [&](offload::OffloadRunner* runner) -> interp::RegionRunner* {
        for (TensorArgument& a : bound.tensors) {
          std::string why;
          if (a.device && !runner->adopt_device_memory(a.data, a.device, a.bytes, why))
            throw ArgumentRefused("`" + a.name + "` is in the memory of the GPU, and " + why);
        }
        return runner;
      };
    Returned returned;
    bool finished = false;
    run.at_end = [&](const tir::Function& f, interp::Frame& frame, size_t) {
      capture_return(f, frame, returned);
      finished = true;
    };
    std::ostringstream out, err;
    bool interrupted = false;
    {
      InterruptScope interrupt(interruptible());
      run.interrupt = interrupt.flag();
      {
        py::gil_scoped_release release;
        std::lock_guard<std::mutex> lock(g_run_mutex);
        try {
          pipeline::run(compiled_, run, out, err);
        } catch (const ArgumentRefused& e) {  // from `around`, before anything ran
          adopt_error = e.what();
        }
      }
      interrupted = interrupt.interrupted();
    }
    bound.borrows.clear();  // DLPack deleters and buffer releases need the GIL: held again here
    forward_output(out.str(), err.str());
    if (!adopt_error.empty()) raise_vx("ArgumentError", adopt_error);
    if (finished) {
      // Ctrl-C came as the function ended: its results are whole, and the KeyboardInterrupt is
      // Python's to raise at its next check, as for a C call that SIGINT did not stop.
      if (interrupted) PyErr_SetInterrupt();
      return return_value(returned);
    }
    if (interrupted) {
      PyErr_SetNone(PyExc_KeyboardInterrupt);
      throw py::error_already_set();
    }
    if (error) raise_vx("KernelError", from_json(*error), py::none());
    // An error with no place in the program (out of memory, an internal error): its text.
    raise_vx("KernelError", py::none(), err.str());
  }

  // The CUDA C++ of the program's regions, as `vx emit-cuda` prints it.
  std::string cuda() const {
    std::ostringstream s;
    pipeline::print_dump(s, pipeline::Dump::Cuda, compiled_);
    return s.str();
  }

 private:
  Machine machine_;
  pipeline::Compiled compiled_;
  py::list warnings_;
  std::map<int, FunctionInfo> infos_;  // by index in Program::functions: the `pub fn`s, in order
  std::vector<py::object> names_;      // the parameters' names, interned (infos_ point to them)
  std::vector<int> depths_;            // call_depths of the program's functions
};

// `vx.check`: the checker and the kernel rules with their proofs and maps, for a report rather
// than a run: the diagnostics, and when the kernel rules ran, the maps of who writes what (SVG and
// text) and the tables of --explain.
py::dict check(const std::string& source, const std::string& path,
               const std::string& machine_path) {
  Machine machine = default_machine();
  auto file = std::make_shared<SourceFile>(path, source);
  if (!machine_path.empty()) {
    std::ostringstream err;
    if (!pipeline::load_machine_for(machine_path, path, machine, err, ErrorFormat::Json)) {
      std::string text;
      py::list diags = diagnostics_from_lines(err.str(), text);
      raise_vx("CompileError", text, diags);
    }
  }
  pipeline::Options options;
  options.through = pipeline::Step::KernelRules;
  options.machine = &machine;
  options.explain = true;
  options.maps = true;
  options.needs_main = false;
  pipeline::Compiled c;
  std::string svg, map_text, explain;
  bool rules_ran = false;
  {
    py::gil_scoped_release release;
    c = pipeline::compile(file, options);
    rules_ran = c.ok() || *c.refused_at == pipeline::Step::KernelRules;
    if (rules_ran) {
      std::ostringstream s, t, e;
      if (!c.explained.empty()) kr::render_maps(s, *file, c.explained, kr::MapFormat::Svg, false);
      kr::render_maps(t, *file, c.explained, kr::MapFormat::Text, false);
      kr::emit_explain(e, *file, c.explained, ErrorFormat::Human);
      svg = s.str();
      map_text = t.str();
      explain = e.str();
    }
  }
  py::dict out;
  out["ok"] = c.ok();
  out["diagnostics"] = diagnostics_list(*c.diags);
  out["rendered"] = rendered(*c.diags);
  out["rules_ran"] = rules_ran;
  out["svg"] = svg.empty() ? py::object(py::none()) : py::object(py::str(svg));
  out["map_text"] = map_text;
  out["explain"] = explain;
  out["stores"] = c.explained.size();
  return out;
}

}  // namespace

}  // namespace vx::python

PYBIND11_MODULE(_vx, m) {
  using namespace vx::python;
  m.doc() = "The extension module of the package vx (spec/python.md); use `import vx`.";
  py::class_<Program>(m, "Program")
      .def_static("from_source", &Program::from_source, py::arg("source"), py::arg("path"),
                  py::arg("machine"), py::arg("deny_warnings"))
      .def_static("from_file", &Program::from_file, py::arg("path"), py::arg("machine"),
                  py::arg("deny_warnings"))
      .def_property_readonly("path", &Program::path)
      .def_property_readonly("source", &Program::source)
      .def_property_readonly("warnings", &Program::warnings)
      .def("functions", &Program::functions)
      .def("function_index", &Program::function_index)
      .def("call", &Program::call)
      .def("cuda", &Program::cuda);
  m.def("check", &check, py::arg("source"), py::arg("path"), py::arg("machine"));
}
