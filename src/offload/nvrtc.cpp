#include "offload/nvrtc.hpp"

#include <dlfcn.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "support/env_numbers.hpp"

namespace vx::offload {

namespace {

constexpr std::uintmax_t kMaxCachedCubin = std::uintmax_t{256} << 20;

// Whether the file at `path` holds exactly `text` (read no further than one byte past it).
bool file_holds(const std::string& path, const std::string& text) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec) ||
      std::filesystem::file_size(path, ec) != text.size() || ec)
    return false;
  std::ifstream in(path, std::ios::binary);
  std::string held(text.size(), '\0');
  return in.read(held.data(), static_cast<std::streamsize>(held.size())) && held == text;
}

// Writes `path` through a file of this process's own renamed over it, so that another process
// reading the cache finds the old file or the new one, whole.
void replace_file(const std::string& path, const char* data, size_t size) {
  std::error_code ec;
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out.write(data, static_cast<std::streamsize>(size));
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) std::filesystem::remove(tmp, ec);
}

}  // namespace

std::string digest_hex(const std::string& data) {
  const XXH128_hash_t h = XXH3_128bits(data.data(), data.size());
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  return buf;
}

std::optional<std::uintmax_t> kernel_cache_limit(std::string* error) {
  if (const auto v = env_byte_size("VX_CACHE_MAX", int64_t{1} << 30, error))  // unset: 1 GiB
    return static_cast<std::uintmax_t>(*v);
  return std::nullopt;
}

void trim_kernel_cache(const std::string& dir, std::uintmax_t limit) {
  namespace fs = std::filesystem;
  struct Entry {
    fs::file_time_type used;
    std::uintmax_t bytes = 0;
    fs::path cubin, key;
  };
  auto is_key_name = [](const std::string& stem) {
    return stem.size() == 32 && stem.find_first_not_of("0123456789abcdef") == std::string::npos;
  };
  std::map<std::string, Entry> entries;  // by KEY
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    const std::string stem = p.stem().string();
    if (!is_key_name(stem) || !it->is_regular_file(ec)) continue;
    std::error_code size_error;
    const std::uintmax_t bytes = fs::file_size(p, size_error);
    if (size_error) continue;
    Entry& e = entries[stem];
    if (p.extension() == ".cubin") {
      e.cubin = p;
      e.used = fs::last_write_time(p, size_error);
    } else if (p.extension() == ".key") {
      e.key = p;
    } else {
      continue;
    }
    e.bytes += bytes;
  }
  std::vector<Entry*> order;
  std::uintmax_t total = 0;
  for (auto& [stem, e] : entries) {
    total += e.bytes;
    order.push_back(&e);
  }
  // Oldest first; a key alone (no cubin: its time is the epoch's) before any entry.
  std::stable_sort(order.begin(), order.end(), [](const Entry* a, const Entry* b) {
    if (a->cubin.empty() != b->cubin.empty()) return a->cubin.empty();
    return a->used < b->used;
  });
  for (const Entry* e : order) {
    if (total <= limit) break;
    // The cubin first: a key alone is a miss, a cubin alone would never be read again.
    if (!e->cubin.empty()) fs::remove(e->cubin, ec);
    if (!e->key.empty()) fs::remove(e->key, ec);
    total -= e->bytes;
  }
}

std::string kernel_cache_dir() {
  if (const char* off = std::getenv("VX_CACHE"); off && std::string(off) == "0") return "";
  if (const char* d = std::getenv("VX_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/vx/kernels";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/vx/kernels";
  return "";
}

bool Nvrtc::load(std::string& error) {
  if (lib_) return true;
  std::vector<std::string> names = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"};
  for (const char* env : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* h = std::getenv(env); h && *h)
      names.push_back(std::string(h) + "/lib64/libnvrtc.so");
  }
  names.push_back("/usr/local/cuda/lib64/libnvrtc.so");
  for (auto& n : names) {
    lib_ = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib_) break;
  }
  if (!lib_) {
    error =
        "no libnvrtc (looked on the loader path, in $CUDA_HOME/lib64 and /usr/local/cuda/lib64)";
    return false;
  }
  auto sym = [&](const char* s) { return dlsym(lib_, s); };
  create_ = reinterpret_cast<CreateFn>(sym("nvrtcCreateProgram"));
  compile_ = reinterpret_cast<CompileFn>(sym("nvrtcCompileProgram"));
  log_size_ = reinterpret_cast<SizeFn>(sym("nvrtcGetProgramLogSize"));
  log_ = reinterpret_cast<GetFn>(sym("nvrtcGetProgramLog"));
  cubin_size_ = reinterpret_cast<SizeFn>(sym("nvrtcGetCUBINSize"));
  cubin_ = reinterpret_cast<GetFn>(sym("nvrtcGetCUBIN"));
  destroy_ = reinterpret_cast<DestroyFn>(sym("nvrtcDestroyProgram"));
  version_ = reinterpret_cast<VersionFn>(sym("nvrtcVersion"));
  if (!create_ || !compile_ || !log_size_ || !log_ || !cubin_size_ || !cubin_ || !destroy_ ||
      !version_) {
    error = "libnvrtc lacks a function vx needs (nvrtcGetCUBIN needs CUDA 11.1 or later)";
    create_ = nullptr;
    return false;
  }
  return true;
}

std::string Nvrtc::version() const {
  int major = 0, minor = 0;
  if (version_) version_(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

bool Nvrtc::compile(const std::string& source, const std::string& arch, std::vector<char>& cubin,
                    std::string& log, bool* cached, const std::vector<std::string>& extra_options) {
  if (cached) *cached = false;
  std::vector<std::string> opts = {"--gpu-architecture=" + arch, "-fmad=false", "--std=c++17"};
  opts.insert(opts.end(), extra_options.begin(), extra_options.end());
  std::string key_text = source;
  for (auto& o : opts) key_text += "\n" + o;
  key_text += "\nnvrtc " + version() + "\n" + arch;
  const std::string dir = kernel_cache_dir();
  const std::string stem = dir.empty() ? "" : dir + "/" + digest_hex(key_text);
  const std::string path = stem + ".cubin", key_path = stem + ".key";
  // A cache entry is used only as a regular file of at most kMaxCachedCubin bytes (a cubin of
  // every region of a large program is a few MiB) beside a key file that holds this very text:
  // anything else is compiled afresh and replaced.
  std::error_code stat_error;
  if (!stem.empty() && std::filesystem::is_regular_file(path, stat_error) &&
      std::filesystem::file_size(path, stat_error) <= kMaxCachedCubin && !stat_error &&
      file_holds(key_path, key_text)) {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      cubin.assign(std::istreambuf_iterator<char>(in), {});
      if (!cubin.empty()) {
        if (cached) *cached = true;
        // Used now: the last that trim_kernel_cache removes.
        std::filesystem::last_write_time(path, std::filesystem::file_time_type::clock::now(),
                                         stat_error);
        return true;
      }
    }
  }
  void* prog = nullptr;
  if (create_(&prog, source.c_str(), "vx_kernels.cu", 0, nullptr, nullptr) != 0) {
    log = "nvrtcCreateProgram failed";
    return false;
  }
  std::vector<const char*> argv;
  for (auto& o : opts) argv.push_back(o.c_str());
  const int rc = compile_(prog, static_cast<int>(argv.size()), argv.data());
  size_t n = 0;
  log_size_(prog, &n);
  log.assign(n, '\0');
  if (n) log_(prog, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  if (rc != 0) {
    destroy_(&prog);
    return false;
  }
  cubin_size_(prog, &n);
  cubin.assign(n, '\0');
  cubin_(prog, cubin.data());
  destroy_(&prog);
  if (!stem.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    // The key first: a cubin is read only beside its key, and each file appears whole.
    replace_file(key_path, key_text.data(), key_text.size());
    replace_file(path, cubin.data(), cubin.size());
    std::string limit_error;  // a bad VX_CACHE_MAX is reported before anything runs
    if (const auto limit = kernel_cache_limit(&limit_error)) trim_kernel_cache(dir, *limit);
  }
  return true;
}

}  // namespace vx::offload
