// NVRTC, opened with dlopen (DESIGN §5): compiles emitted CUDA C++ to a cubin for one sm_XX with
// -fmad=false --std=c++17, through a disk cache. Needs nothing at build time; at run time it finds
// libnvrtc on the loader path or in the CUDA toolkit ($CUDA_HOME, /usr/local/cuda).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vx::offload {

class Nvrtc {
 public:
  // Loads libnvrtc; false (with `error` saying what is missing) when it cannot.
  bool load(std::string& error);
  bool loaded() const { return create_ != nullptr; }
  std::string version() const;  // "13.0"

  // Compiles `source` for `arch` ("sm_90") to a cubin. Uses the cache unless VX_CACHE=0.
  // `cached` says whether the cubin came from the cache.
  bool compile(const std::string& source, const std::string& arch, std::vector<char>& cubin,
               std::string& log, bool* cached = nullptr,
               const std::vector<std::string>& extra_options = {});

 private:
  using CreateFn = int (*)(void**, const char*, const char*, int, const char* const*,
                           const char* const*);
  using CompileFn = int (*)(void*, int, const char* const*);
  using SizeFn = int (*)(void*, size_t*);
  using GetFn = int (*)(void*, char*);
  using DestroyFn = int (*)(void**);
  using VersionFn = int (*)(int*, int*);
  void* lib_ = nullptr;
  CreateFn create_ = nullptr;
  CompileFn compile_ = nullptr;
  SizeFn log_size_ = nullptr, cubin_size_ = nullptr;
  GetFn log_ = nullptr, cubin_ = nullptr;
  DestroyFn destroy_ = nullptr;
  VersionFn version_ = nullptr;
};

// The kernel cache directory: $VX_CACHE_DIR, else $XDG_CACHE_HOME/vx/kernels, else
// ~/.cache/vx/kernels; empty when VX_CACHE=0.
std::string kernel_cache_dir();

// The most bytes the kernel cache may hold: $VX_CACHE_MAX (a size, support/env_numbers.hpp), else
// 1 GiB. nullopt, with `error` saying so, when VX_CACHE_MAX is not a size.
std::optional<std::uintmax_t> kernel_cache_limit(std::string* error);

// Removes the kernel cache's least recently used entries (a KEY.cubin, by its modification time,
// which a hit renews, with its KEY.key) until its entries hold at most `limit` bytes. A key
// without its cubin goes first; files of other names are left alone.
void trim_kernel_cache(const std::string& dir, std::uintmax_t limit);

// The cache key of a text: its XXH3-128 digest (xxHash, seed 0) as 32 hex digits, high half
// first, as `xxhsum -H2` prints it. A cubin is stored as KEY.cubin beside KEY.key, the whole text
// it was compiled from, which a load compares: two texts of one digest are a miss, not a wrong
// kernel.
std::string digest_hex(const std::string& data);

}  // namespace vx::offload
