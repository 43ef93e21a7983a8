// Reads fleet/*.vx with the Vx parser. Each item must be `const NAME: T = VALUE;` where VALUE is
// an integer literal (underscores and a suffix allowed), `true`/`false`, or an enum path
// (`Device::NVIDIA`, `CopyEngine::TMA`). The values are read from the source text of the
// item's value, so a machine file needs no `fn main` and is never type-checked as a program.
#include "check/machine.hpp"

#include <cctype>
#include <map>
#include <set>

#include "parse/parser.hpp"
#include "support/source.hpp"

namespace vx {

bool Machine::has_atomic(Scalar s) const {
  switch (s) {
    case Scalar::I32: return atomic_i32;
    case Scalar::U32: return atomic_u32;
    case Scalar::I64: return atomic_i64;
    case Scalar::U64: return atomic_u64;
    case Scalar::F32: return atomic_f32;
    default: return false;
  }
}

const char* device_kind_name(DeviceKind k) {
  switch (k) {
    case DeviceKind::Nvidia: return "NVIDIA";
    case DeviceKind::Apple: return "Apple";
    default: return "None";
  }
}

const char* copy_engine_name(CopyEngine e) {
  switch (e) {
    case CopyEngine::Tma: return "TMA";
    case CopyEngine::CpAsync: return "CpAsync";
    default: return "None";
  }
}

Machine default_machine() { return Machine{}; }

namespace {

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// An integer literal: digits and underscores, an optional type suffix, an optional leading `-`.
bool parse_int(const std::string& text, int64_t& out) {
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
  static const std::set<std::string> suffixes = {"",    "i8",  "i16", "i32", "i64",
                                                 "u8",  "u16", "u32", "u64"};
  if (!suffixes.count(suffix)) return false;
  out = static_cast<int64_t>(neg ? -v : v);
  return true;
}

}  // namespace

bool load_machine(const std::string& path, Machine& out, std::string& error) {
  auto file = read_source_file(path, error);
  if (!file) return false;
  Diagnostics diags(file);
  auto parsed = parse_program(*file, diags);
  if (!parsed) {
    const Diagnostic& d = diags.list().front();
    error = path + ":" + std::to_string(file->line_col(d.span.begin).line) + ": " + d.message;
    return false;
  }
  Machine m;
  std::string stem = path;
  if (auto slash = stem.find_last_of('/'); slash != std::string::npos) stem = stem.substr(slash + 1);
  if (stem.size() > 3 && stem.compare(stem.size() - 3, 3, ".vx") == 0) stem.resize(stem.size() - 3);
  m.name = stem;

  std::set<std::string> seen;
  for (const ast::Item& item : parsed->program.items) {
    const auto* c = boost::get<ast::ConstItem>(&item);
    if (!c) {
      if (boost::get<ast::Attribute>(&item)) continue;
      Span s = parsed->span(item);
      error = path + ":" + std::to_string(file->line_col(s.begin).line) +
              ": a machine file holds only `const` items";
      return false;
    }
    Span vs = parsed->span(c->value);
    std::string name = c->name.name;
    std::string value = trim(std::string_view(file->text()).substr(vs.begin, vs.end - vs.begin));
    std::string where = path + ":" + std::to_string(file->line_col(vs.begin).line) + ": ";
    auto want_int = [&](int64_t& slot) {
      if (!parse_int(value, slot)) {
        error = where + "`" + name + "` needs an integer, not `" + value + "`";
        return false;
      }
      return true;
    };
    auto want_bool = [&](bool& slot) {
      if (value != "true" && value != "false") {
        error = where + "`" + name + "` needs `true` or `false`, not `" + value + "`";
        return false;
      }
      slot = value == "true";
      return true;
    };
    bool ok = true;
    int64_t cc = 0;
    if (name == "DEVICE") {
      if (value == "Device::NVIDIA") m.device = DeviceKind::Nvidia;
      else if (value == "Device::Apple") m.device = DeviceKind::Apple;
      else if (value == "Device::None") m.device = DeviceKind::None;
      else {
        error = where + "`DEVICE` is `Device::NVIDIA`, `Device::Apple` or `Device::None`, not `" +
                value + "`";
        return false;
      }
    } else if (name == "COPY_ENGINE") {
      if (value == "CopyEngine::TMA") m.copy_engine = CopyEngine::Tma;
      else if (value == "CopyEngine::CpAsync") m.copy_engine = CopyEngine::CpAsync;
      else if (value == "CopyEngine::None") m.copy_engine = CopyEngine::None;
      else {
        error = where + "`COPY_ENGINE` is `CopyEngine::TMA`, `CopyEngine::CpAsync` or " +
                "`CopyEngine::None`, not `" + value + "`";
        return false;
      }
    } else if (name == "COMPUTE_CAPABILITY") {
      ok = want_int(cc);
      m.compute_capability = static_cast<int>(cc);
    } else if (name == "LANES_PER_BLOCK") ok = want_int(m.lanes_per_block);
    else if (name == "SMEM_PER_BLOCK") ok = want_int(m.smem_per_block);
    else if (name == "MAX_BLOCKS_X") ok = want_int(m.max_blocks[0]);
    else if (name == "MAX_BLOCKS_Y") ok = want_int(m.max_blocks[1]);
    else if (name == "MAX_BLOCKS_Z") ok = want_int(m.max_blocks[2]);
    else if (name == "MULTIPROCESSORS") ok = want_int(m.multiprocessors);
    else if (name == "MEMORY_BYTES") ok = want_int(m.memory_bytes);
    else if (name == "MEMORY_BANDWIDTH_GB_S") ok = want_int(m.memory_bandwidth_gb_s);
    else if (name == "ATOMIC_I32") ok = want_bool(m.atomic_i32);
    else if (name == "ATOMIC_U32") ok = want_bool(m.atomic_u32);
    else if (name == "ATOMIC_I64") ok = want_bool(m.atomic_i64);
    else if (name == "ATOMIC_U64") ok = want_bool(m.atomic_u64);
    else if (name == "ATOMIC_F32") ok = want_bool(m.atomic_f32);
    else if (name == "ATOMIC_RELAXED_ONLY") ok = want_bool(m.atomic_relaxed_only);
    else {
      error = where + "unknown machine constant `" + name + "`";
      return false;
    }
    if (!ok) return false;
    seen.insert(name);
  }
  for (const char* required : {"DEVICE", "LANES_PER_BLOCK", "SMEM_PER_BLOCK"})
    if (!seen.count(required)) {
      error = path + ": the machine file does not set `" + std::string(required) + "`";
      return false;
    }
  out = m;
  return true;
}

}  // namespace vx
