// The .uir tests that need the C++ API (spec/uir.md): every accepted Vx program of the
// conformance corpus runs with a hook at each `spawn on` region that lowers the region to .uir
// with the tensors and scalars it captures as initial contents, reads the text back, checks it
// with the .uir kernel rules, runs it, and compares every buffer with the Vx program's tensor
// after the region, bit for bit. Regions that cannot be lowered are listed below with their reason.
#include "uir/uir.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "check/checker.hpp"
#include "interp/interpreter.hpp"
#include "offload/runner.hpp"
#include "parse/parser.hpp"
#include "pipeline/pipeline.hpp"

namespace fs = std::filesystem;
using namespace vx;

namespace {

struct Outcome {
  int compared = 0;                      // regions lowered, run and compared
  std::vector<std::string> not_lowered;  // "file: reason"
  std::vector<std::string> failures;     // anything that went wrong
};

// Lowers each region at its entry and compares at its checkpoint (the offload mark that
// mark_checkpoints puts after it).
class LoweringHook final : public interp::RegionRunner {
 public:
  LoweringHook(const tir::Program& p, std::string name, Outcome& out)
      : p_(p), name_(std::move(name)), out_(out) {
    for (auto [f, s] : uir::program_regions(p)) fn_of_[s] = f;
  }

  void at_mark(const tir::Mark& mark, interp::Frame& frame) override {
    if (mark.kind != tir::MarkKind::Checkpoint) return;
    if (pending_) compare(frame);
    pending_.reset();
  }
  bool run_region(const tir::Stmt& spawn, interp::Frame& frame) override {
    const tir::Function& fn = *fn_of_.at(&spawn);
    uir::CaptureSource values = uir::frame_values(fn, frame);
    uir::LoweredRegion r = uir::lower_region(p_, fn, spawn, &values);
    if (!r.ok) {
      std::string line = name_ + ": " + r.reason;
      if (!reported_.count(line)) out_.not_lowered.push_back(line);
      reported_.insert(line);
      return false;
    }
    pending_ = std::move(r);
    fn_ = &fn;
    return false;  // the interpreter runs the region; the checkpoint compares
  }

 private:
  void fail(const std::string& what) {
    out_.failures.push_back(name_ + " (" + pending_->location + "): " + what);
  }

  void compare(interp::Frame& frame) {
    auto file = std::make_shared<SourceFile>("lowered.uir", pending_->text);
    Diagnostics diags(file);
    auto program = uir::read_uir(file, diags);
    std::ostringstream err;
    if (!program) {
      emit_diagnostics(err, diags, ErrorFormat::Human);
      return fail("the lowered text does not read back:\n" + err.str());
    }
    if (!uir::check_uir(*program, diags)) {
      emit_diagnostics(err, diags, ErrorFormat::Human);
      return fail("the lowered program is refused:\n" + err.str());
    }
    std::ostringstream out;
    uir::Buffers final;
    if (int rc = uir::run_uir(*program, out, err, &final); rc != 0)
      return fail("the lowered program stopped with " + std::to_string(rc) + ": " + err.str());
    for (const auto& [name, slot] : pending_->buffers) {
      const Type& t = fn_->slot_types[slot];
      const interp::TensorView& v = frame.t[slot].view;
      const auto& got = final.at(name);
      if (static_cast<int64_t>(got.size()) != v.size)
        return fail("`%" + name + "` has " + std::to_string(got.size()) + " elements");
      for (int64_t k = 0; k < v.size; ++k)
        if (got[k] != uir::element_bits(v, t.scalar, k))
          return fail("`%" + name + "` differs at element " + std::to_string(k) + ": .uir " +
                      uir::value_text(t.scalar, got[k]) + ", Vx " +
                      uir::value_text(t.scalar, uir::element_bits(v, t.scalar, k)));
    }
    ++out_.compared;
  }

  const tir::Program& p_;
  std::string name_;
  Outcome& out_;
  std::map<const tir::Stmt*, const tir::Function*> fn_of_;
  std::optional<uir::LoweredRegion> pending_;
  const tir::Function* fn_ = nullptr;
  std::set<std::string> reported_;
};

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every accepted corpus program with a region: it has a .stdout and no `//~` marker.
std::vector<fs::path> accepted_programs_with_regions() {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator("conformance")) {
    if (e.path().extension() != ".vx") continue;
    if (!fs::exists(fs::path(e.path()).replace_extension(".stdout"))) continue;
    std::string text = read_text(e.path());
    if (text.find("//~") != std::string::npos || text.find("spawn on") == std::string::npos)
      continue;
    out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every accepted Vx kernel of the corpus lowers to .uir with the same values") {
  Outcome outcome;
  int programs = 0;
  for (const fs::path& path : accepted_programs_with_regions()) {
    pipeline::Options front;
    front.through = pipeline::Step::Lower;  // some name another machine (run-flags)
    pipeline::Compiled c =
        pipeline::compile(std::make_shared<SourceFile>(path.string(), read_text(path)), front);
    REQUIRE_MESSAGE(c.ok(), path.string());
    LoweringHook hook(*c.program, path.filename().string(), outcome);
    std::ostringstream out, err;
    pipeline::RunRequest run;
    run.offload.mode = "off";
    run.around = [&](offload::OffloadRunner*) { return &hook; };
    pipeline::run(c, run, out, err);
    CHECK_MESSAGE(out.str() == read_text(fs::path(path).replace_extension(".stdout")),
                  path.string());
    ++programs;
  }
  for (const auto& f : outcome.failures) FAIL_CHECK(f);
  // The regions .uir cannot say, each with its reason (spec/uir.md §7). A change here is a
  // change of the lowering: update the list and the spec together.
  std::vector<std::string> expected = {
      "arrays_on_device.vx: it declares the array `base`, and .uir has no arrays",
      "arrays_on_device_types.vx: it declares the array `bits`, and .uir has no arrays",
      "atomic_apple_u32_relaxed.vx: it calls `atomic_fetch_add`, which .uir has no instruction for",
      "atomic_load_with_atomics.vx: it calls `atomic_fetch_add`, which .uir has no instruction for",
      "atomic_sums_per_task.vx: it calls `atomic_fetch_add`, which .uir has no instruction for",
      "atomics_device.vx: it calls `atomic_fetch_add`, which .uir has no instruction for",
      "atomics_from_many_blocks.vx: it calls `atomic_fetch_add`, which .uir has no instruction for",
      "big_tile_dynamic_smem.vx: it calls `lanes::sum`, which .uir has no instruction for",
      "block_code_once_per_block.vx: it calls `lanes::max`, which .uir has no instruction for",
      "blog_gelu_forward_exact.vx: it uses `if`, and .uir has no control flow but ranges",
      "blog_gelu_forward_fast.vx: it uses `if`, and .uir has no control flow but ranges",
      "book_gpu_histogram_with_atomics.vx: it calls `atomic_fetch_add`, which .uir has no "
      "instruction for",
      "book_gpu_row_sums_in_shared_memory.vx: it calls `lanes::sum`, which .uir has no instruction "
      "for",
      "call_reads_through_argument.vx: it calls the function `width`",
      "call_stores_read_at_call.vx: it calls the function `put`",
      "call_writes_in_if_own_tile.vx: it calls the function `put`",
      "char_on_device.vx: the variable `c` has the type `char`, which .uir does not have",
      "copy_async_partial_1d.vx: it declares `tok`, which is not a scalar or tensor",
      "copy_async_zero_fill.vx: it uses `if`, and .uir has no control flow but ranges",
      "cuda_names_that_clash.vx: it calls the function `twice`",
      "device_calls_function.vx: it calls the function `clamp01`",
      "device_helper_defined_after.vx: the variable `v` has the type `f16`, which .uir does not "
      "have",
      "device_helper_functions.vx: it uses `if`, and .uir has no control flow but ranges",
      "grid_stride_grid.vx: the loop `i` runs over a range with `.step_by()`, and a .uir range "
      "counts up by one",
      "grid_stride_lane_loop.vx: the loop `c` runs over a range with `.step_by()`, and a .uir "
      "range counts up by one",
      "half_helper_returns.vx: an element has the type `f16`, which .uir does not have",
      "half_kernels.vx: the tensor `t` has the type `f16`, which .uir does not have",
      "host_blocks_many.vx: it calls `lanes::sum`, which .uir has no instruction for",
      "if_branch_runs_once.vx: it uses `if`, and .uir has no control flow but ranges",
      "index_from_helper_and_if.vx: it calls the function `at`",
      "index_from_helper_value.vx: it calls the function `next`",
      "index_from_tuple_helper.vx: it calls the function `rc`",
      "lane_copies_on_the_cpu.vx: it declares `first`, which is not a scalar or tensor",
      "lanes_argmax_ties.vx: it uses `if`, and .uir has no control flow but ranges",
      "lanes_max_argmax.vx: it uses `if`, and .uir has no control flow but ranges",
      "lanes_sort.vx: it calls `lanes::sort`, which .uir has no instruction for",
      "lanes_sum_integers.vx: it calls `lanes::sum`, which .uir has no instruction for",
      "lanes_sum_tree_order.vx: it calls `lanes::sum`, which .uir has no instruction for",
      "lanes_sum_unordered.vx: it calls `lanes::sum_unordered`, which .uir has no instruction for",
      "lanes_sum_whole_let.vx: it calls `lanes::sum`, which .uir has no instruction for",
      "llmc_runtime_attention.vx: it uses `if`, and .uir has no control flow but ranges",
      "llmc_runtime_attention.vx: the loop `t2` has a bound that is not known before the region "
      "runs",
      "llmc_runtime_attention_softmax_two_loops.vx: the loop `t2` has a bound that is not known "
      "before the region runs",
      "llmc_runtime_crossentropy.vx: it calls `log`, which .uir has no instruction for",
      "llmc_runtime_crossentropy_flat.vx: it uses `if`, and .uir has no control flow but ranges",
      "llmc_runtime_gelu.vx: it calls `tanh`, which .uir has no instruction for",
      "llmc_runtime_grid_stride_store.vx: the loop `c` runs over a range with `.step_by()`, and a "
      ".uir range counts up by one",
      "llmc_runtime_layernorm.vx: the loop `c` runs over a range with `.step_by()`, and a .uir "
      "range counts up by one",
      "llmc_runtime_softmax.vx: the loop `c` runs over a range with `.step_by()`, and a .uir range "
      "counts up by one",
      "llmc_runtime_softmax_reload.vx: the loop `c` runs over a range with `.step_by()`, and a "
      ".uir range counts up by one",
      "loop_labels_on_device.vx: the loop `p` has a bound that is not known before the region "
      "runs",
      "loop_tuple_on_device.vx: it uses `loop`, and .uir has no control flow but ranges",
      "loop_value_on_device.vx: it uses `loop`, and .uir has no control flow but ranges",
      "match_on_device.vx: it uses `match`, and .uir has no control flow but ranges",
      "mut_parameters.vx: it calls the function `clamp_to`",
      "range_adapters_on_device.vx: the loop `i` runs over a range with `.rev()`, and a .uir "
      "range counts up by one",
      "reduce_scratch_per_thread.vx: it calls `lanes::sum`, which .uir has no instruction for",
      "register_tiles.vx: it calls `lanes::sum`, which .uir has no instruction for",
      "run_time_size_proved.vx: it uses `if`, and .uir has no control flow but ranges",
      "run_time_sizes_device.vx: it uses `if`, and .uir has no control flow but ranges",
      "smem_fill.vx: it calls `lanes::sum`, which .uir has no instruction for",
      "stream_compaction_atomic_store.vx: it uses `if`, and .uir has no control flow but "
      "ranges",
      "struct_refs_on_device.vx: it declares the array `p.w`, and .uir has no arrays",
      "structs_on_device.vx: the variable `_tuple.odd` has the type `bool`, which .uir does not "
      "have",
      "structure_break_inner_loop.vx: it uses `if`, and .uir has no control flow but ranges",
      "structure_stepped_loop_in_lane.vx: the loop `k` runs over a range with `.rev()`, and a "
      ".uir range counts up by one",
      "sub_tensor_ref_nested_rows.vx: it declares the tensor `r` other than with `fill` or "
      "`uninit`",
      "sub_tensor_ref_row_of_block.vx: it declares the tensor `r` other than with `fill` or "
      "`uninit`",
      "tile_read_after_wait.vx: it declares `tok`, which is not a scalar or tensor",
      "tuple_call_in_block_code.vx: it calls the function `pair`",
      "tuple_field_of_value.vx: it calls the function `two`",
      "tuples_on_device.vx: it calls the function `divmod`",
      "value_range_casts_and_shifts.vx: it uses the operator `<<`",
      "value_range_disjoint_bits.vx: it uses the operator `|`",
      "wrap_none_near_miss.vx: it uses `if`, and .uir has no control flow but ranges",
      "write_variable_of_the_pass.vx: the loop `k` has a bound that is not known before the region "
      "runs",
  };
  std::sort(outcome.not_lowered.begin(), outcome.not_lowered.end());
  std::ostringstream got;
  for (const auto& s : outcome.not_lowered) got << "      \"" << s << "\",\n";
  CHECK_MESSAGE(outcome.not_lowered == expected, "not lowered:\n" << got.str());
  MESSAGE(programs << " programs, " << outcome.compared << " region launches compared");
  CHECK(programs >= 40);
  CHECK(outcome.compared >= 21);
}

// The other direction of "one prover": a Vx kernel that the kernel rules refuse, lowered to .uir
// (tensors zero: the rules never look at values), is refused by the .uir rules with E6032 at the
// lowered access. Kernels refused for what .uir has no word for (println!, the machine, atomics,
// tiles, calls, variables written from outside) are listed with what happens to them.
TEST_CASE("refused Vx kernels stay refused as .uir") {
  std::map<std::string, std::string> outcome;  // program -> "refused" | "accepted" | reason
  for (const auto& e : fs::directory_iterator("conformance/kernel_rules")) {
    if (e.path().extension() != ".vx") continue;
    std::string text = read_text(e.path());
    if (text.find("//~ ERROR E6032") == std::string::npos) continue;
    if (text.find("run-flags") != std::string::npos) continue;  // another machine's limits
    pipeline::Options front;
    front.through = pipeline::Step::Lower;  // the kernel rules refuse these
    pipeline::Compiled c =
        pipeline::compile(std::make_shared<SourceFile>(e.path().string(), text), front);
    REQUIRE_MESSAGE(c.program, e.path().string());
    const tir::Program* program = c.program.get();
    std::string name = e.path().filename().string();
    for (const auto& r : uir::lower_program(*program)) {
      if (!r.ok) {
        outcome[name] = r.reason;
        continue;
      }
      auto ufile = std::make_shared<SourceFile>("lowered.uir", r.text);
      Diagnostics udiags(ufile);
      auto u = uir::read_uir(ufile, udiags);
      REQUIRE_MESSAGE(u, r.text);
      bool accepted = uir::check_uir(*u, udiags);
      bool e6032 = !udiags.list().empty() && udiags.list().front().code == "E6032";
      outcome[name] = accepted ? "accepted" : e6032 ? "refused" : "refused otherwise";
    }
  }
  std::ostringstream got;
  for (const auto& [k, v] : outcome) got << "      {\"" << k << "\", \"" << v << "\"},\n";
  std::map<std::string, std::string> expected = {
      {"array_assign_outer.vx", "it assigns `last`, declared outside the region"},
      {"array_index_from_array.vx", "it uses the array `perm`, and .uir has no arrays"},
      {"array_outer_write.vx", "it declares the array `seen`, and .uir has no arrays"},
      {"atomic_mixed_with_plain_read.vx",
       "it calls `atomic_fetch_add`, which .uir has no instruction for"},
      {"book_write_fixed_row.vx", "refused"},
      {"call_writes_through_argument.vx", "it calls the function `set_first`"},
      {"coefficient_not_constant.vx", "the tensor `out` has a dimension not known statically"},
      {"data_dependent_write.vx", "refused"},
      {"dbg_index_near_miss.vx", "it calls `dbg!`, which .uir has no instruction for"},
      {"grid_over_limit.vx", "the loop `b` has more passes than a .uir range holds (2^31 - 1)"},
      {"helper_tuple_call_index_race.vx", "it calls the function `put`"},
      {"index_too_large.vx", "refused"},
      {"lane_must_fix_index.vx", "refused"},
      {"lanes_sum_in_expression.vx", "it calls `lanes::sum`, which .uir has no instruction for"},
      {"lanes_sum_in_lane_loop.vx", "it calls `lanes::sum`, which .uir has no instruction for"},
      {"lesson_coefficient_8.vx", "refused"},
      {"lesson_neighbour_read.vx", "refused"},
      {"lesson_t_div_4_coefficient_15.vx", "refused"},
      {"match_arm_store_must_fix.vx", "it uses `match`, and .uir has no control flow but ranges"},
      {"print_in_called_function.vx", "it calls the function `show`"},
      {"println_in_lane_loop.vx", "it prints"},
      {"product_of_indices.vx", "refused"},
      {"run_time_size_coefficient.vx", "the tensor `out` has a dimension not known statically"},
      {"run_time_size_inner_loop.vx",
       "the loop `k` has a bound that is not known before the region runs"},
      {"run_time_size_len_wraps.vx",
       "the loop `b` has a bound that is not known before the region runs"},
      {"run_time_size_racy.vx",
       "the loop `b` has a bound that is not known before the region runs"},
      {"struct_back_index_race.vx", "it calls the function `negate`"},
      {"struct_ref_shared_write.vx", "it calls the function `note`"},
      {"struct_helper_field_in_if.vx", "it calls the function `at`"},
      {"struct_helper_value_race.vx", "it calls the function `next`"},
      {"struct_shared_field_write.vx", "refused"},  // its fields are locals (types.md §9)
      {"struct_whole_shared_write.vx", "it calls the function `make`"},
      {"structure_across_rev.vx",
       "the loop `x` runs over a range with `.rev()`, and a .uir range counts up by one"},
      {"structure_across_step_by.vx",
       "the loop `y` runs over a range with `.step_by()`, and a .uir range counts up by one"},
      {"structure_block_loop_in_lane_loop.vx", "refused"},
      {"structure_block_loop_not_direct.vx", "refused"},
      {"structure_break.vx", "it uses `if`, and .uir has no control flow but ranges"},
      {"structure_continue.vx", "it uses `if`, and .uir has no control flow but ranges"},
      {"structure_four_block_loops.vx", "refused"},
      {"structure_four_lane_loops.vx", "refused"},
      {"structure_labelled_break.vx", "it uses `if`, and .uir has no control flow but ranges"},
      {"structure_lane_loop_outside_block.vx", "refused"},
      {"structure_lanes_not_constant.vx",
       "the loop `l` has a bound that is not known before the region runs"},
      {"structure_lanes_over_limit.vx", "accepted"},  // lowered as a plain loop (spec/uir.md §7)
      {"structure_lanes_product_over_limit.vx",
       "accepted"},  // lowered as a plain loop (spec/uir.md §7)
      {"structure_lanes_range_over_limit.vx",
       "accepted"},                             // lowered as a plain loop (spec/uir.md §7)
      {"structure_lanes_zero.vx", "accepted"},  // lowered as a plain loop (spec/uir.md §7)
      {"structure_return.vx", "it uses `if`, and .uir has no control flow but ranges"},
      {"tile_in_lane_loop.vx", "accepted"},  // .uir has no shared memory to place or size
      {"tile_in_region.vx", "accepted"},     // .uir has no shared memory to place or size
      {"tile_too_large.vx", "accepted"},     // .uir has no shared memory to place or size
      {"tuple_call_index_race.vx", "it calls the function `pair`"},
      {"tuple_helper_args_assign.vx", "it calls the function `rc`"},
      {"tuple_helper_early_return.vx", "it calls the function `rc`"},
      {"tuple_helper_index_half.vx", "it calls the function `rc`"},
      {"tuple_helper_index_wrap.vx", "it uses `if`, and .uir has no control flow but ranges"},
      {"tuple_shared_assigned_from_call.vx", "it calls the function `pair`"},
      {"tuple_shared_element_write.vx", "refused"},  // its scalars are locals (types.md §8)
      {"two_lane_loops_one_name.vx", "refused"},
      {"two_writes_collide.vx", "refused"},
      {"wrap_i32_block_index.vx", "it uses `if`, and .uir has no control flow but ranges"},
      {"wrap_i64_digit.vx", "refused"},
      {"wrap_u16_scaled_shift.vx", "refused"},
      {"wrap_u8_lane_index.vx", "refused"},
      {"write_outer_variable.vx", "refused"},
      {"block_code_reads_next_row.vx", "refused"},
      {"block_loop_whole_i64_range.vx",
       "the loop `b` has more passes than a .uir range holds (2^31 - 1)"},
      {"call_writes_atomic_in_if.vx", "it calls the function `hs`"},
      {"call_writes_in_block_expression.vx", "it calls the function `hs`"},
      {"call_writes_in_else.vx", "it calls the function `hs`"},
      {"call_writes_in_if.vx", "it calls the function `hs`"},
      {"call_writes_in_loop_expression.vx", "it calls the function `hs`"},
      {"call_writes_in_match_arm.vx", "it calls the function `hs`"},
      {"call_writes_through_let_in_if.vx", "it calls the function `hs`"},
      {"grid_stride_grid_short_step.vx",
       "the loop `i` runs over a range with `.step_by()`, and a .uir range counts up by one"},
      {"grid_stride_short_step.vx",
       "the loop `c` runs over a range with `.step_by()`, and a .uir range counts up by one"},
      {"value_range_cast_wraps.vx", "refused"},
      {"value_range_mask_too_narrow.vx", "it uses the operator `&`"},
      {"value_range_or_bits_meet.vx", "it uses the operator `|`"},
      {"value_range_or_low_too_wide.vx", "it uses the operator `|`"},
      {"value_range_shift_too_short.vx", "it uses the operator `<<`"},
      {"value_range_shift_halves.vx", "it uses the operator `>>`"},
      {"per_dimension_fixed_row.vx",
       "the loop `r` has a bound that is not known before the region runs"},
      {"per_dimension_row_halves.vx",
       "the loop `r` has a bound that is not known before the region runs"},
      {"stream_compaction_plain_store.vx", "it uses `if`, and .uir has no control flow but ranges"},
      {"sub_tensor_ref_same_row.vx",
       "it declares the tensor `r` other than with `fill` or `uninit`"},
      {"same_index_reordered_shifted.vx", "refused"},
      {"stores_overlap.vx", "refused"},
      {"call_reads_neighbour.vx", "it calls the function `shift`"},
      {"call_stores_in_own_loop.vx", "it calls the function `clear`"},
      {"div_mod_pair_narrow.vx", "refused"},
      {"guarded_store_pair.vx", "it uses `if`, and .uir has no control flow but ranges"},
      {"guarded_store_or.vx", "it uses `if`, and .uir has no control flow but ranges"},
      {"index_from_helper_halves.vx", "it calls the function `half`"},
      {"index_from_if_arms_differ.vx", "it uses `if`, and .uir has no control flow but ranges"},
      {"limit_guarded_store.vx", "it uses `if`, and .uir has no control flow but ranges"},
      {"limit_not_mixed_radix.vx", "refused"},
      {"limit_wrapping_bijection.vx", "refused"},
      {"let_mut_index_in_if.vx", "it uses `if`, and .uir has no control flow but ranges"},
      {"let_mut_index_in_loop.vx", "refused"},
      {"llmc_runtime_attention_4d.vx",
       "the loop `b` has a bound that is not known before the region runs"},
      {"pair_runtime_divisor_mismatch.vx",
       "the tensor `losses` has a dimension not known statically"},
      {"llmc_runtime_attention_value_per_head.vx",
       "the loop `b` has a bound that is not known before the region runs"},
  };
  CHECK_MESSAGE(outcome == expected, "outcomes:\n" << got.str());
}

TEST_CASE(".uir's loop shape takes its limits from the machine it is checked for") {
  const std::string text =
      "buffer %out i32[512]\n%b = range 1 axis=global\n%t = range 512 axis=local\n"
      "%s = store %out %t 1\n%et = end %s %t\n%eb = end %et %b\n";
  auto file = std::make_shared<SourceFile>("t.uir", text);
  Diagnostics diags(file);
  auto program = uir::read_uir(file, diags);
  REQUIRE(program);
  CHECK(uir::check_uir(*program, diags));  // the default machine: the lesson's 1024 threads
  Machine small = default_machine();
  small.lanes_per_block = 256;
  CHECK_FALSE(uir::check_uir(*program, diags, nullptr, small));
  REQUIRE(diags.error_count() == 1);
  const Diagnostic& d = diags.list().back();
  CHECK(d.code == "E6032");
  CHECK(d.rule == "lane-count");
  CHECK(
      d.message ==
      "the bound of a local loop is the block size: a literal from 1 to 256, and this one is 512");
}
