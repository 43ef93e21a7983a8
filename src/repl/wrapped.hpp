// The program the REPL wraps an input in (session.cpp explains the wrapping), and the pieces
// that build and run it: where the input and the session's items lie in the program text
// (Composed), one run of the pipeline over it (Attempt), the region runner that fills and takes
// the bindings at the two markers (SessionRunner), and small helpers over source text. Internal
// to src/repl.
#pragma once
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interp/interpreter.hpp"
#include "offload/runner.hpp"
#include "pipeline/pipeline.hpp"
#include "repl/interrupt.hpp"

namespace vx::repl {

// A program built around one input: its text, and where the pieces of the input, and of the
// session's items, lie in it.
struct Composed {
  static constexpr int kInput = -1;
  std::string text;
  struct Piece {
    uint32_t at, from, len;  // offset in `text`, offset in its source, length
    int source;              // kInput, or the index of a session item (its text)
  };
  std::vector<Piece> pieces;
  // The declarations (and re-moves) of the session's bindings: a label there is about a binding
  // that comes from an earlier input.
  struct Decl {
    uint32_t begin, end;
    std::string name;
    bool moved;
  };
  std::vector<Decl> decls;

  void glue(std::string_view s) { text += s; }
  void input(const std::string& in, size_t from, size_t to) {
    pieces.push_back({static_cast<uint32_t>(text.size()), static_cast<uint32_t>(from),
                      static_cast<uint32_t>(to - from), kInput});
    text.append(in, from, to - from);
  }
  void item(const std::string& item_text, uint32_t from, int index) {
    pieces.push_back(
        {static_cast<uint32_t>(text.size()), from, static_cast<uint32_t>(item_text.size()), index});
    text += item_text;
  }
  void decl(const std::string& line, const std::string& name, bool moved) {
    decls.push_back({static_cast<uint32_t>(text.size()),
                     static_cast<uint32_t>(text.size() + line.size()), name, moved});
    text += line;
  }
  // The source `s` starts in (kInput or an item's index), if it starts in one. An empty span
  // just past a piece (`add `;` here` after the input's last token) is in that piece.
  std::optional<int> source_of(Span s) const {
    for (const Piece& p : pieces)
      if (s.begin >= p.at && s.begin < p.at + std::max<uint32_t>(p.len, 1)) return p.source;
    if (s.empty())
      for (const Piece& p : pieces)
        if (s.begin == p.at + p.len) return p.source;
    return std::nullopt;
  }
  const Decl* decl_of(Span s) const {
    for (const Decl& d : decls)
      if (s.begin >= d.begin && s.begin < d.end) return &d;
    return nullptr;
  }
  // The part of `s` that lies in the input (or in the item `source`), in that text's offsets;
  // false when none does.
  bool map(Span s, Span& out, int source = kInput) const {
    bool found = false;
    for (const Piece& p : pieces) {
      if (p.source != source) continue;
      const uint32_t end = p.at + p.len;
      const bool inside =
          s.empty() ? (s.begin >= p.at && s.begin <= end) : (s.begin < end && s.end > p.at);
      if (!inside) continue;
      const uint32_t b = p.from + (std::max(s.begin, p.at) - p.at);
      const uint32_t e = p.from + (std::min(std::max(s.end, s.begin), end) - p.at);
      if (!found) out.begin = b;
      out.end = std::max(e, out.begin);
      found = true;
    }
    return found;
  }
};

// One run of the pipeline over a composed program.
struct Attempt {
  Composed composed;
  pipeline::Compiled c;
  const SourceFile* file() const { return c.file.get(); }
  Diagnostics* diags() const { return c.diags.get(); }
  const ParsedProgram* parsed() const { return c.parsed.get(); }
  bool checked() const { return c.program != nullptr; }  // the checker accepted it
  // Set when the checker and the kernel rules accepted it.
  tir::Program* program() const { return c.ok() ? c.program.get() : nullptr; }
};

// With `maps`, the kernel rules also make the maps of who writes what (:map).
Attempt run_pipeline(Composed composed, const Machine& machine, bool explain,
                     bool parse_only = false, bool maps = false);

// The first word of a text, after blanks and comments.
std::string first_word(const std::string& t);
// Whether the word `w` stands in `t` as a name or keyword, outside strings and comments.
bool has_word(const std::string& t, const std::string& w);
// An input of items (`fn`, `const`, `pub`, `import`, `#`) rather than of statements.
bool is_items_input(const std::string& text);
bool is_identifier(const std::string& s);
// support/ascii.hpp's trimmed, as a string of its own.
std::string trim(const std::string& s);
// Calls `fn` for every expression of a block, at any depth.
void visit_exprs(const tir::Block* b, const std::function<void(const tir::Expr*)>& fn);
// `FILE:LINE:COL` of a span's start.
std::string location(const SourceFile& file, Span s);

// Fills and takes the bindings at the two markers, times regions for :time, and hands every other
// region, and every offload mark (offload/marks.hpp), to the offload tier. An interrupt is also
// read here: before and after each region (one that ran on the GPU has no checks of its own) and
// at "leave", so an input that Ctrl-C reached is not kept even when its last loop had ended.
struct SessionRunner final : interp::RegionRunner {
  const tir::Stmt* enter = nullptr;
  const tir::Stmt* leave = nullptr;
  std::function<void(interp::Frame&)> on_enter, on_leave;
  offload::OffloadRunner* offload = nullptr;
  // :time
  std::function<void(const tir::Stmt&, bool gpu, double ms)> on_timed;
  const tir::Stmt* open = nullptr;
  bool open_on_gpu = false;
  std::chrono::steady_clock::time_point started;

  static void poll(Span at) {
    if (interrupt_requested()) [[unlikely]]
      interp::RunLimits::interrupted(at);
  }
  bool run_region(const tir::Stmt& spawn, interp::Frame& frame) override {
    poll(spawn.span);
    if (&spawn == enter) {
      on_enter(frame);
      return true;
    }
    if (&spawn == leave) {
      if (offload) offload->copy_back();  // the session's tensors are read from the host copies
      on_leave(frame);
      return true;
    }
    open = &spawn;
    started = std::chrono::steady_clock::now();
    open_on_gpu = offload && offload->run_region(spawn, frame);
    if (open_on_gpu) poll(spawn.span);
    return open_on_gpu;
  }
  void at_mark(const tir::Mark& mark, interp::Frame& frame) override {
    poll(mark.span);
    if (mark.kind == tir::MarkKind::Checkpoint) {
      if (open && on_timed) {
        const std::chrono::duration<double, std::milli> ms =
            std::chrono::steady_clock::now() - started;
        on_timed(*open, open_on_gpu, ms.count());
      }
      open = nullptr;
    }
    if (offload) offload->at_mark(mark, frame);
  }
};

}  // namespace vx::repl
