// The interpreter: the sequential meaning of Vx (spec/semantics.md, DESIGN §3), run from an
// executable tree compiled once from the typed program.
//
// Layout of the executable tree
// -----------------------------
// * Every TIR expression becomes one Node (nodes.hpp). Scalar expressions are ExprT<T> for the
//   C++ storage type T of their Vx type (int8_t … uint64_t, F16, BF16, float, double, bool), so
//   `a + b` on f32 is a Binary<float, Add, …> whose eval() returns a float: no variant, no tag
//   test per value. Operands that are locals or constants are read in place by their parent
//   (OpAny, IntOperand) instead of being nodes of their own, which saves a virtual call per leaf.
// * Locals are frame slots, numbered as the TIR numbers them (tir::Function::slot_types). A Frame
//   holds an array of 8-byte scalar slots (integers sign/zero-extended, floats as bits) and a
//   parallel array of TensorSlots (a tensor the local owns, or a view of another's elements).
// * Tensors are row-major and contiguous; a view `t[i]` of a rank-n tensor is a pointer into the
//   same data with the dims suffix, so indexing is Horner's rule over dims. Indexing a local is
//   fused per rank (IndexLoadSlots<T, R> in compile_index.cpp): one call reads the view, checks
//   every index against its dimension, checks the init flag of an SMEM tile, and loads.
// * A `for` loop whose body is `let`s and one element store or atomic (the usual lane loop, and
//   many host loops) is a LaneLoop (compile_lane_loop.cpp): it proves once, from the range, that
//   every pass's accesses are in bounds and that running a chunk of passes together reads what
//   running them in order would, then computes each expression for 128 passes at a time in a
//   tight loop over arrays. When a proof fails, the general loop (ForStmt, ForStore) runs the
//   range one pass at a time, so errors stay where the sequential run has them.
// * Statements are StmtNodes whose exec() returns a Flow (normal, break, continue, return), so
//   loops need no exceptions. A `break`/`return` inside a block that is an operand of an
//   expression (`let x = { if c { return 1; } 2 };`) is the one rare case that unwinds, with a
//   FlowEscape caught by the enclosing statement (only statements that can need it get a catch).
// * Calls take a frame from the callee's pool (no allocation once warm) and count the depth.
// * Runtime errors throw RuntimeError, caught once in run_program; nothing on the normal path
//   throws or allocates, except making a tensor and printing.
// * A RegionRunner may take a `spawn on` region first (interpreter.hpp). In the interpreter, the
//   blocks of an `across blocks` loop run on TBB tasks, each with a copy of the frame
//   (host_parallel.hpp); lane loops, and everything with VX_HOST_THREADS=1, run one pass at a
//   time, in order.
//
// This file: the run-time basics (tensor storage and budgets, step limits, the error texts) and
// running a program (the thread with a large stack, the memory limit). compile_expr.cpp makes
// the generic expression nodes and operands, compile_stmt.cpp the statements and functions;
// compile_ops, compile_cast, compile_index, compile_lane_loop and builtins.cpp the rest.
#include "interp/interpreter.hpp"

#include <pthread.h>
#ifndef VX_NO_HOST_THREADS  // the WebAssembly build (web/wasm.cmake)
#include <tbb/task_arena.h>
#endif
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <nlohmann/json.hpp>
#include <sstream>

#include "check/tir_walk.hpp"
#include "interp/compiler.hpp"
#include "interp/host_parallel.hpp"
#include "interp/race_check.hpp"
#include "support/diagnostics.hpp"
#include "support/env_numbers.hpp"
#include "support/pass_name.hpp"

namespace vx::interp {

// ---- Runtime basics -----------------------------------------------------------------------------

int scalar_size(Scalar s) {
  return with_scalar(s, [](auto v) { return static_cast<int>(sizeof(v)); });
}

int64_t tensor_bytes(Scalar elem, const std::vector<int64_t>& dims, bool uninit) {
  __int128 n = 1;
  for (int64_t x : dims) {
    n *= x < 0 ? 0 : x;
    if (n > INT64_MAX) return INT64_MAX;
  }
  const __int128 b = n * (scalar_size(elem) + (uninit ? 1 : 0));
  return b > INT64_MAX ? INT64_MAX : static_cast<int64_t>(b);
}

TensorStorage::TensorStorage(Scalar e, Memory m, std::vector<int64_t> d, bool uninit)
    : elem(e), memory(m), dims(std::move(d)) {
  size = 1;
  for (int64_t x : dims) size *= x;
  const size_t data_bytes = static_cast<size_t>(size) * static_cast<size_t>(scalar_size(e));
  data =
      static_cast<std::byte*>(::operator new (data_bytes ? data_bytes : 1, std::align_val_t{64}));
  if (uninit) {
    try {
      init.reset(new uint8_t[size ? size : 1]());
    } catch (...) {
      ::operator delete (data, std::align_val_t{64});
      throw;
    }
  }
  bytes = static_cast<int64_t>(data_bytes) + (uninit ? size : 0);
  g_tensor_bytes.fetch_add(bytes, std::memory_order_relaxed);
}

TensorStorage::~TensorStorage() {
  g_tensor_bytes.fetch_sub(bytes, std::memory_order_relaxed);
  if (memory == Memory::Hbm && g_hbm_free_listener.hook)
    g_hbm_free_listener.hook(g_hbm_free_listener.context, data,
                             static_cast<size_t>(size) * static_cast<size_t>(scalar_size(elem)));
  ::operator delete (data, std::align_val_t{64});
}

namespace {

// 1536 -> "1536 bytes (1.5 KiB)".
std::string byte_text(int64_t b) {
  std::string s = std::to_string(b) + " bytes";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(b);
  int u = -1;
  while (v >= 1024 && u < 5) {
    v /= 1024;
    ++u;
  }
  if (u >= 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " (%.1f %s)", v, units[u]);
    s += buf;
  }
  return s;
}

}  // namespace

void check_tensor_budget(Scalar elem, const std::vector<int64_t>& dims, bool uninit, Span span) {
  const int64_t need = tensor_bytes(elem, dims, uninit);
  const int64_t live = g_tensor_bytes.load(std::memory_order_relaxed);
  if (need <= g_memory_limit - live) return;
  std::string shape;
  for (size_t k = 0; k < dims.size(); ++k) shape += (k ? ", " : "") + std::to_string(dims[k]);
  runtime_error(span, "out of memory: a tensor of [" + shape + "] needs " + byte_text(need) +
                          ", with " + byte_text(live) + " of tensors live; the limit is " +
                          byte_text(g_memory_limit) + " (VX_MEMORY_LIMIT)");
}

RunLimits RunLimits::starting_now(int64_t max_steps, double max_seconds,
                                  const std::atomic<bool>* interrupt) {
  RunLimits limits;
  limits.interrupt = interrupt;
  if (max_steps > 0) limits.max_steps = max_steps;
  if (max_seconds > 0) {
    limits.max_seconds = max_seconds;
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    const double ns = max_seconds * 1e9;
    limits.deadline_ns = static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec +
                         (ns >= 9e18 ? int64_t{9000000000000000000} : static_cast<int64_t>(ns));
  }
  return limits;
}

void RunLimits::interrupted(Span span) { runtime_error(span, kInterrupted); }

void RunLimits::charge(int64_t n, Span span) {
  poll(span);
  if (!counts()) return;  // interruptible only: other threads may be here too
  const int64_t before = steps;
  steps = n > INT64_MAX - steps ? INT64_MAX : steps + n;
  if (steps > max_steps)
    runtime_error(span, "step limit reached: more than " + std::to_string(max_steps) +
                            " steps (loop passes and calls; --max-steps)");
  // The clock is read once every 2^14 steps (and at every bulk count).
  if (max_seconds > 0 && (n > 1 || (before >> 14) != (steps >> 14))) {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    const int64_t now = static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
    if (now > deadline_ns) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g", max_seconds);
      runtime_error(span, std::string("time limit reached: the run took more than ") + buf +
                              " s (--max-seconds)");
    }
  }
}

void TensorSlot::own(std::unique_ptr<TensorStorage> s) {
  view = whole_view(*s);
  owned = std::move(s);
}

void runtime_error(Span span, std::string message) {
  throw RuntimeError{span, std::move(message), {}};
}

std::string pass_suffix(const std::vector<ErrorPass>& passes, const char* lane_word) {
  if (passes.empty()) return {};
  std::vector<int64_t> blocks, lanes;
  std::string vars;
  for (auto p = passes.rbegin(); p != passes.rend(); ++p) {  // outermost first
    (p->block ? blocks : lanes).push_back(p->index);
    vars += (vars.empty() ? "`" : ", `") + p->var + "` = " + p->value;
  }
  return " in " + pass_name(blocks, lanes, lane_word) + " (" + vars + ")";
}

std::string int_operand_text(uint64_t bits, bool is_unsigned) {
  return is_unsigned ? std::to_string(bits) : std::to_string(static_cast<int64_t>(bits));
}

void index_error(Span span, const std::string& name, int dim, uint64_t index, bool is_unsigned,
                 int64_t len) {
  runtime_error(span, "index out of bounds: the len is " + std::to_string(len) +
                          " but the index is " + int_operand_text(index, is_unsigned) +
                          " (dimension " + std::to_string(dim) + " of `" + name + "`)");
}

std::string element_text(const TensorView& v, int64_t offset) {
  std::vector<int64_t> idx(v.rank);
  for (int k = v.rank - 1; k >= 0; --k) {
    idx[k] = v.dims[k] ? offset % v.dims[k] : 0;
    offset = v.dims[k] ? offset / v.dims[k] : 0;
  }
  std::string s = "[";
  for (int k = 0; k < v.rank; ++k) s += (k ? ", " : "") + std::to_string(idx[k]);
  return s + "]";
}

void uninit_error(Span span, const std::string& name, const TensorView& v, int64_t offset) {
  runtime_error(span, "read of uninitialised element " + element_text(v, offset) +
                          " of SMEM tile `" + name + "`");
}

std::string div_zero_message(tir::BinOp op) {
  return op == tir::BinOp::Div ? "attempt to divide by zero"
                               : "attempt to calculate the remainder with a divisor of zero";
}

void shift_error(Span span, bool left, uint64_t amount, bool amount_unsigned, Scalar lhs) {
  runtime_error(span, std::string("attempt to shift ") + (left ? "left" : "right") + " by " +
                          int_operand_text(amount, amount_unsigned) +
                          ", which is out of range for " + scalar_info(lhs).name);
}

void record_access(Frame& f, const TensorView& v, int64_t offset, const std::string& name,
                   bool write, Span span, bool atomic) {
  ExecContext* ctx = f.ctx;
  if (!ctx->races || ctx->across_open == 0) return;
  // A storage's identity is a number given at its first recorded access, not its address: a
  // tile or register tensor freed by one pass may be allocated again at the same address by the
  // next, and is still another buffer.
  static std::atomic<uint64_t> next_id{1};
  const void* buffer = v.data;
  int64_t element = offset;
  if (TensorStorage* st = v.storage) {
    if (st->race_id == 0) st->race_id = next_id.fetch_add(1, std::memory_order_relaxed);
    buffer = reinterpret_cast<const void*>(static_cast<uintptr_t>(st->race_id));
    element += static_cast<int64_t>(v.data - st->data) / scalar_size(st->elem);
  }
  if (const RaceReport* r = ctx->races->access(buffer, name, element, write, atomic, span))
    throw RuntimeError{span, "data race: " + r->message(), {}, true};  // names both passes
}

uint64_t Node::eval_bits(Frame&) const { internal_error("a tensor used as a scalar"); }
void Node::eval_tensor(Frame& f, TensorSlot& out) const {
  (void)f;
  (void)out;
  internal_error("a scalar used as a tensor");
}
const TensorView& Node::place(Frame& f, TensorSlot& tmp) const {
  eval_tensor(f, tmp);
  return tmp.view;
}

// ---- Running ------------------------------------------------------------------------------------

namespace {

// VX_MEMORY_LIMIT: bytes, with an optional K, M, G or T suffix (powers of 1024); unset: half of
// the physical memory (8 GiB when that is unknown). Sets `error` when the value is not a size.
int64_t memory_limit(std::string* error) {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  const int64_t half =
      pages > 0 && page > 0 ? static_cast<int64_t>(pages) * page / 2 : int64_t{8} << 30;
  return env_byte_size("VX_MEMORY_LIMIT", half, error).value_or(0);
}

// Has TBB start the host threads' workers now, in the background, when the program has an
// across-blocks loop, so that its first loop does not wait for them: on two threads the first of
// two identical row-sum regions took 5 to 10 ms and the second 2.5 to 3 (one thread: 3 and 3),
// a serial part of the kernel's time that one thread never pays. A task enqueued here runs on a
// worker, never on this thread, which goes on at once.
void start_host_workers(const tir::Program& program, int threads) {
  bool across_blocks = false;
  for (const tir::Function& fn : program.functions)
    tir::walk_block(fn.body, [&](const tir::Stmt* s, const tir::Expr*) {
      if (s && s->kind == tir::StmtKind::For && s->across == tir::Across::Blocks)
        across_blocks = true;
    });
#ifndef VX_NO_HOST_THREADS
  if (across_blocks)
    for (int i = 1; i < threads; ++i) tbb::this_task_arena::enqueue([] {});
#endif
}

struct RunJob {
  const tir::Program* program;
  const RunOptions* options;
  int status = 0;
};

int run_on_this_thread(const tir::Program& program, const RunOptions& options) {
  std::ostream& err = *options.err;
  std::string env_error;
  g_memory_limit = memory_limit(&env_error);
  if (env_error.empty() && options.host_threads < 1) host_threads_from_env(&env_error);
  if (!env_error.empty()) {
    render_plain_error(err, env_error, options.error_format);
    return 2;
  }
  RunLimits limits =
      RunLimits::starting_now(options.max_steps, options.max_seconds, options.interrupt);
  try {
    const int entry = options.entry >= 0 ? options.entry : program.main_index;
    if (entry < 0 || entry >= static_cast<int>(program.functions.size()))
      internal_error("the program has no main");
    Compiler compiler(program);
    compiler.record_races = options.race_recorder != nullptr;
    compiler.marks = options.marks;
    auto functions = compiler.compile_all();
    HostThreads threads(options.host_threads);
    ExecContext ctx;
    ctx.out = options.out;
    ctx.err = options.err;
    ctx.runner = options.runner;
    ctx.races = options.race_recorder;
    ctx.functions = &functions;
    ctx.program = &program;
    ctx.max_depth = options.max_call_depth;
    if (options.after_region) ctx.after_region = &options.after_region;
    // With a step or time limit the blocks run in order on this thread: the count is the same
    // from run to run, and so is where it stops.
    // So also while a `dbg!` prints the passes' values: its lines come in the passes' order.
    ctx.host_threads = limits.counts() || compiler.has_dbg ? 1 : threads.count();
    if (ctx.host_threads > 1) start_host_workers(program, ctx.host_threads);
    if (limits.limited()) ctx.limits = &limits;
    const char* time_kernel = std::getenv("VX_TIME_KERNEL");
    ctx.time_kernel = time_kernel && std::strcmp(time_kernel, "1") == 0;
    ctx.pools.resize(functions.size());
    CompiledFunction& main_fn = *functions[entry];
    Frame* frame = main_fn.acquire(&ctx);
    int status = 0;
    try {
      do {
        if (options.bind) options.bind(*main_fn.fn, *frame);
        // run_list, counting the statements that end (the compiled body is main.body->stmts,
        // one node each, then its tail or `return`).
        size_t ran = 0;
        for (const StmtNode* s : main_fn.body) {
          if (s->exec(*frame) != Flow::Normal) break;
          ++ran;
        }
        if (options.at_end)
          options.at_end(*main_fn.fn, *frame, std::min(ran, main_fn.fn->body->stmts.size()));
      } while (options.again && options.again());
      if (entry == program.main_index && main_fn.fn->ret.is_scalar(Scalar::I32))
        status = static_cast<int>(static_cast<uint32_t>(frame->ret_bits) & 0xFF);
    } catch (...) {
      options.out->flush();
      throw;
    }
    options.out->flush();
    return status;
  } catch (const RuntimeError& e) {
    Diagnostic d;
    d.message = "runtime error: " + e.message + pass_suffix(e.passes);
    d.span = e.span;
    // The passes also as data (spec/cli.md §5), outermost first: the Python package's
    // KernelError reads them.
    for (auto p = e.passes.rbegin(); p != e.passes.rend(); ++p)
      (*d.data)["passes"].push_back({{"loop", p->block ? "block" : "lane"},
                                     {"index", p->index},
                                     {"var", p->var},
                                     {"value", p->value}});
    if (options.report_error)
      options.report_error(err, d);
    else
      render_human(err, *program.file, d);
    err.flush();
    return 101;
  } catch (const FlowEscape&) {
    const std::string text = internal_error_text("a break or return left its function",
                                                 __builtin_FILE(), __builtin_LINE());
    notify_internal_error(text);
    render_plain_error(err, text, options.error_format);
    return 70;
  } catch (const InternalError& e) {
    render_plain_error(err, e.what(), options.error_format);
    return 70;
  } catch (const std::bad_alloc&) {
    render_plain_error(err, "runtime error: out of memory", options.error_format);
    return 101;
  }
}

void* run_thread(void* p) {
  auto* job = static_cast<RunJob*>(p);
  job->status = run_on_this_thread(*job->program, *job->options);
  return nullptr;
}

}  // namespace

int run_program(const tir::Program& program, const RunOptions& options) {
  if (options.on_this_thread) return run_on_this_thread(program, options);
  RunJob job{&program, &options};
  pthread_attr_t attr;
  pthread_t thread;
  // 10,000 nested Vx calls take a few tens of MiB of C++ stack; reserve plenty (only touched
  // pages are committed).
  const size_t stack = size_t{1} << 30;
  if (pthread_attr_init(&attr) == 0) {
    const bool ok = pthread_attr_setstacksize(&attr, stack) == 0 &&
                    pthread_create(&thread, &attr, run_thread, &job) == 0;
    pthread_attr_destroy(&attr);
    if (ok) {
      pthread_join(thread, nullptr);
      return job.status;
    }
  }
  return run_on_this_thread(program, options);
}

}  // namespace vx::interp
