// The loop IR `.uir` of seed 001's lesson (spec/uir.md): a kernel written as plain loops, with
// `range N axis=global|local` for the grid and the block, SSA nodes, buffers, loads and stores.
// This header holds the program as the reader builds it (names resolved, types known) and the
// four things vx does with it: read, check (the kernel rules with the one prover of src/check),
// run (the sequential meaning) and lower a checked Vx region into it.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "check/tir.hpp"
#include "check/types.hpp"
#include "interp/runtime.hpp"
#include "rules/explain.hpp"
#include "rules/machine.hpp"
#include "support/diagnostics.hpp"

namespace vx::uir {

enum class Axis : uint8_t { None, Global, Local };

// Every instruction of spec/uir.md §3, one row each.
enum class Op : uint8_t {
  Buffer,  // `buffer %x f32[64] [fill V | iota | data V…]`: a zeroed (or filled) array
  Range,   // `%i = range N [axis=global|local]`: a loop over 0 ..= N-1, closed by `end`
  End,     // `[%e =] end %body %loop`: closes %loop
  Const,   // `%c = const V [TYPE]`
  Add,
  Sub,
  Mul,
  Div,
  Mod,    // `%r = op A B`: one type; integers wrap, div/mod truncate
  Neg,    // `%r = neg A`
  Cast,   // `%r = cast A TYPE` (Vx's `as`)
  Load,   // `%v = load %buf I`
  Store,  // `[%s =] store %buf I V`
  Print,  // `print %x [START COUNT]`: a value, or a buffer's elements
};
const char* op_spelling(Op op);

// An operand: a node, or a literal whose type comes from where it stands.
struct Operand {
  int node = -1;     // the node it names, or -1 for a literal
  std::string text;  // the literal as written
  bool float_text = false;
  uint64_t bits = 0;  // the literal's value in its type (slot bits, runtime.hpp)
  Span span;
};

struct Node {
  Op op = Op::Const;
  std::string name;           // without the `%`; empty for an unnamed store, end or print
  Span span;                  // the instruction, from its name (or keyword) to the end of the line
  Span op_span;               // from the keyword to the end of the line: the access's text
  bool has_value = false;     // a scalar value other instructions may use
  Scalar type = Scalar::I32;  // of the value; of the elements for a Buffer
  std::vector<Operand> args;
  int parent = -1;  // the innermost Range around it, or -1
  // Range
  int64_t count = 0;
  Axis axis = Axis::None;
  std::vector<int> body;  // the nodes of the loop, in order (nested ranges once, with their end)
  int end = -1;           // its End node
  // Buffer
  std::vector<int64_t> dims;
  int64_t size = 0;
  enum class Init : uint8_t { Zero, Fill, Iota, Data } init = Init::Zero;
  std::vector<uint64_t> data;  // Data: every element; Fill: one
  // Print: the element range (count -1: all)
  int64_t print_start = 0, print_count = -1;
};

struct Program {
  std::shared_ptr<const SourceFile> file;
  std::vector<Node> nodes;
  std::vector<int> top;  // the nodes outside every range, in order
};

// The types .uir has: the integers, f32 and f64 (spec/uir.md §2).
bool uir_type(Scalar s);

// Reads the text (spec/uir.md §2–3): syntax, names, types. Reports to `diags` (E0001, E0002,
// E0004, E0100, E0102, E0104, E0200, E0206) and returns nothing when there was an error.
std::optional<Program> read_uir(std::shared_ptr<const SourceFile> file, Diagnostics& diags);

// The kernel rules of spec/uir.md §5: the shape of global and local loops (rules/loop_nest.hpp,
// with the limits of `machine`: the lesson's 1024 threads a block are the default H100's), then
// the disjointness check of src/check (one prover: the same IndexDag, mixed-radix proof and
// same-expression rule as Vx kernels). With `explain`, records every store's proof.
bool check_uir(const Program& program, Diagnostics& diags,
               std::vector<kr::StoreExplain>* explain = nullptr,
               const Machine& machine = default_machine());

// Every buffer's elements after a run, as slot bits (interp/runtime.hpp), by buffer name.
using Buffers = std::map<std::string, std::vector<uint64_t>>;

// A value as `print` writes it and the reader reads it back to the same bits: Vx's `{}` (the
// shortest decimal for floats, `NaN`, `inf`, `-inf`).
std::string value_text(Scalar type, uint64_t bits);

// Runs the program one pass at a time (axes change nothing). Returns 0, or 101 after a runtime
// error (printed to `err` like the interpreter's). `final` receives the top-level buffers.
// `max_steps` and `max_seconds` (0: none) are `vx run`'s limits: each pass of a range is a step.
// The REPL (spec/cli.md §7.4) also passes `interrupt` (interp::RunLimits::interrupt: the run
// stops at its next pass when it is set) and `report`, which then gets a runtime error's place
// and message instead of `err`.
int run_uir(const Program& program, std::ostream& out, std::ostream& err, Buffers* final = nullptr,
            ErrorFormat format = ErrorFormat::Human, int64_t max_steps = 0, double max_seconds = 0,
            const std::atomic<bool>* interrupt = nullptr,
            const std::function<void(Span, const std::string&)>& report = {});

// The value of a tensor or scalar captured by a region, at its entry: slot bits per element.
struct Captured {
  std::vector<uint64_t> bits;
  std::vector<int64_t> dims;  // a tensor's shape (needed where its type has `?`)
};
using CaptureSource = std::function<std::optional<Captured>(int slot)>;

// One spawn region as .uir, or why it cannot be.
struct LoweredRegion {
  const tir::Stmt* spawn = nullptr;
  std::string location;  // file:line:col of the region
  bool ok = false;
  std::string text;                                  // the .uir program
  std::string reason;                                // why not
  std::vector<std::pair<std::string, int>> buffers;  // .uir buffer name -> the TIR slot it holds
};
// Lowers one region of `fn` (spec/uir.md §7). With `values`, captured tensors and scalars get
// their contents; without, tensors are zero and scalars are refused as unknown.
LoweredRegion lower_region(const tir::Program& program, const tir::Function& fn,
                           const tir::Stmt& spawn, const CaptureSource* values = nullptr);
// The values a region captures, read from the frame of the function that runs it (the
// interpreter's RegionRunner hook): tensors element by element, scalars from their slots.
CaptureSource frame_values(const tir::Function& fn, const interp::Frame& frame);
// An element of a tensor as slot bits (interp/runtime.hpp): integers sign- or zero-extended.
uint64_t element_bits(const interp::TensorView& view, Scalar type, int64_t k);

// `vx lower --to=uir --run`: runs the program (its output is dropped) and lowers every region at
// its first launch with the values it captures; a region that never runs is lowered without.
// Returns the program's exit status.
int lower_running(const tir::Program& program, std::ostream& out, std::ostream& err);

// Every `spawn on` region of the program with its function, in source order.
std::vector<std::pair<const tir::Function*, const tir::Stmt*>> program_regions(
    const tir::Program& program);
// Prints a lowered region, or `# FILE:LINE:COL: not lowered: REASON`, and a blank line.
void print_lowered(std::ostream& out, const LoweredRegion& region);
// Every region of the program, lowered without values, in source order.
std::vector<LoweredRegion> lower_program(const tir::Program& program);

// `vx parse|check|run FILE.uir`: returns the exit status (0, 1 refused, 2 unreadable, 101).
// `max_steps` and `max_seconds`: run_uir's.
enum class UirStage { Read, Check, Run };
int uir_command(const std::string& path, UirStage stage, bool explain, ErrorFormat format,
                std::ostream& out, std::ostream& err, int64_t max_steps = 0,
                double max_seconds = 0);

}  // namespace vx::uir
