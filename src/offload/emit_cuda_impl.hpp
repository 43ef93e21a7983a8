// Internal to the CUDA emitter (src/offload/emit_*.cpp), not an API: the RegionEmitter class
// that emit_regions() runs once per `spawn on` region, and the helpers its files share. It
// guarantees what emit_cuda.hpp does; needs a checked typed program. spec/offload.md, DESIGN §5.
//
// The emitter's files: emit_cuda.cpp (the region: captures, kernel signature, shared arrays,
// device functions, emit_regions), emit_expr.cpp (expressions and tensor operands), emit_stmt.cpp
// (statements, and block code as barrier-separated steps and lane loops), emit_collectives.cpp
// (lanes:: reductions, sort, copy_async), tile_analysis.cpp and region_queries.cpp (analyses).
#pragma once
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "check/tir_walk.hpp"
#include "offload/emit_cuda.hpp"
#include "offload/region_queries.hpp"
#include "offload/tile_analysis.hpp"

namespace vx::offload::emit {

using tir::BinOp;
using tir::BuiltinId;
using tir::Expr;
using tir::ExprKind;
using tir::Stmt;
using tir::stmt_has;
using tir::StmtKind;
using tir::walk_block;
using tir::walk_expr;
using tir::walk_stmt;

// Why a region cannot be emitted: thrown by unsupported() anywhere in the emitter, caught by
// emit_regions(), which keeps the region on the interpreter with the reason.
struct Unsupported {
  std::string reason;
};
[[noreturn]] inline void unsupported(std::string why) { throw Unsupported{std::move(why)}; }

// C types, literals and arithmetic of scalars (emit_expr.cpp).
const char* ctype(Scalar s);
std::string int_literal(Scalar s, int64_t v);
inline bool is_half(Scalar s) { return s == Scalar::F16 || s == Scalar::BF16; }
std::string float_literal(Scalar s, double d);
std::string arith(BinOp op, Scalar s, Scalar amount, const std::string& a, const std::string& b);
// The C type of a value of type `t`: a scalar's, or an array's `vx_arr<T, size>` (emit_array.cpp).
std::string value_type(const Type& t);

// ---- the emitter --------------------------------------------------------------------------------

// A tensor operand as C: its element pointer, dimensions (C expressions, and the static ones),
// written-flags, element type and memory.
struct TRef {
  std::string ptr;
  std::vector<std::string> dims;
  std::vector<int64_t> sdims;  // static dims (-1 unknown)
  std::string init;            // init-flag pointer, or "" when every element is initialised
  Scalar elem = Scalar::F32;
  Memory mem = Memory::Hbm;
  std::string size() const {
    std::string r;
    for (auto& d : dims) r += (r.empty() ? "" : " * ") + ("(" + d + ")");
    return r.empty() ? "1LL" : "(" + r + ")";
  }
  int64_t static_size() const {
    int64_t n = 1;
    for (auto d : sdims) {
      if (d < 0) return -1;
      n *= d;
    }
    return n;
  }
};

// A device function of a region: its declaration, and its definition (guarded, so that the
// regions of one module may each carry it). Every declaration goes before every definition, so a
// function may call one defined after it (issue 35: `fn a(…) { b(…) }` before `fn b`).
struct DeviceFn {
  std::string declaration;
  std::string definition;
};

// The C++ name of each local of `fn` (slot order), in emit_names.cpp: its Vx name where that is a
// usable identifier; `int_` for a C++ or CUDA word, `i_2` for a second local named `i`, and
// `v<slot>_<name>` for a name that could meet the emitter's own (`vx_…`, `s_…`, `r_…`, `…_d0`,
// `…_init`, `v3…`) or is no C++ identifier. The emitter adds `s_`, `r_`, `_d<k>`, `_init`.
std::vector<std::string> local_names(const tir::Function& fn);
// `#line LINE "FILE"` and a newline: what follows is reported at that line of the `.vx` file.
std::string line_directive(const SourceFile& file, int line);
// The code indented by its braces, two spaces a level (preprocessor lines at the margin).
std::string indent_code(const std::string& code);

class RegionEmitter {
 public:
  RegionEmitter(const tir::Program& p, int fn, const Stmt& spawn, EmittedRegion& out,
                std::map<int, DeviceFn>& device_fns, OptimisationGate& gate)
      : prog_(p),
        fn_(p.functions[static_cast<size_t>(fn)]),
        spawn_(spawn),
        out_(out),
        device_fns_(device_fns),
        gate_(gate) {}

  void run();

 private:
  enum class Store { Param, Reg, Shared, Tile, RegTile };
  struct SlotInfo {
    Store store = Store::Reg;
    bool uninit = false;  // a tile made with uninit(): has init flags
  };

  const tir::Program& prog_;
  const tir::Function& fn_;
  const Stmt& spawn_;
  EmittedRegion& out_;
  std::map<int, DeviceFn>& device_fns_;
  // Whether to apply an optimisation (optimisations.def) here: asked once per decision.
  OptimisationGate& gate_;
  bool apply(Optimisation o, const std::string& what) { return gate_.apply(o, out_.name, what); }
  const tir::Function* cur_fn_ = nullptr;  // the function whose slots names refer to
  std::map<int, SlotInfo> slots_;
  // A reference bound by `let` in device code (`let r = &mut m[b];`): the tensor it names, its
  // pointer the local that holds it (a shared one in the code of a block).
  std::map<int, TRef> local_refs_;
  std::set<int> declared_;  // slots declared inside the region
  std::ostringstream decls_;
  // Reduction scratch: one element per thread (VX_P2 of them), per element type, and one int per
  // thread for argmax; `true` when a reduction needs it whatever the block size, `false` when
  // only blocks of fewer than 32 threads do (reduce_constant's warp path needs none).
  std::map<Scalar, bool> red_scratch_;
  std::optional<bool> red_index_scratch_;
  void need_scratch(Scalar elem, bool argmax, bool always) {
    auto [it, fresh] = red_scratch_.emplace(elem, always);
    if (!fresh) it->second = it->second || always;
    if (argmax) red_index_scratch_ = red_index_scratch_.value_or(false) || always;
  }
  // The block's shared arrays (tiles, their init flags, reduction scratch): static `__shared__`
  // arrays while they fit the 48 KiB a kernel may declare statically, else one dynamic buffer
  // (shared_arrays()).
  struct SharedArray {
    std::string type, name;
    int64_t count = 0, elem_bytes = 0;
  };
  std::vector<SharedArray> shared_arrays_;
  void shared_array(const std::string& type, const std::string& name, int64_t count,
                    int64_t elem_bytes) {
    shared_arrays_.push_back({type, name, count, elem_bytes});
  }
  std::string shared_arrays();
  int tmp_ = 0;
  int lane_level_ = -1;  // lane-nest level while emitting a lane loop body (-1: block code)
  int nest_depth_ = 0;   // depth of the current lane nest
  bool leader_ctx_ = false;
  // Loop variables whose range is a constant [first, second] (inclusive): an index that provably
  // stays inside a constant dimension needs no check (the check could never fail).
  IndexRanges ranges_;
  // uninit() tiles that the first lane loop touching them writes whole before anything reads
  // them: they need no written-flags (find_dense_tiles()).
  std::set<int> dense_tiles_;
  // SMEM tiles kept in registers (find_register_tiles()): slot -> the lane stride that owns them.
  std::map<int, int64_t> reg_tiles_;
  std::map<int, LanePass> passes_;  // lane-loop variables being emitted -> how threads take passes
  std::set<int> read_only_;         // tensor parameters the region only reads
  bool barrier_pending_ = false;    // a lane loop's barrier left out (see barrier_free())

  // A temporary's name: `base` and a number, never a local's name (local_names()).
  std::string tmp(const char* base) {
    const std::set<std::string>& locals = local_name_set();
    std::string t;
    do t = std::string(base) + std::to_string(tmp_++);
    while (locals.count(t));
    return t;
  }
  // The C++ names of cur_fn_'s locals (local_names()), made once per function.
  std::map<const tir::Function*, std::vector<std::string>> local_names_;
  std::map<const tir::Function*, std::set<std::string>> local_name_sets_;
  const std::string& base(int slot) {
    auto it = local_names_.find(cur_fn_);
    if (it == local_names_.end()) {
      it = local_names_.emplace(cur_fn_, local_names(*cur_fn_)).first;
      local_name_sets_[cur_fn_] = {it->second.begin(), it->second.end()};
    }
    return it->second[static_cast<size_t>(slot)];
  }
  const std::set<std::string>& local_name_set() {
    if (cur_fn_ && cur_fn_->slot_count() > 0) base(0);
    static const std::set<std::string> none;
    auto it = local_name_sets_.find(cur_fn_);
    return it == local_name_sets_.end() ? none : it->second;
  }
  const Type& slot_type(int slot) const { return cur_fn_->slot_types[static_cast<size_t>(slot)]; }

  // A local's name: its Vx name (base()), with `s_` when it lives in shared memory.
  std::string name(int slot) {
    auto it = slots_.find(slot);
    if (it != slots_.end() &&
        (it->second.store == Store::Shared || it->second.store == Store::Tile))
      return shared(slot);
    return base(slot);
  }
  std::string shared(int slot) { return "s_" + base(slot); }     // block code's, and SMEM tiles
  std::string registers(int slot) { return "r_" + base(slot); }  // a register tile's array
  std::string dim(int slot, size_t k) { return base(slot) + "_d" + std::to_string(k); }
  // A function's `__device__` copy: `vx_fn_<index>_<its Vx name>` (unique by the index).
  std::string device_fn_name(int index) const {
    std::string name = "vx_fn_" + std::to_string(index) + "_";
    for (char c : prog_.functions[static_cast<size_t>(index)].name)
      name += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
    return name;
  }

  // ---- tensors (emit_expr.cpp) ----
  TRef tensor_ref(const Expr& e, std::string& pre);
  std::string as_index(const Expr& e, std::string& pre);
  // index_interval() over the constant ranges of the loop variables being emitted.
  std::optional<std::pair<int64_t, int64_t>> interval(const Expr& e) const {
    return index_interval(e, ranges_);
  }
  // Horner's rule over the indices e.args[first…], each checked against its dimension, unless
  // interval() proves it inside a constant one.
  std::string offset(const TRef& t, const Expr& e, size_t first, std::string& pre);

  // ---- arrays (emit_array.cpp) ----
  TRef array_ref(const Expr& var);  // an array local's elements, as a tensor operand
  std::string array_lit(const Expr& e, std::string& pre);
  std::string array_eq(const Expr& e, std::string& pre);

  // ---- expressions ----
  std::string expr(const Expr& e, std::string& pre);
  std::string binary(const Expr& e, std::string& pre);
  std::string cast(const Expr& e, std::string& pre);
  std::string builtin(const Expr& e, std::string& pre);
  // builtins.def's emit column (emit_expr.cpp): the rows that are values.
  std::string math_method(const Expr& e, std::string& pre);
  std::string abs_method(const Expr& e, std::string& pre);
  std::string min_method(const Expr& e, std::string& pre);
  std::string max_method(const Expr& e, std::string& pre);
  std::string prelude_call(const char* fn, const Expr& e, std::string& pre);
  std::string len_query(const Expr& e, std::string& pre);
  std::string dbg(const Expr& e, std::string& pre);
  std::string dim_query(const Expr& e, std::string& pre);
  std::string scoped_fence(const Expr& e, std::string& pre);
  std::string atomic(const Expr& e, const char* fn, std::string& pre);
  [[noreturn]] std::string block_statement(const Expr& e, std::string& pre);
  std::string call(const Expr& e, std::string& pre);
  std::string block_value(const tir::Block* b, const Type& type, std::string& pre);

  // ---- statements ----
  // The block's statements, and its tail expression discarded when `tail` (callers that use the
  // tail's value emit it themselves: it must run once).
  void stmts(const tir::Block* b, std::string& out, bool step_level, bool tail = true);
  void stmt(const Stmt& s, std::string& out, bool step_level);
  void mark_line(const Stmt& s, std::string& out);
  void seq_for(const Stmt& s, std::string& out, const std::function<void(std::string&)>& body);
  void stepped_for(const Stmt& s, std::string& out, const std::function<void(std::string&)>& body);
  void assign(const Stmt& s, std::string& out);
  // `break`/`continue`: a labelled one whose loop is further out is a `goto` to a label that
  // loop_body and after_loop place at the end of that loop's body or after it (C++ has no
  // labelled loops).
  std::string jump(const Stmt& s);
  std::string loop_body(const Stmt& loop, const std::string& body);
  std::string after_loop(const Stmt& loop);
  std::map<const Stmt*, int> jump_ids_;
  std::set<std::pair<const Stmt*, bool>> jumps_used_;  // (loop, continue)

  // block code
  void steps(const tir::Block* b, std::string& out);
  void step(const Stmt& s, std::string& out);
  void lane_nest(const Stmt& s, std::string& out);
  void lane_loop(const Stmt& s, int level, std::string& out);
  int lane_depth(const Stmt& s);
  void reduce(const Stmt& s, std::string& out);
  void reduce_constant(const Stmt& s, const TRef& t, int64_t n, std::string& out);
  void reduce_general(const Stmt& s, const TRef& t, const std::string& n, std::string& out);
  std::string combine(BuiltinId b, Scalar elem, const std::string& a, const std::string& ai,
                      const std::string& x, const std::string& xi) const;
  std::string reduce_source(const TRef& t, const std::string& i) const;
  // builtins.def's collective rows as steps of block code: `s` the `let` or the statement that
  // holds the call `e` (emit_collectives.cpp).
  void collective(const Stmt& s, const Expr& e, std::string& out);
  void sort(const Stmt& s, const Expr& e, std::string& out);
  void copy_async(const Stmt& s, const Expr& e, std::string& out);
  void wait(const Stmt& s, const Expr& e, std::string& out);
  void make_tile(const Stmt& s, std::string& out);
  std::optional<std::string> reg_tile_elem(const Expr& e);
  bool barrier_free(const Stmt& s);
  void find_tiles(const tir::Block* b);
  void find_read_only();
  // A `let` of block code that every thread can compute alike, into a register: a scalar never
  // assigned again in the region, whose value has no effects and calls nothing. All threads see
  // the same inputs (parameters, block variables, shared values behind the last barrier, memory
  // no other pass writes), so all get the same value, and the leader's store to shared memory and
  // the barrier after it are saved.
  bool redundant_let(const Stmt& s) {
    if (s.kind != StmtKind::Let || !s.value || !slot_type(s.slot).is_scalar() ||
        assigned_.count(s.slot))
      return false;
    if (strip(s.value)->kind == ExprKind::TensorNew || expr_impure(s.value)) return false;
    bool plain = true;
    walk_expr(s.value, [&](const Stmt* st, const Expr* x) {
      if (st || x->kind == ExprKind::Call || x->block || x->else_block) plain = false;
    });
    return plain;
  }
  std::set<int> assigned_;  // slots assigned somewhere in the region

  void device_function(int index);
  void collect_captures();
};

}  // namespace vx::offload::emit
