#include "offload/nvrtc.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace vx::offload {

namespace {
constexpr std::uintmax_t kMaxCachedCubin = std::uintmax_t{256} << 20;
}  // namespace

std::string digest_hex(const std::string& data) {
  uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  for (unsigned char c : data) {
    a = (a ^ c) * 0x100000001b3ull;
    b = (b ^ c) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b));
  return buf;
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
  const std::string path = dir.empty() ? "" : dir + "/" + digest_hex(key_text) + ".cubin";
  // A cache entry is used only as a regular file of at most kMaxCachedCubin bytes (a cubin of
  // every region of a large program is a few MiB): anything else is compiled afresh and replaced.
  std::error_code stat_error;
  if (!path.empty() && std::filesystem::is_regular_file(path, stat_error) &&
      std::filesystem::file_size(path, stat_error) <= kMaxCachedCubin && !stat_error) {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      cubin.assign(std::istreambuf_iterator<char>(in), {});
      if (!cubin.empty()) {
        if (cached) *cached = true;
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
  if (!path.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::string tmp = path + ".tmp." + std::to_string(getpid());
    {
      std::ofstream out(tmp, std::ios::binary);
      out.write(cubin.data(), static_cast<std::streamsize>(cubin.size()));
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) std::filesystem::remove(tmp, ec);
  }
  return true;
}

}  // namespace vx::offload
