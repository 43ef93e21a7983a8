// Reads fleet/*.vx with the Vx parser. Each item must be `const NAME: T = VALUE;` where VALUE is
// an integer literal (underscores and a suffix allowed), `true`/`false`, or an enum path
// (`Device::NVIDIA`, `CopyEngine::TMA`). The values are read from the source text of the
// item's value, so a machine file needs no `fn main` and is never type-checked as a program.
#include "rules/machine.hpp"

#include <cctype>
#include <map>
#include <set>

#include "parse/parser.hpp"
#include "support/ascii.hpp"
#include "support/internal_error.hpp"
#include "support/source.hpp"

namespace vx {

bool Machine::has_atomic(Scalar s) const {
  switch (s) {
    case Scalar::I32:
      return atomic_i32;
    case Scalar::U32:
      return atomic_u32;
    case Scalar::I64:
      return atomic_i64;
    case Scalar::U64:
      return atomic_u64;
    case Scalar::F32:
      return atomic_f32;
    default:
      return false;
  }
}

Machine default_machine() { return Machine{}; }

namespace {

// An integer literal: digits and underscores, an optional type suffix, an optional leading `-`.
bool parse_int_literal(const std::string& text, int64_t& out) {
  size_t i = 0;
  bool neg = false;
  if (i < text.size() && text[i] == '-') {
    neg = true;
    ++i;
  }
  if (i >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  __int128 v = 0;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '_') continue;
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    v = v * 10 + (c - '0');
    if (v > INT64_MAX) return false;
  }
  std::string suffix = text.substr(i);
  static const std::set<std::string> suffixes = {"",   "i8",  "i16", "i32", "i64",
                                                 "u8", "u16", "u32", "u64"};
  if (!suffixes.count(suffix)) return false;
  out = static_cast<int64_t>(neg ? -v : v);
  return true;
}

}  // namespace

namespace {

// The range of each integer constant (spec/kernel-rules.md §7): what a real device could have,
// so that no later pass (the kernel rules' products, NVRTC's `sm_XX`) meets a value it cannot use.
struct IntRange {
  int64_t lo, hi;
};
constexpr int64_t kI32Max = 2147483647;

const std::map<std::string, IntRange>& int_ranges() {
  static const std::map<std::string, IntRange> ranges = {
      {"COMPUTE_CAPABILITY", {0, 199}},        {"LANES_PER_BLOCK", {0, 1 << 20}},
      {"SMEM_PER_BLOCK", {0, kI32Max}},        {"MAX_BLOCKS_X", {0, kI32Max}},
      {"MAX_BLOCKS_Y", {0, kI32Max}},          {"MAX_BLOCKS_Z", {0, kI32Max}},
      {"MULTIPROCESSORS", {0, 1 << 20}},       {"MEMORY_BYTES", {0, int64_t{1} << 60}},
      {"MEMORY_BANDWIDTH_GB_S", {0, kI32Max}},
  };
  return ranges;
}

}  // namespace

bool load_machine(const std::string& path, Machine& out, std::string& error,
                  std::unique_ptr<Diagnostics>* diags_out) {
  ReadStatus read = ReadStatus::Ok;
  auto file = read_source_file(path, error, &read);
  if (!file) {
    if (read != ReadStatus::TooLarge) return false;
    file = std::make_shared<SourceFile>(path, std::string());
  }
  auto diags = std::make_unique<Diagnostics>(file);
  // Keeps the first diagnostic for the caller; `error` is its one-line form.
  auto refuse = [&]() {
    const Diagnostic& d = diags->list().front();
    const LineCol lc = file->line_col(d.span.begin);
    error = path + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.col) + ": error" +
            (d.code.empty() ? std::string() : "[" + d.code + "]") + ": " + d.message;
    if (diags_out) *diags_out = std::move(diags);
    return false;
  };
  if (read == ReadStatus::TooLarge) {
    diags->error("E0003", {0, 0}, source_too_large_message(), "the file starts here");
    return refuse();
  }
  auto parsed = parse_program(*file, *diags);
  if (!parsed) return refuse();
  auto bad = [&](Span at, std::string message, std::string label = {}) {
    diags->error("E0600", at, std::move(message), std::move(label));
    return refuse();
  };
  Machine m;
  std::string stem = path;
  if (auto slash = stem.find_last_of('/'); slash != std::string::npos)
    stem = stem.substr(slash + 1);
  if (stem.size() > 3 && stem.compare(stem.size() - 3, 3, ".vx") == 0) stem.resize(stem.size() - 3);
  m.name = stem;

  std::map<std::string, Span> seen;
  for (const ast::Item& item : parsed->program.items) {
    const auto* c = boost::get<ast::ConstItem>(&item);
    if (!c) {
      if (boost::get<ast::Attribute>(&item)) continue;
      return bad(parsed->span(item), "a machine file holds only `const` items", "not a `const`");
    }
    Span vs = parsed->span(c->value);
    std::string name = c->name.name;
    // The value's span ends at its last token, past which the grammar's skipper is not run.
    std::string value(trimmed(std::string_view(file->text()).substr(vs.begin, vs.end - vs.begin)));
    if (auto before = seen.find(name); before != seen.end()) {
      const LineCol lc = file->line_col(before->second.begin);
      return bad(vs, "`" + name + "` is set twice (first on line " + std::to_string(lc.line) + ")",
                 "set again here");
    }
    auto want_int = [&](int64_t& slot) {
      const IntRange r = must_find(int_ranges(), name);
      if (!parse_int_literal(value, slot))
        return bad(vs, "`" + name + "` needs an integer, not `" + value + "`", "not an integer");
      if (slot < r.lo || slot > r.hi)
        return bad(vs,
                   "`" + name + "` is " + std::to_string(slot) + ", outside " +
                       std::to_string(r.lo) + " to " + std::to_string(r.hi),
                   "out of range");
      if (name == "COMPUTE_CAPABILITY" && slot > 0 && slot < 10)
        return bad(vs,
                   "`COMPUTE_CAPABILITY` is 0 or 10 × major + minor (90 for sm_90), not " +
                       std::to_string(slot),
                   "out of range");
      return true;
    };
    auto want_bool = [&](bool& slot) {
      if (value != "true" && value != "false")
        return bad(vs, "`" + name + "` needs `true` or `false`, not `" + value + "`", "not a bool");
      slot = value == "true";
      return true;
    };
    bool ok = true;
    int64_t cc = 0;
    if (name == "DEVICE") {
      if (value == "Device::NVIDIA")
        m.device = DeviceKind::Nvidia;
      else if (value == "Device::Apple")
        m.device = DeviceKind::Apple;
      else if (value == "Device::None")
        m.device = DeviceKind::None;
      else
        return bad(
            vs,
            "`DEVICE` is `Device::NVIDIA`, `Device::Apple` or `Device::None`, not `" + value + "`",
            "unknown device");
    } else if (name == "COPY_ENGINE") {
      if (value == "CopyEngine::TMA")
        m.copy_engine = CopyEngine::Tma;
      else if (value == "CopyEngine::CpAsync")
        m.copy_engine = CopyEngine::CpAsync;
      else if (value == "CopyEngine::None")
        m.copy_engine = CopyEngine::None;
      else
        return bad(vs,
                   "`COPY_ENGINE` is `CopyEngine::TMA`, `CopyEngine::CpAsync` or "
                   "`CopyEngine::None`, not `" +
                       value + "`",
                   "unknown copy engine");
    } else if (name == "COMPUTE_CAPABILITY") {
      ok = want_int(cc);
      m.compute_capability = static_cast<int>(cc);
    } else if (name == "LANES_PER_BLOCK")
      ok = want_int(m.lanes_per_block);
    else if (name == "SMEM_PER_BLOCK")
      ok = want_int(m.smem_per_block);
    else if (name == "MAX_BLOCKS_X")
      ok = want_int(m.max_blocks[0]);
    else if (name == "MAX_BLOCKS_Y")
      ok = want_int(m.max_blocks[1]);
    else if (name == "MAX_BLOCKS_Z")
      ok = want_int(m.max_blocks[2]);
    else if (name == "MULTIPROCESSORS")
      ok = want_int(m.multiprocessors);
    else if (name == "MEMORY_BYTES")
      ok = want_int(m.memory_bytes);
    else if (name == "MEMORY_BANDWIDTH_GB_S")
      ok = want_int(m.memory_bandwidth_gb_s);
    else if (name == "ATOMIC_I32")
      ok = want_bool(m.atomic_i32);
    else if (name == "ATOMIC_U32")
      ok = want_bool(m.atomic_u32);
    else if (name == "ATOMIC_I64")
      ok = want_bool(m.atomic_i64);
    else if (name == "ATOMIC_U64")
      ok = want_bool(m.atomic_u64);
    else if (name == "ATOMIC_F32")
      ok = want_bool(m.atomic_f32);
    else if (name == "ATOMIC_RELAXED_ONLY")
      ok = want_bool(m.atomic_relaxed_only);
    else
      return bad(parsed->span(item), "unknown machine constant `" + name + "`",
                 "not a machine constant");
    if (!ok) return false;
    seen.emplace(name, vs);
  }
  for (const char* required : {"DEVICE", "LANES_PER_BLOCK", "SMEM_PER_BLOCK"})
    if (!seen.count(required)) {
      const auto end = static_cast<uint32_t>(file->text().size());
      return bad({end, end}, "the machine file does not set `" + std::string(required) + "`",
                 "the file ends here");
    }
  out = m;
  return true;
}

}  // namespace vx
