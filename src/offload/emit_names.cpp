// The C++ names of a function's locals in the emitted CUDA (spec/offload.md §1.1): the Vx names,
// so that a person reading the kernel, or a message of nvcc, ptxas or compute-sanitizer, finds
// the program's own words; changed only where they would meet a C++ or CUDA word or each other.
#include <algorithm>
#include <set>
#include <string_view>

#include "offload/emit_cuda_impl.hpp"
#include "support/ascii.hpp"

namespace vx::offload::emit {

namespace {

// Words a local may not be: C++'s keywords and the names the emitted code calls or declares
// besides the prelude's (which all start with `vx_` or `VX_`): CUDA's built-in variables and
// functions, the C library's math, the fixed-width integer types.
constexpr std::string_view kReserved[] = {"alignas",       "alignof",     "and",
                                          "and_eq",        "asm",         "auto",
                                          "bitand",        "bitor",       "bool",
                                          "break",         "case",        "catch",
                                          "char",          "char8_t",     "char16_t",
                                          "char32_t",      "class",       "compl",
                                          "concept",       "const",       "consteval",
                                          "constexpr",     "constinit",   "const_cast",
                                          "continue",      "co_await",    "co_return",
                                          "co_yield",      "decltype",    "default",
                                          "delete",        "do",          "double",
                                          "dynamic_cast",  "else",        "enum",
                                          "explicit",      "export",      "extern",
                                          "false",         "float",       "for",
                                          "friend",        "goto",        "if",
                                          "inline",        "int",         "long",
                                          "mutable",       "namespace",   "new",
                                          "noexcept",      "not",         "not_eq",
                                          "nullptr",       "operator",    "or",
                                          "or_eq",         "private",     "protected",
                                          "public",        "register",    "reinterpret_cast",
                                          "requires",      "return",      "short",
                                          "signed",        "sizeof",      "static",
                                          "static_assert", "static_cast", "struct",
                                          "switch",        "template",    "this",
                                          "thread_local",  "throw",       "true",
                                          "try",           "typedef",     "typeid",
                                          "typename",      "union",       "unsigned",
                                          "using",         "virtual",     "void",
                                          "volatile",      "wchar_t",     "while",
                                          "xor",           "xor_eq",      "main",
                                          "std",           "NULL",        "assert",
                                          "printf",        "min",         "max",
                                          "abs",           "threadIdx",   "blockIdx",
                                          "blockDim",      "gridDim",     "warpSize",
                                          "atomicAdd",     "atomicSub",   "atomicExch",
                                          "atomicMin",     "atomicMax",   "atomicCAS",
                                          "size_t",        "int8_t",      "int16_t",
                                          "int32_t",       "int64_t",     "uint8_t",
                                          "uint16_t",      "uint32_t",    "uint64_t",
                                          "sqrt",          "sqrtf",       "exp",
                                          "expf",          "exp2",        "exp2f",
                                          "expm1",         "expm1f",      "log",
                                          "logf",          "log2",        "log2f",
                                          "log10",         "log10f",      "log1p",
                                          "log1pf",        "sin",         "sinf",
                                          "cos",           "cosf",        "tan",
                                          "tanf",          "tanh",        "tanhf",
                                          "asin",          "asinf",       "acos",
                                          "acosf",         "atan",        "atanf",
                                          "atan2",         "atan2f",      "sinh",
                                          "sinhf",         "cosh",        "coshf",
                                          "pow",           "powf",        "fabs",
                                          "fabsf",         "floor",       "floorf",
                                          "ceil",          "ceilf",       "round",
                                          "roundf",        "trunc",       "truncf",
                                          "fmin",          "fminf",       "fmax",
                                          "fmaxf",         "fma",         "fmaf",
                                          "rint",          "rintf",       "erf",
                                          "erff",          "isnan",       "isinf",
                                          "signbit",       "memcpy",      "memset"};

bool reserved(std::string_view name) {
  for (std::string_view w : kReserved)
    if (w == name) return true;
  return false;
}

// A name that could meet one the emitter makes of a local's (`s_x`, `r_x`, `x_d0`, `s_x_init`),
// of its own (`vx_…`, `VX_…`; its temporaries are kept apart by RegionEmitter::tmp) or of a
// changed local (`v3_x`), or that C++ reserves (`__x`, `_X`) or that is no identifier.
bool needs_prefix(const std::string& n) {
  if (n.empty() || (n[0] >= '0' && n[0] <= '9') || n == "_") return true;
  for (char c : n)
    if (!ident_char(c)) return true;
  auto starts = [&](std::string_view p) {
    return n.size() >= p.size() && n.compare(0, p.size(), p) == 0;
  };
  if (starts("__") || (n[0] == '_' && n.size() > 1 && n[1] >= 'A' && n[1] <= 'Z')) return true;
  if (starts("vx_") || starts("VX_") || starts("s_") || starts("r_")) return true;
  if (n[0] == 'v' && n.size() > 1 && n[1] >= '0' && n[1] <= '9') {
    size_t i = 1;
    while (i < n.size() && n[i] >= '0' && n[i] <= '9') ++i;
    if (i == n.size() || n[i] == '_') return true;
  }
  if (n.size() > 5 && n.compare(n.size() - 5, 5, "_init") == 0) return true;
  const size_t d = n.rfind("_d");
  if (d != std::string::npos && d + 2 < n.size()) {
    bool digits = true;
    for (size_t i = d + 2; i < n.size(); ++i) digits = digits && n[i] >= '0' && n[i] <= '9';
    if (digits) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> local_names(const tir::Function& fn) {
  const size_t count = std::max(fn.slot_names.size(), fn.slot_types.size());
  std::vector<std::string> out(count);
  std::set<std::string> taken;
  for (size_t slot = 0; slot < count; ++slot) {
    const std::string vx = slot < fn.slot_names.size() ? fn.slot_names[slot] : std::string();
    std::string name = vx;
    if (vx.empty()) {
      name = "v" + std::to_string(slot);
    } else if (needs_prefix(vx)) {
      std::string clean;  // `t.0` → `t_0`; a non-ASCII letter → `_`
      for (char c : vx) clean += ident_char(c) ? c : '_';
      name = "v" + std::to_string(slot) + "_" + clean;
    } else if (reserved(vx)) {
      name = vx + "_";
    }
    // A second local of the same name (a shadowing `let`, two loops' `i`): `i_2`, `i_3`, …
    const std::string first = name + (name.back() == '_' ? "" : "_");  // `int_2`, not `int__2`
    for (int k = 2; taken.count(name); ++k) name = first + std::to_string(k);
    taken.insert(name);
    out[slot] = std::move(name);
  }
  return out;
}

std::string line_directive(const SourceFile& file, int line) {
  std::string path;
  for (char c : file.path()) {
    if (c == '"' || c == '\\') path += '\\';
    path += c;
  }
  return "#line " + std::to_string(line) + " \"" + path + "\"\n";
}

std::string indent_code(const std::string& code) {
  std::string out;
  out.reserve(code.size() + code.size() / 4);
  int depth = 0;
  size_t at = 0;
  while (at < code.size()) {
    size_t end = code.find('\n', at);
    if (end == std::string::npos) end = code.size();
    size_t first = code.find_first_not_of(" \t", at);
    if (first > end) first = end;
    const std::string_view line(code.data() + first, end - first);
    if (!line.empty() && line[0] != '#') {
      // Braces outside strings, characters and `//` comments.
      int opens = 0, closes = 0;
      char quote = 0;
      for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote) {
          if (c == '\\')
            ++i;
          else if (c == quote)
            quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') {
          break;
        } else if (c == '{') {
          ++opens;
        } else if (c == '}') {
          if (opens > 0)
            --opens;
          else
            ++closes;
        }
      }
      const int level = std::max(0, depth - (line[0] == '}' ? 1 : 0));
      out.append(static_cast<size_t>(2 * level), ' ');
      depth = std::max(0, depth - closes + opens);
    }
    out += line;
    if (end < code.size()) out += '\n';
    at = end + 1;
  }
  return out;
}

}  // namespace vx::offload::emit
