// See host_parallel.hpp.
#include "interp/host_parallel.hpp"

// VX_NO_HOST_THREADS (the WebAssembly build, web/wasm.cmake): no TBB; one thread runs the blocks in
// order, which is the sequential meaning every host-parallel run must agree with anyway.
#ifndef VX_NO_HOST_THREADS
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <limits>
#include <map>
#include <mutex>

#include "check/tir_walk.hpp"
#include "interp/atomic.hpp"
#include "support/env_numbers.hpp"

namespace vx::interp {

std::optional<int> host_threads_from_env(std::string* error) {
  if (const auto n = env_count("VX_HOST_THREADS", 1, 4096, "threads", error))
    return static_cast<int>(*n);
  return std::nullopt;
}

#ifdef VX_NO_HOST_THREADS
struct HostThreads::Controls {};
HostThreads::HostThreads(int /*requested: one thread runs them all here*/) {}
#else
struct HostThreads::Controls {
  tbb::global_control threads;
  tbb::global_control stack;
  Controls(int n, size_t stack_bytes)
      : threads(tbb::global_control::max_allowed_parallelism, static_cast<size_t>(n)),
        stack(tbb::global_control::thread_stack_size, stack_bytes) {}
};

HostThreads::HostThreads(int requested) {
  count_ = tbb::info::default_concurrency();
  if (requested >= 1 && requested <= 4096) {
    count_ = requested;
  } else {
    std::string error;  // said before the run (run_on_this_thread)
    if (const std::optional<int> n = host_threads_from_env(&error)) count_ = *n;
  }
  if (count_ < 1) count_ = 1;
  // Block code may call functions up to the call-depth limit, as the main thread may
  // (run_program's thread): reserve the same order of stack; only touched pages are committed.
  controls_ = std::make_unique<Controls>(count_, size_t{256} << 20);
}
#endif

HostThreads::~HostThreads() = default;

namespace {

// The failure of the lowest pass seen so far. Only the error path takes the lock.
struct FirstFailure {
  std::atomic<int64_t> pass{std::numeric_limits<int64_t>::max()};
  std::mutex mutex;
  std::exception_ptr error;

  void record(int64_t k, std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(mutex);
    if (k < pass.load(std::memory_order_relaxed)) {
      pass.store(k, std::memory_order_relaxed);
      error = std::move(e);
    }
  }
  // A pass after a failing one need not run: the sequential run never reaches it.
  bool skip(int64_t k) const { return k > pass.load(std::memory_order_relaxed); }
};

// A frame for a task: the scalars of `f` copied, its tensor slots as views (never owning), so
// that tiles the block code makes belong to the task. The scalar slots (loop variables are
// written on every pass) get a cache line of padding on each side, so that two tasks' frames
// never share a line.
constexpr size_t kPadSlots = 64 / sizeof(uint64_t);
void copy_frame(const Frame& f, Frame& task) {
  // The slot count (scalars_ may be padded); a frame has far fewer than 2^31 slots, which the
  // bound tells GCC 12 (else it warns that the copy's size could exceed any object).
  const size_t n = std::min<size_t>(f.tensors_.size(), INT32_MAX);
  task.scalars_.assign(n + 2 * kPadSlots, 0);
  task.s = task.scalars_.data() + kPadSlots;
  std::copy(f.s, f.s + n, task.s);
  for (size_t i = 0; i < n; ++i) task.t[i].view = f.t[i].view;
}

constexpr int64_t kMaxPrivateElements = 4096;

// The task's copies of the loop's private-sum tensors (those of at most kMaxPrivateElements
// elements, without written-flags).
void start_private_sums(const Frame& task, const PrivateSumPlan& plan, PrivateSums& out) {
  for (const auto& s : plan.tensors) {
    const TensorView& v = task.t[s.slot].view;
    if (!v.data || v.init || v.size <= 0 || v.size > kMaxPrivateElements) continue;
    const std::byte* end = v.data + v.size * s.elem_bytes;
    bool aliased = false;
    for (int o : plan.others) {
      const TensorView& w = task.t[o].view;
      // A view's elements lie in its storage: any overlap of the storages' bytes is an alias.
      if (!w.data) continue;  // a scalar, or no tensor now
      const std::byte* wd = w.storage ? w.storage->data : w.data;
      const int64_t wbytes =
          w.storage ? w.storage->size * (scalar_info(w.storage->elem).bits / 8) : 1;
      if (wd < end && v.data < wd + wbytes) aliased = true;
      if (w.data == v.data) aliased = true;
    }
    if (aliased) continue;
    out.entries.push_back(
        {v.data, s.elem_bytes, std::vector<uint64_t>(static_cast<size_t>(v.size), 0)});
  }
}

template <class U>
void add_into(std::byte* data, const std::vector<uint64_t>& sums) {
  U* p = reinterpret_cast<U*>(data);
  for (size_t i = 0; i < sums.size(); ++i)
    if (static_cast<U>(sums[i]) != 0)
      std::atomic_ref<U>(p[i]).fetch_add(static_cast<U>(sums[i]), std::memory_order_relaxed);
}

// What the task summed, added to the tensors (also after a pass failed: the updates of the
// passes before it, and of that pass up to its error, are made, as in the sequential run).
void finish_private_sums(PrivateSums& sums) {
  for (auto& e : sums.entries) {
    switch (e.elem_bytes) {
      case 1:
        add_into<uint8_t>(e.data, e.sums);
        break;
      case 2:
        add_into<uint16_t>(e.data, e.sums);
        break;
      case 4:
        add_into<uint32_t>(e.data, e.sums);
        break;
      default:
        add_into<uint64_t>(e.data, e.sums);
        break;
    }
  }
  sums.entries.clear();
}

// Counts the uses of each local in the block, and collects the qualifying atomic calls.
struct SlotUses {
  std::map<int, int> var_uses;     // Var expressions per slot
  std::map<int, int> atomic_uses;  // qualifying atomic calls per tensor slot
  std::map<int, int> elem_bytes;   // their element size
  std::map<int, bool> defined;     // slots a `let` or a loop of the block defines
  std::vector<std::pair<int, int>>
      result_lets;  // (the let's slot, the tensor slot) of `let r = atomic…`
};

bool qualifying_atomic(const tir::Expr* e, int& tensor_slot, int& bytes) {
  using tir::BuiltinId;
  if (!e || e->kind != tir::ExprKind::Builtin) return false;
  if (e->builtin != BuiltinId::AtomicFetchAdd && e->builtin != BuiltinId::AtomicFetchSub)
    return false;
  if (!is_int(e->type.scalar) || e->args.size() < 2) return false;
  if (ordering_of(*e->args.back()) != std::memory_order_relaxed) return false;
  const tir::Expr* ref = e->args[0];
  if (ref->kind != tir::ExprKind::Ref || ref->args.size() != 1 ||
      ref->args[0]->kind != tir::ExprKind::Var)
    return false;
  tensor_slot = ref->args[0]->slot;
  bytes = scalar_info(e->type.scalar).bits / 8;
  return true;
}

}  // namespace

PrivateSumPlan private_sum_tensors(const tir::Stmt& loop) {
  SlotUses u;
  u.defined[loop.slot] = true;
  tir::walk_block(loop.body, [&](const tir::Stmt* s, const tir::Expr* e) {
    if (s) {
      if (s->kind == tir::StmtKind::Let || s->kind == tir::StmtKind::For) u.defined[s->slot] = true;
      int t = -1, bytes = 0;
      // The atomic's old value is dropped: a statement of its own, or `let _x = …` never read.
      if ((s->kind == tir::StmtKind::Expr || s->kind == tir::StmtKind::Let) &&
          qualifying_atomic(s->value, t, bytes)) {
        ++u.atomic_uses[t];
        u.elem_bytes[t] = bytes;
        if (s->kind == tir::StmtKind::Let) u.result_lets.push_back({s->slot, t});
      }
    }
    if (e && e->kind == tir::ExprKind::Var) ++u.var_uses[e->slot];
  });
  PrivateSumPlan out;
  for (auto& [t, n] : u.atomic_uses) {
    if (u.defined.count(t) || u.var_uses[t] != n) continue;  // used otherwise too
    bool read = false;
    for (auto& [let, tensor] : u.result_lets)
      if (tensor == t && u.var_uses[let] > 0) read = true;  // an old value is read
    if (!read) out.tensors.push_back({t, u.elem_bytes[t]});
  }
  if (out.tensors.empty()) return out;
  for (auto& [slot, n] : u.var_uses) {
    bool mine = u.defined.count(slot) > 0;
    for (auto& t : out.tensors) mine = mine || t.slot == slot;
    if (!mine) out.others.push_back(slot);
  }
  return out;
}

void run_blocks_parallel(Frame& f, int64_t count, uint64_t first, BlockPass pass, const void* self,
                         const PrivateSumPlan& private_sums) {
#ifdef VX_NO_HOST_THREADS
  // HostThreads counts one thread here, so the loop never asks; were it to, in order is right.
  for (int64_t k = 0; k < count; ++k) pass(self, f, first + static_cast<uint64_t>(k), k);
#else
  FirstFailure failure;
  const ExecContext& parent = *f.ctx;
  const int slot_count = static_cast<int>(f.tensors_.size());
  // At least about kChunksPerThread chunks per thread, no more: each chunk forks a context, copies
  // the frame, allocates its passes' tiles anew and merges its private sums, so chunks of a few
  // cheap passes (row sums: 4096 blocks of 1024 elements) spent more on that than on the passes.
  constexpr int64_t kChunksPerThread = 8;
  const int64_t threads = std::max(1, tbb::this_task_arena::max_concurrency());
  const auto grain =
      static_cast<size_t>(std::max<int64_t>(1, count / (kChunksPerThread * threads)));
  tbb::parallel_for(tbb::blocked_range<int64_t>(0, count, grain),
                    [&](const tbb::blocked_range<int64_t>& r) {
                      if (failure.skip(r.begin())) return;
                      ExecContext ctx;
                      parent.fork_into(ctx);
                      ctx.concurrent = true;
                      Frame task(slot_count);
                      copy_frame(f, task);
                      task.ctx = &ctx;
                      PrivateSums sums;  // never the parent's: a nested loop's tasks have their own
                      start_private_sums(task, private_sums, sums);
                      ctx.private_sums = sums.entries.empty() ? nullptr : &sums;
                      for (int64_t k = r.begin(); k != r.end(); ++k) {
                        if (failure.skip(k)) break;
                        try {
                          pass(self, task, first + static_cast<uint64_t>(k), k);
                        } catch (...) {
                          failure.record(k, std::current_exception());
                          break;
                        }
                      }
                      finish_private_sums(sums);
                    });
  if (failure.error) std::rethrow_exception(failure.error);
#endif
}

}  // namespace vx::interp
