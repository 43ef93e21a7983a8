// The emitted CUDA runs on the host (issue 5, point 7; spec/offload.md). Every region of every
// accepted corpus program (conformance/, and tests/cuda_host/programs/: larger blocks, more types,
// regions launched several times, runtime errors in late launches) is emitted; g++ compiles the
// kernels unchanged against tests/cuda_host/cuda_host.hpp (one fiber per lane); each launch the
// interpreter makes is run by the harness too, on copies of the captured tensors. At the
// checkpoint after the region the copies must equal the interpreter's tensors bit for bit (NaN
// payloads included), and the kernel must set its error flag exactly when the interpreter stops
// with a runtime error in the region; g++'s UBSan must find no undefined behaviour in the kernels.
// No GPU and no NVRTC needed: this is the CI check that the emitted code means what the
// interpreter does. The kernels go into two shared objects (each program in a namespace of its
// own), cached in build/cuda_host under a hash of their source.
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>

#include "cuda_host/corpus.hpp"
#include "interp/interpreter.hpp"
#include "offload/emit_cuda.hpp"
#include "offload/nvrtc.hpp"
#include "offload/runner.hpp"
#include "skip_main.hpp"

using namespace vx;

namespace {

using HostKernel = void (*)(void**);
using HostLaunch = bool (*)(const unsigned*, const int*, HostKernel, void**, char*, int);
struct HostEntry {
  const char* program;
  const char* kernel;
  HostKernel fn;
};

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// A translation unit for g++: the harness, `body` (kernels with their `<name>_host` wrappers), and
// the two entry points the test looks up: the table of `entries` (`{"program", "kernel",
// &ns::kernel_host},` lines) and vx_host_launch.
std::string harness_tu(const std::string& body, const std::string& entries) {
  return "#define VX_HOST_HARNESS\n#include \"cuda_host.hpp\"\n#include <cstdio>\n" + body +
         "\nstruct VxHostEntry { const char* program; const char* kernel; void (*fn)(void**); };\n"
         "extern \"C\" __attribute__((visibility(\"default\"))) const VxHostEntry "
         "vx_host_entries[] = {\n" +
         entries +
         "  {nullptr, nullptr, nullptr}};\n"
         "extern \"C\" __attribute__((visibility(\"default\"))) bool vx_host_launch(const "
         "unsigned* grid,\n"
         "    const int* block, void (*fn)(void**), void** args, char* error, int error_size) {\n"
         "  std::string e;\n"
         "  const bool ok = vx_host::launch(grid, block, fn, args, e);\n"
         "  std::snprintf(error, (size_t)error_size, \"%s\", e.c_str());\n"
         "  return ok;\n"
         "}\n";
}

// The kernels of the shared objects g++ builds from translation units (harness_tu), in parallel,
// each cached in the build tree (build/cuda_host/<prefix>_<hash>.{cpp,so,log}) under a hash of its
// source, the harness header and the flags; the files of older sources with the same prefix go.
class HostKernels {
 public:
  bool build(const std::string& prefix, const std::vector<std::string>& sources, std::string& why) {
    const std::string dir = VX_BINARY_DIR "/cuda_host";
    std::filesystem::create_directories(dir);
    const std::string flags =
        "-std=c++20 -O1 -ffp-contract=off -fPIC -shared -fvisibility=hidden -w "
        "-fsanitize=undefined "
        "-fno-sanitize=vptr";
    std::ifstream header_in(VX_SOURCE_DIR "/tests/cuda_host/cuda_host.hpp");
    std::stringstream header;
    header << header_in.rdbuf();
    std::vector<std::string> bases;
    std::vector<std::future<int>> jobs;
    for (auto& tu : sources) {
      char hash[17];
      std::snprintf(hash, sizeof hash, "%016llx",
                    static_cast<unsigned long long>(fnv1a(header.str() + tu + flags)));
      const std::string base = dir + "/" + prefix + "_" + hash;
      bases.push_back(base);
      if (std::filesystem::exists(base + ".so")) continue;
      std::ofstream(base + ".cpp") << tu;
      const std::string cmd = std::string(VX_HOST_CXX) + " " + flags +
                              " -I" VX_SOURCE_DIR "/tests/cuda_host -I" + VX_BOOST_INCLUDE + " " +
                              base + ".cpp -o " + base + ".so.tmp " + VX_BOOST_CONTEXT + " > " +
                              base + ".log 2>&1 && mv " + base + ".so.tmp " + base + ".so";
      jobs.push_back(std::async(std::launch::async, [cmd] { return std::system(cmd.c_str()); }));
    }
    for (auto& j : jobs) j.get();
    for (auto& e : std::filesystem::directory_iterator(dir)) {
      const std::string stem = (e.path().parent_path() / e.path().stem()).string();
      if (e.path().filename().string().rfind(prefix + "_", 0) == 0 &&
          std::find(bases.begin(), bases.end(), stem) == bases.end())
        std::filesystem::remove(e.path());
    }
    objects_.clear();
    for (const std::string& base : bases) {
      objects_.push_back(base + ".so");
      void* so = dlopen((base + ".so").c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!so) {
        const char* e = dlerror();
        std::ifstream in(base + ".log");
        std::stringstream log;
        log << in.rdbuf();
        why = "g++ could not build " + base + ".so (" + (e ? e : "") + "):\n" +
              log.str().substr(0, 20000);
        return false;
      }
      auto* launch = reinterpret_cast<HostLaunch>(dlsym(so, "vx_host_launch"));
      auto* table = reinterpret_cast<const HostEntry*>(dlsym(so, "vx_host_entries"));
      if (!launch || !table) {
        why = base + ".so lacks its entry points";
        return false;
      }
      for (const HostEntry* e = table; e->program; ++e)
        kernels_[std::string(e->program) + "#" + e->kernel] = {e->fn, launch};
    }
    return true;
  }

  // One translation unit per part for the emitted kernels of `programs` ((corpus path, regions)),
  // each program in a namespace of its own (kernel names repeat across programs).
  static std::vector<std::string> corpus_sources(
      const std::vector<std::pair<std::string, const std::vector<offload::EmittedRegion>*>>&
          programs,
      size_t parts) {
    std::vector<std::string> sources;
    for (size_t k = 0; k < parts; ++k) {
      std::string body = offload::cuda_prelude(), table;
      for (size_t i = k; i < programs.size(); i += parts) {
        const std::string ns = "vx_program_" + std::to_string(i);
        body += "\nnamespace " + ns + " {\n";
        for (auto& r : *programs[i].second) {
          if (!r.ok) continue;
          body += r.source;
          table += "  {\"" + programs[i].first + "\", \"" + r.name + "\", &" + ns + "::" + r.name +
                   "_host},\n";
        }
        // The emitter guards a program's device functions with #ifndef VX_FN_<n> (regions share
        // them); the next program's functions of the same names need the guards gone.
        for (auto& r : *programs[i].second)
          for (size_t at = r.source.find("#define VX_FN_"); at != std::string::npos;
               at = r.source.find("#define VX_FN_", at + 1)) {
            const size_t name = at + std::string("#define ").size();
            body += "#undef " + r.source.substr(name, r.source.find('\n', name) - name) + "\n";
          }
        body += "}  // namespace " + ns + "\n";
      }
      sources.push_back(harness_tu(body, table));
    }
    return sources;
  }

  // The shared objects of the last build.
  const std::vector<std::string>& objects() const { return objects_; }

  std::optional<std::pair<HostKernel, HostLaunch>> find(const std::string& program,
                                                        const std::string& kernel) const {
    auto it = kernels_.find(program + "#" + kernel);
    if (it == kernels_.end()) return std::nullopt;
    return it->second;
  }

 private:
  std::map<std::string, std::pair<HostKernel, HostLaunch>> kernels_;
  std::vector<std::string> objects_;
};

// While a kernel runs in the harness, stderr goes to a file: the kernels are built with UBSan, so
// that undefined behaviour in emitted code (which nvcc could exploit) is reported there, and the
// test fails with the report. A crash (a wild pointer, a lane's stack overflowing into its guard
// page) names the region before the test dies: the handler runs on a stack of its own and hands
// the signal on to doctest's, which reports the test case.
const char* region_on_fibers = nullptr;
int saved_stderr = -1;
struct sigaction previous_segv, previous_bus;
void on_crash(int sig) {
  if (saved_stderr >= 0) dup2(saved_stderr, 2);
  if (region_on_fibers) {
    const char head[] = "\ncuda_host_test: crashed in the harness running the region at ";
    [[maybe_unused]] auto a = write(2, head, sizeof head - 1);
    [[maybe_unused]] auto b = write(2, region_on_fibers, std::strlen(region_on_fibers));
    const char tail[] =
        " (a wild pointer, or a lane's 128 KiB stack overflowed); its stderr is in "
        "build/cuda_host/stderr\n";
    [[maybe_unused]] auto c = write(2, tail, sizeof tail - 1);
  }
  sigaction(sig, sig == SIGSEGV ? &previous_segv : &previous_bus, nullptr);
  std::raise(sig);
}
class LaunchGuard {
 public:
  explicit LaunchGuard(const std::string& location) {
    static bool installed = [] {
      static std::vector<char> alt(1 << 16);
      stack_t ss{};
      ss.ss_sp = alt.data();
      ss.ss_size = alt.size();
      sigaltstack(&ss, nullptr);
      struct sigaction sa {};
      sa.sa_handler = on_crash;
      sa.sa_flags = SA_ONSTACK;
      sigaction(SIGSEGV, &sa, &previous_segv);
      sigaction(SIGBUS, &sa, &previous_bus);
      return true;
    }();
    (void)installed;
    region_on_fibers = location.c_str();
    std::fflush(stderr);
    std::cerr.flush();
    file_ = open(path().c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
    saved_stderr = dup(2);
    dup2(file_, 2);
  }
  // What the kernel wrote to stderr.
  std::string finish() {
    std::fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    saved_stderr = -1;
    region_on_fibers = nullptr;
    close(file_);
    file_ = -1;
    std::ifstream in(path());
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  ~LaunchGuard() {
    if (file_ >= 0) finish();
  }

 private:
  static std::string path() { return VX_BINARY_DIR "/cuda_host/stderr"; }
  int file_ = -1;
};

struct Totals {
  int programs = 0, regions = 0, launches = 0, empty_grids = 0, errors_matched = 0,
      outputs_checked = 0;
  uint64_t lanes_run = 0;
  uint64_t bytes_compared = 0;
};

// Runs each launch of an emitted region in the harness (before the interpreter runs it) and
// compares at the checkpoint after the region.
class HarnessRunner final : public interp::RegionRunner {
 public:
  HarnessRunner(const tir::Program& program, const std::string& path,
                const std::vector<offload::EmittedRegion>& regions, const HostKernels& kernels,
                Totals& totals)
      : program_(program), path_(path), regions_(regions), kernels_(kernels), totals_(totals) {
    for (size_t i = 0; i < regions_.size(); ++i) by_spawn_[regions_[i].spawn] = i;
  }
  std::vector<std::string> failures;
  std::set<size_t> regions_run;
  bool pending() const { return pending_.has_value(); }
  int pending_error() const { return pending_ ? pending_->error : 0; }
  std::string pending_location() const {
    return pending_ ? regions_[pending_->region].location : "";
  }

  void at_mark(const tir::Mark& mark, interp::Frame&) override {
    if (mark.kind != tir::MarkKind::Checkpoint) return;
    if (pending_) compare();
    pending_.reset();
  }
  bool run_region(const tir::Stmt& spawn, interp::Frame& frame) override {
    auto it = by_spawn_.find(&spawn);
    if (it == by_spawn_.end() || !regions_[it->second].ok) return false;
    const offload::EmittedRegion& r = regions_[it->second];
    auto kernel = kernels_.find(path_, r.name);
    if (!kernel) {
      failures.push_back(r.location + ": no host kernel " + r.name);
      return false;
    }
    const tir::Function& fn = program_.functions[static_cast<size_t>(r.function)];
    Pending p;
    p.region = it->second;
    // One copy per storage: two views of one tensor stay aliased in the kernel.
    auto pointer_of = [&](int slot, const interp::TensorView& v) -> uint64_t {
      const std::byte* base = v.storage ? v.storage->data : v.data;
      const int64_t elems = v.storage ? v.storage->size : v.size;
      for (auto& c : p.copies)
        if (c.host == base) return reinterpret_cast<uint64_t>(c.bytes.data() + (v.data - base));
      Copy c;
      c.host = base;
      c.scalar = v.storage ? v.storage->elem : fn.slot_types[static_cast<size_t>(slot)].scalar;
      c.name = fn.slot_names[static_cast<size_t>(slot)];
      c.bytes.assign(base, base + elems * interp::scalar_size(c.scalar));
      p.copies.push_back(std::move(c));
      return reinterpret_cast<uint64_t>(p.copies.back().bytes.data() + (v.data - base));
    };
    p.copies.reserve(r.params.size());  // pointers into the copies stay valid
    std::string why;
    if (!offload::build_launch(r, frame, pointer_of, p.args, why)) {
      failures.push_back(r.location + ": the launch could not be built: " + why);
      return false;
    }
    if (p.args.empty) {
      ++totals_.empty_grids;
    } else {
      char error[512] = {};
      LaunchGuard guard(r.location);
      const bool ran = kernel->second(p.args.grid, r.block, kernel->first, p.args.params.data(),
                                      error, sizeof error);
      if (const std::string text = guard.finish(); !text.empty())
        failures.push_back(r.location +
                           ": the kernel wrote to stderr (UBSan reports undefined behaviour):\n" +
                           text.substr(0, 4000));
      if (!ran) {
        failures.push_back(r.location + ": the harness failed: " + error);
        return false;
      }
      totals_.lanes_run += uint64_t{p.args.grid[0]} * p.args.grid[1] * p.args.grid[2] *
                           static_cast<uint64_t>(r.block[0] * r.block[1] * r.block[2]);
    }
    p.error = p.args.error;
    ++totals_.launches;
    regions_run.insert(p.region);
    pending_ = std::move(p);
    return false;  // the interpreter runs the region too; the checkpoint compares
  }

 private:
  struct Copy {
    const std::byte* host = nullptr;
    std::vector<std::byte> bytes;
    Scalar scalar = Scalar::F32;
    std::string name;
  };
  struct Pending {
    size_t region = 0;
    offload::LaunchArgs args;
    std::vector<Copy> copies;
    int error = 0;
  };

  void compare() {
    const offload::EmittedRegion& r = regions_[pending_->region];
    if (pending_->error != 0) {
      failures.push_back(r.location + ": the kernel set error code " +
                         std::to_string(pending_->error) +
                         " but the interpreter ran the region without a runtime error");
      return;
    }
    for (auto& c : pending_->copies) {
      const size_t es = static_cast<size_t>(std::max(1, interp::scalar_size(c.scalar)));
      totals_.bytes_compared += c.bytes.size();
      // verify's rule: bit for bit, but any two NaNs are equal (spec/offload.md)
      const offload::VerifyResult v =
          offload::compare_launch(c.host, c.bytes.data(), c.bytes.size(), c.scalar, false);
      if (v.first_difference < 0) continue;
      const size_t k = static_cast<size_t>(v.first_difference) * es;
      failures.push_back(r.location + ": `" + c.name + "` element " +
                         std::to_string(v.first_difference) + ": harness " +
                         offload::element_text(c.bytes.data() + k, c.scalar) + ", interpreter " +
                         offload::element_text(c.host + k, c.scalar));
    }
  }

  const tir::Program& program_;
  std::string path_;
  const std::vector<offload::EmittedRegion>& regions_;
  const HostKernels& kernels_;
  Totals& totals_;
  std::map<const tir::Stmt*, size_t> by_spawn_;
  std::optional<Pending> pending_;
};

struct Loaded {
  std::unique_ptr<testing::CorpusProgram> program;
  std::vector<offload::EmittedRegion> regions;
};

// Every accepted corpus program with spawn regions, checked and emitted; `skipped` says which
// are left out and why.
std::vector<Loaded> load_corpus(std::vector<std::string>& skipped) {
  std::vector<Loaded> loaded;
  for (const std::string& path : testing::offload_corpus_files(VX_SOURCE_DIR)) {
    const std::string rel = path.substr(std::string(VX_SOURCE_DIR).size() + 1);
    Machine machine = default_machine();
    if (const std::string m = testing::machine_flag(path); !m.empty()) {
      std::string error;
      REQUIRE_MESSAGE(load_machine(std::string(VX_SOURCE_DIR) + "/" + m, machine, error), error);
      if (!machine.has_blocks_and_lanes()) {
        skipped.push_back(rel + ": checked for " + m +
                          ", which has no blocks or lanes (no kernel)");
        continue;
      }
    }
    Loaded l;
    l.program = testing::load_program(path, rel, machine);
    if (!l.program) {
      skipped.push_back(rel + ": refused by the checker (not a program the GPU could run)");
      continue;
    }
    l.regions = offload::emit_regions(*l.program->program);
    bool listed = false;
    for (const std::string& problem : testing::emission_problems(rel, l.regions, listed))
      FAIL_CHECK(problem);
    if (listed) {
      skipped.push_back(rel + ": a region is not emitted (" + testing::not_emitted_yet().at(rel) +
                        ")");
      continue;
    }
    loaded.push_back(std::move(l));
  }

  return loaded;
}

// The corpus kernels, built by g++ into the harness's shared objects (cached).
void build_corpus(const std::vector<Loaded>& loaded, HostKernels& kernels) {
  std::vector<std::pair<std::string, const std::vector<offload::EmittedRegion>*>> sources;
  for (auto& l : loaded) sources.emplace_back(l.program->path, &l.regions);
  std::string why;
  REQUIRE_MESSAGE(kernels.build("corpus", HostKernels::corpus_sources(sources, 2), why), why);
}

// Hand-written kernels for the harness's own test: what CUDA defines for full warps and blocks.
const char* kHarnessKernels = R"(
// Every lane of a 3-D grid of 3-D blocks runs once, with its own coordinates.
static void coords(void** a) {
  int* seen = *(int**)a[0];
  const unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  seen[b * blockDim.x * blockDim.y * blockDim.z + t] += 1;
}
// After a barrier every lane sees what every lane did before it; shared memory is per block.
static void barrier(void** a) {
  int* out = *(int**)a[0];
  __shared__ int count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  __syncthreads();
  const int first = count;
  __syncthreads();
  atomicAdd(&count, 2);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = first * 10000 + count;
}
// Two shuffles in a row (a lane that runs ahead must not overwrite a value another lane has yet
// to read), for every type the emitter uses, and one with a segment width of 8.
template <class T> static T twice(T v) {
  return __shfl_down_sync(0xffffffffu, __shfl_down_sync(0xffffffffu, v, 5), 1);
}
static void shuffles(void** a) {
  long long* out = *(long long**)a[0];
  double* outf = *(double**)a[1];
  const int t = (int)threadIdx.x;
  out[t * 5 + 0] = twice(t - 100);
  out[t * 5 + 1] = twice((unsigned)t);
  out[t * 5 + 2] = twice((long long)t << 40);
  out[t * 5 + 3] = (long long)twice((unsigned long long)t << 50);
  out[t * 5 + 4] = __shfl_down_sync(0xffffffffu, t, 2, 8);
  outf[t * 2 + 0] = twice((float)t + 0.25f);
  outf[t * 2 + 1] = twice((double)t + 0.5);
}
// Warp 0 alone shuffles while the other warps wait at the barrier (the emitter's reductions).
static void warp0(void** a) {
  int* out = *(int**)a[0];
  const int t = (int)threadIdx.x;
  int v = t + 1;
  if (t < 32)
    for (int d = 16; d >= 1; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  __syncthreads();
  out[t] = v;
}
// A shuffle the rest of its warp never reaches.
static void stuck(void**) {
  if (threadIdx.x == 0) __shfl_down_sync(0xffffffffu, 1, 1);
}
)";

// CUDA's __shfl_down_sync on full warps: the value of lane + delta within the lane's segment.
template <class T>
std::vector<T> shfl_down(const std::vector<T>& v, unsigned delta, unsigned width = 32) {
  std::vector<T> r(v.size());
  for (size_t t = 0; t < v.size(); ++t) r[t] = t % width + delta < width ? v[t + delta] : v[t];
  return r;
}

}  // namespace

TEST_CASE("the harness: grids, barriers, warp shuffles, deadlocks") {
  std::string table;
  for (const char* k : {"coords", "barrier", "shuffles", "warp0", "stuck"})
    table += std::string("  {\"harness\", \"") + k + "\", &" + k + "},\n";
  HostKernels kernels;
  std::string why;
  REQUIRE_MESSAGE(kernels.build("harness", {harness_tu(kHarnessKernels, table)}, why), why);
  auto run = [&](const char* name, std::array<unsigned, 3> grid, std::array<int, 3> block,
                 std::vector<void*> pointers, std::string& error) {
    auto k = kernels.find("harness", name);
    REQUIRE(k);
    std::vector<void*> args;
    for (auto& p : pointers) args.push_back(&p);
    char text[512] = {};
    const bool ok = k->second(grid.data(), block.data(), k->first, args.data(), text, sizeof text);
    error = text;
    return ok;
  };
  std::string error;
  {
    std::vector<int> seen(3 * 2 * 2 * 1024, 0);
    REQUIRE(run("coords", {3, 2, 2}, {8, 8, 16}, {seen.data()}, error));
    CHECK(std::count(seen.begin(), seen.end(), 1) == static_cast<long>(seen.size()));
  }
  {
    std::vector<int> out(4 * 96, 0);
    REQUIRE(run("barrier", {4, 1, 1}, {96, 1, 1}, {out.data()}, error));
    CHECK(std::count(out.begin(), out.end(), 96 * 10000 + 96 * 3) == static_cast<long>(out.size()));
  }
  {
    const int n = 64;
    std::vector<long long> out(n * 5);
    std::vector<double> outf(n * 2);
    REQUIRE(run("shuffles", {1, 1, 1}, {n, 1, 1}, {out.data(), outf.data()}, error));
    std::vector<int> i(n);
    std::vector<unsigned> u(n);
    std::vector<long long> l(n);
    std::vector<unsigned long long> ul(n);
    std::vector<float> f(n);
    std::vector<double> d(n);
    std::vector<int> plain(n);
    for (int t = 0; t < n; ++t) {
      i[t] = t - 100;
      u[t] = static_cast<unsigned>(t);
      l[t] = static_cast<long long>(t) << 40;
      ul[t] = static_cast<unsigned long long>(t) << 50;
      f[t] = static_cast<float>(t) + 0.25f;
      d[t] = t + 0.5;
      plain[t] = t;
    }
    auto twice = [](auto v) { return shfl_down(shfl_down(v, 5), 1); };
    const auto ei = twice(i);
    const auto eu = twice(u);
    const auto el = twice(l);
    const auto eul = twice(ul);
    const auto ef = twice(f);
    const auto ed = twice(d);
    const auto e8 = shfl_down(plain, 2, 8);
    for (int t = 0; t < n; ++t) {
      INFO("lane " << t);
      CHECK(out[t * 5 + 0] == ei[t]);
      CHECK(out[t * 5 + 1] == eu[t]);
      CHECK(out[t * 5 + 2] == el[t]);
      CHECK(static_cast<unsigned long long>(out[t * 5 + 3]) == eul[t]);
      CHECK(out[t * 5 + 4] == e8[t]);
      CHECK(outf[t * 2 + 0] == ef[t]);
      CHECK(outf[t * 2 + 1] == ed[t]);
    }
  }
  {
    std::vector<int> out(256, 0);
    REQUIRE(run("warp0", {2, 1, 1}, {256, 1, 1}, {out.data()}, error));
    CHECK(out[0] == 32 * 33 / 2);
    CHECK(out[40] == 41);
  }
  CHECK_FALSE(run("stuck", {1, 1, 1}, {64, 1, 1}, {}, error));
  CHECK(error.find("deadlock") != std::string::npos);
  MESSAGE("deadlock reported: " << error);
  // The harness still works after a deadlock (its fibers were unwound).
  std::vector<int> out(96, 0);
  CHECK(run("barrier", {1, 1, 1}, {96, 1, 1}, {out.data()}, error));
  CHECK(out[95] == 96 * 10000 + 96 * 3);
}

TEST_CASE("every corpus kernel runs on the host harness bit for bit with the interpreter") {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::string> skipped;
  std::vector<Loaded> loaded = load_corpus(skipped);

  HostKernels kernels;
  const auto c0 = std::chrono::steady_clock::now();
  build_corpus(loaded, kernels);
  const double compile_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();

  Totals totals;
  int regions_emitted = 0, runtime_errors = 0;
  for (auto& l : loaded) {
    INFO(l.program->path);
    regions_emitted += static_cast<int>(l.regions.size());
    HarnessRunner runner(*l.program->program, l.program->path, l.regions, kernels, totals);
    tir::Marks checkpoints;
    offload::mark_checkpoints(*l.program->program, checkpoints);
    std::ostringstream out, err;
    RunOptions run;
    run.out = &out;
    run.err = &err;
    run.runner = &runner;
    run.marks = &checkpoints;
    const int status = run_program(*l.program->program, run);
    for (auto& f : runner.failures) FAIL_CHECK(f);
    // A runtime error inside a region leaves its comparison pending: the kernel must have flagged
    // it. Any other runtime error (outside regions) is the interpreter's alone.
    if (runner.pending()) {
      CHECK_MESSAGE(status == 101, "a region's checkpoint was never reached, status " << status);
      CHECK_MESSAGE(runner.pending_error() != 0,
                    runner.pending_location()
                        << ": the interpreter stopped with a runtime error in the "
                           "region, the kernel set no error flag:\n"
                        << err.str());
      ++runtime_errors;
      if (runner.pending_error() != 0) ++totals.errors_matched;
    }
    CHECK_MESSAGE(l.program->expects_runtime_error == (status == 101), "status " << status << "\n"
                                                                                 << err.str());
    // A program of tests/cuda_host/programs/ with a .stdout beside it prints what that file says:
    // the llm.c kernels' outputs, computed without vx (llmc_expected.py, numpy).
    const std::string& rel = l.program->path;
    const std::string expected_path =
        std::string(VX_SOURCE_DIR) + "/" + rel.substr(0, rel.size() - 3) + ".stdout";
    if (rel.rfind("tests/cuda_host/programs/", 0) == 0 && std::filesystem::exists(expected_path)) {
      std::ifstream in(expected_path);
      std::stringstream expected;
      expected << in.rdbuf();
      CHECK_MESSAGE(out.str() == expected.str(), "the interpreter printed\n" << out.str());
      ++totals.outputs_checked;
    }
    ++totals.programs;
    totals.regions += static_cast<int>(runner.regions_run.size());
  }
  const double total_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::ostringstream summary;
  summary << totals.programs << " programs, " << regions_emitted << " regions emitted, "
          << totals.regions << " regions run by the harness, " << totals.launches << " launches ("
          << totals.empty_grids << " with an empty grid), " << totals.lanes_run << " lanes, "
          << totals.bytes_compared << " bytes compared, " << runtime_errors
          << " runtime errors in regions (" << totals.errors_matched << " flagged by the kernel), "
          << totals.outputs_checked << " outputs as their .stdout; g++ " << compile_s
          << " s, total " << total_s << " s\n"
          << skipped.size() << " skipped:";
  for (auto& s : skipped) summary << "\n  " << s;
  MESSAGE(summary.str());
  // Today's figures: the test must never pass with less (a corpus that no longer loads, say).
  CHECK(totals.programs >= 60);
  CHECK(totals.regions >= 66);
  CHECK(totals.launches >= 86);
  CHECK(totals.errors_matched >= 5);
  CHECK(totals.outputs_checked >= 7);  // tests/cuda_host/programs/llmc_*.stdout
}

namespace {

struct VxRun {
  int status = -1;
  std::string out, err;
};

// `vx run FLAGS FILE` from the source tree, with extra environment settings (`VAR=value …`).
VxRun run_vx(const std::string& env, const std::string& flags, const std::string& file,
             const std::string& command = "run") {
  const std::string dir = VX_BINARY_DIR "/fake_cuda_runs";
  std::filesystem::create_directories(dir);
  const std::string out = dir + "/stdout", err = dir + "/stderr";
  const std::string cmd = "cd " VX_SOURCE_DIR " && env " + env + " " VX_BINARY_DIR "/vx " +
                          command + " " + flags + " " + file + " > " + out + " 2> " + err;
  VxRun r;
  const int rc = std::system(cmd.c_str());
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  std::ifstream o(out), e(err);
  std::stringstream so, se;
  so << o.rdbuf();
  se << e.rdbuf();
  r.out = so.str();
  r.err = se.str();
  return r;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The run-flags a corpus program's first line asks for (the conformance runner's header).
std::string run_flags(const std::string& path) {
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  const auto at = first.find("run-flags:");
  return at == std::string::npos ? "" : first.substr(at + 10);
}

// Regressions of the GPU path: every region of these programs must run on the GPU and verify (the
// count of each). Shared arrays over 48 KiB (dynamic shared memory; before, ptxas refused the whole
// program's kernels), argmax's ties (the tree kept a larger index) and reductions of a tile near
// the machine's shared memory (before, their scratch was as large as the tile); and llm.c's
// kernels (issue 20), small twins of tools/bench/cuda's programs, whose regions must not fall back
// to the interpreter (the bench would time the interpreter).
const std::map<std::string, int>& must_verify() {
  static const std::map<std::string, int> programs = {
      {"conformance/memory/big_tile_dynamic_smem.vx", 2},
      {"conformance/kernel_rules/tile_fits_on_h100.vx", 1},
      {"conformance/builtins/lanes_argmax_ties.vx", 1},
      {"conformance/builtins/lanes_max_argmax.vx", 1},
      {"conformance/memory/half_helper_returns.vx", 1},
      {"conformance/memory/reduce_scratch_per_thread.vx", 2},
      {"conformance/memory/if_branch_runs_once.vx", 1},
      {"tests/cuda_host/programs/llmc_encoder.vx", 1},
      {"tests/cuda_host/programs/llmc_residual.vx", 1},
      {"tests/cuda_host/programs/llmc_residual_bf16.vx", 1},
      {"tests/cuda_host/programs/llmc_gelu_bf16.vx", 1},
      {"tests/cuda_host/programs/llmc_matmul.vx", 1},
      {"tests/cuda_host/programs/llmc_attention.vx", 3},
      {"tests/cuda_host/programs/llmc_crossentropy.vx", 1},
      {"tests/cuda_host/programs/nan_bits.vx", 1},
  };
  return programs;
}

}  // namespace

// The runner around the launches (spec/offload.md "Memory", "Where a region runs") without a GPU:
// tests/cuda_host/fake_libcuda.cpp stands in for libcuda.so.1 and runs each launch on the host
// harness, with the corpus kernels g++ built above. NVRTC still compiles every program (the
// stand-in accepts its cubin), so the whole path of `vx run --offload=verify|gpu` runs: the kernel
// cache, device copies and their validity flags, sync marks, error flags and the interpreter's
// rerun, verify's comparison and its report of a wrong result.
TEST_CASE("vx run --offload=verify and --offload=gpu through a stand-in CUDA driver") {
  {
    offload::Nvrtc nvrtc;
    std::string why;
    if (!nvrtc.load(why))
      return testing::skip(why + " (the runner compiles with NVRTC before it loads a module)");
  }
  std::vector<std::string> skipped;
  std::vector<Loaded> loaded = load_corpus(skipped);
  HostKernels kernels;
  build_corpus(loaded, kernels);
  std::string objects;
  for (auto& o : kernels.objects()) objects += (objects.empty() ? "" : ":") + o;
  const std::string cache = VX_BINARY_DIR "/fake_cuda_runs/kernel_cache";
  auto fake = [&](const std::string& program) {
    return "VX_CUDA_DRIVER=" VX_FAKE_CUDA_DIR "/libvx_fake_cuda.so VX_FAKE_CUDA_SO=" + objects +
           " VX_FAKE_CUDA_PROGRAM=" + program + " VX_CACHE_DIR=" + cache;
  };
  // VX_CORPUS_EVERY=N (the sanitizer build, tests/sanitize.cmake) runs every Nth program and those
  // of must_verify; the release build runs them all.
  const char* every_env = std::getenv("VX_CORPUS_EVERY");
  const int every = every_env != nullptr ? std::max(1, std::atoi(every_env)) : 1;
  int programs = 0, verified = 0, gpu_launches = 0, seen = 0;
  for (auto& l : loaded) {
    const std::string& rel = l.program->path;
    INFO(rel);
    const bool chosen = seen++ % every == 0 || must_verify().count(rel) != 0;
    if (!chosen) continue;
    const std::string flags = run_flags(std::string(VX_SOURCE_DIR) + "/" + rel);
    const VxRun ref = run_vx("VX_CACHE=0", "--offload=off " + flags, rel);
    const VxRun ver = run_vx(fake(rel), "-v --offload=verify " + flags, rel);
    CHECK_MESSAGE(ver.out == ref.out, ver.err);
    CHECK_MESSAGE(ver.status == ref.status, ver.err);
    CHECK_MESSAGE(ver.err.find("no CUDA device") == std::string::npos, ver.err);
    CHECK_MESSAGE(ver.err.find("differs from the interpreter") == std::string::npos, ver.err);
    const VxRun gpu = run_vx(fake(rel), "-v --offload=gpu " + flags, rel);
    CHECK_MESSAGE(gpu.out == ref.out, gpu.err);
    CHECK_MESSAGE(gpu.status == ref.status, gpu.err);
    verified += static_cast<int>(count(ver.err, ", verified bit-identical"));
    gpu_launches += static_cast<int>(count(gpu.err, " GPU launch(es)"));
    ++programs;
    if (auto it = must_verify().find(rel); it != must_verify().end())
      CHECK_MESSAGE(count(ver.err, ", verified bit-identical") == it->second, ver.err);
  }
  MESSAGE(programs << " programs under --offload=verify and =gpu on the stand-in driver; "
                   << verified << " regions verified bit-identical; " << gpu_launches
                   << " regions launched under gpu");
  CHECK(programs >= 60 / every);
  CHECK(verified >= 54 / every);
  CHECK(gpu_launches >= 54 / every);

  // dbg! on the GPU (spec/builtins.md §7): CUDA's printf lines, sent to stderr while the launch
  // runs, are the interpreter's lines in some order; stdout holds the program's output alone.
  {
    const std::string prog = "tests/cuda_host/programs/dbg_lines.vx";
    auto dbg_lines = [&](const std::string& text) {
      std::vector<std::string> v;
      std::istringstream in(text);
      for (std::string line; std::getline(in, line);)
        if (line.rfind("[" + prog + ":", 0) == 0) v.push_back(line);
      std::sort(v.begin(), v.end());
      return v;
    };
    const VxRun ref = run_vx("VX_CACHE=0", "--offload=off", prog);
    const VxRun gpu = run_vx(fake(prog), "-v --offload=gpu", prog);
    INFO(gpu.err);
    CHECK(gpu.out == ref.out);
    CHECK(dbg_lines(ref.err).size() == 128);  // 2 blocks × 32 lanes × 2 dbg!
    CHECK(dbg_lines(gpu.err) == dbg_lines(ref.err));
    CHECK(count(gpu.err, " GPU launch(es)") == 1);
  }

  // --offload=auto (threshold 2): of each region, launches 1 and 2 on the interpreter, 3 on the
  // GPU verified, 4 and 5 on the GPU; the second region reads what the first wrote on the GPU.
  {
    const std::string prog = "tests/cuda_host/programs/auto_offload.vx";
    const VxRun ref = run_vx("VX_CACHE=0", "--offload=off", prog);
    const VxRun aut = run_vx(fake(prog) + " VX_TIME_KERNEL=1", "-v --profile --offload=auto", prog);
    INFO(aut.err);
    CHECK(aut.out == ref.out);
    for (const std::string at : {"10:9", "17:9"}) {
      const std::string region = "tests/cuda_host/programs/auto_offload.vx:" + at;
      // VX_TIME_KERNEL: every launch; the verified one on both tiers.
      CHECK(count(aut.err, "vx: kernel " + region + ": ") == 6);
      CHECK(aut.err.find("vx: " + region + ": 3 GPU launch(es), verified bit-identical\n") !=
            std::string::npos);
      CHECK(aut.err.find("vx profile: " + region) != std::string::npos);
    }
    CHECK(count(aut.err, ", host, ") ==
          6);  // the interpreter's launches: 2 + the verified one, each
    CHECK(count(aut.err, " ms, grid 8x1x1, block ") == 6);  // the GPU's: 3 each
  }

  // A wrong result from the "GPU" (one bit flipped in the first tensor downloaded after the
  // launch, `inp`): verify names the region, the tensor, the element and both values with their
  // bits, and the program's output stays the interpreter's.
  const std::string rel = "conformance/memory/register_tiles.vx";
  const VxRun ref = run_vx("VX_CACHE=0", "--offload=off", rel);
  const VxRun bad = run_vx(fake(rel) + " VX_FAKE_CUDA_FLIP=1", "--offload=verify", rel);
  CHECK(bad.out == ref.out);
  CHECK(bad.status == 0);
  INFO(bad.err);
  CHECK(bad.err.find(
            "vx: verify: the region at conformance/memory/register_tiles.vx:17:5 differs from the "
            "interpreter: `inp` element 0: GPU -3.00000024 (bits 0xc0400001), interpreter -3 (bits "
            "0xc0400000); the region stays on the interpreter\n") != std::string::npos);

  // Seed 002's gelu_forward on the GPU tier through `vx call` (spec/cli.md §2.2), on .npy files
  // that `vx run --dump-npy` writes: the result file is, byte for byte, the interpreter's call's;
  // and `--dump-regions` of the program on both tiers are equal to `vx diff` (§2.1).
  {
    const std::string gelu = "conformance/book/blog_gelu_forward_exact.vx";
    const std::string dir = VX_BINARY_DIR "/fake_cuda_runs/call";
    std::filesystem::create_directories(dir);
    {
      std::ofstream make(dir + "/make.vx");
      make << "fn main() {\n"
              "    let mut inp = Tensor<f32, [4099]>::fill(0.0);\n"
              "    for i in 0..4099 {\n"
              "        inp[i] = ((i % 2001) - 1000) as f32 * 0.005;\n"
              "    }\n"
              "    let out = Tensor<f32, [4099]>::fill(0.0);\n"
              "}\n";
    }
    const VxRun made = run_vx("VX_CACHE=0", "--dump-npy=" + dir, dir + "/make.vx");
    REQUIRE_MESSAGE(made.status == 0, made.err);
    const std::string args = " gelu_forward --arg inp=" + dir + "/inp.npy --arg out=" + dir +
                             "/out.npy --arg n=4099 --out out=" + dir;
    const VxRun host = run_vx("VX_CACHE=0", "--offload=off", gelu + args + "/host.npy", "call");
    CHECK_MESSAGE(host.status == 0, host.err);
    const VxRun gpu = run_vx(fake(gelu), "-v --offload=gpu", gelu + args + "/gpu.npy", "call");
    CHECK_MESSAGE(gpu.status == 0, gpu.err);
    CHECK_MESSAGE(count(gpu.err, " GPU launch(es)") == 1, gpu.err);
    auto bytes = [](const std::string& path) {
      std::ifstream f(path, std::ios::binary);
      return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    };
    const std::string h = bytes(dir + "/host.npy"), g = bytes(dir + "/gpu.npy");
    CHECK(h.size() == 128 + 4099 * 4);  // the 128-byte header of format 1.0, then the floats
    CHECK(h == g);
    CHECK(h != bytes(dir + "/out.npy"));  // the call wrote its result

    const VxRun dump_off =
        run_vx("VX_CACHE=0", "--offload=off --dump-regions --dump=" + dir + "/off.json", gelu);
    CHECK_MESSAGE(dump_off.status == 0, dump_off.err);
    const VxRun dump_gpu =
        run_vx(fake(gelu), "--offload=gpu --dump-regions --dump=" + dir + "/gpu.json", gelu);
    CHECK_MESSAGE(dump_gpu.status == 0, dump_gpu.err);
    CHECK(bytes(dir + "/gpu.json")
              .find("\"regions\": [\n {\"region\": \"4:5\", "
                    "\"function\": \"gelu_forward\", \"launch\": 1, ") != std::string::npos);
    const int same = std::system(("cd " VX_SOURCE_DIR " && " VX_BINARY_DIR "/vx diff " + dir +
                                  "/off.json " + dir + "/gpu.json > " + dir + "/diff.txt")
                                     .c_str());
    CHECK_MESSAGE(same == 0, bytes(dir + "/diff.txt"));
  }
}

// Each optimisation of the emitter switched off (spec/offload.md §1.2): a program whose kernels
// it changes is emitted without it, built by g++ into the harness, and run by `vx run
// --no-opt=NAME` through the stand-in driver: verified bit for bit against the interpreter, and
// under --offload=gpu with the interpreter's output. `vx emit-cuda --no-opt=NAME` prints the
// kernels that ran (the stand-in runs the harness's, whatever NVRTC compiled).
TEST_CASE("each emitter optimisation off: the same bits on the stand-in GPU as the interpreter") {
  {
    offload::Nvrtc nvrtc;
    std::string why;
    if (!nvrtc.load(why))
      return testing::skip(why + " (the runner compiles with NVRTC before it loads a module)");
  }
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"dense-tiles", "conformance/book/book_gpu_row_sums_in_shared_memory.vx"},
      {"register-tiles", "conformance/memory/register_tiles.vx"},
      {"uniform-lets", "conformance/semantics/let_copies_loop_variable.vx"},
      {"barrier-free-loops", "conformance/memory/register_tiles.vx"},
      {"last-barrier", "conformance/book/book_gpu_row_sums_in_shared_memory.vx"},
      {"proven-indices", "conformance/book/book_gpu_blocks_and_lanes.vx"},
      {"unrolled-passes", "conformance/book/book_gpu_blocks_and_lanes.vx"},
      {"warp-reductions", "conformance/builtins/lanes_sum_tree_order.vx"},
  };
  // Every name of optimisations.def has its case.
  std::set<std::string> named, covered;
  std::istringstream all(offload::optimisation_names());
  for (std::string n; std::getline(all, n, ',');) named.insert(n.substr(n.find_first_not_of(' ')));
  for (auto& c : cases) covered.insert(c.first);
  CHECK(named == covered);
  auto kernels_text = [](const std::vector<offload::EmittedRegion>& regions) {
    std::string text;
    for (auto& r : regions) {
      std::istringstream in(r.source);
      for (std::string line; std::getline(in, line);)
        if (line.rfind("// vx emit-cuda --", 0) != 0) text += line + "\n";
    }
    return text;
  };
  std::vector<std::unique_ptr<testing::CorpusProgram>> programs;
  std::vector<std::vector<offload::EmittedRegion>> without(cases.size());
  std::vector<std::pair<std::string, const std::vector<offload::EmittedRegion>*>> sources;
  for (size_t i = 0; i < cases.size(); ++i) {
    // Named, not structured bindings: INFO's lambda captures them, which clang 14 refuses.
    const auto& name = cases[i].first;
    const auto& path = cases[i].second;
    INFO(name << " on " << path);
    programs.push_back(testing::load_program(std::string(VX_SOURCE_DIR) + "/" + path, path));
    REQUIRE(programs.back());
    offload::EmitOptions options;
    std::string error;
    REQUIRE_MESSAGE(offload::parse_no_opt(name, options.off, error), error);
    without[i] = offload::emit_regions(*programs.back()->program, options);
    CHECK(kernels_text(without[i]) !=
          kernels_text(offload::emit_regions(*programs.back()->program)));
    sources.emplace_back(path + ":no-opt=" + name, &without[i]);
  }
  HostKernels kernels;
  std::string why;
  REQUIRE_MESSAGE(kernels.build("no_opt", HostKernels::corpus_sources(sources, 1), why), why);
  const std::string so = kernels.objects().at(0);
  for (size_t i = 0; i < cases.size(); ++i) {
    // Named, not structured bindings: INFO's lambda captures them, which clang 14 refuses.
    const auto& name = cases[i].first;
    const auto& path = cases[i].second;
    INFO(name << " on " << path);
    const std::string env =
        "VX_CUDA_DRIVER=" VX_FAKE_CUDA_DIR "/libvx_fake_cuda.so VX_FAKE_CUDA_SO=" + so +
        " VX_FAKE_CUDA_PROGRAM=" + sources[i].first +
        " VX_CACHE_DIR=" VX_BINARY_DIR "/fake_cuda_runs/kernel_cache";
    const std::string flags = run_flags(std::string(VX_SOURCE_DIR) + "/" + path);
    const VxRun ref = run_vx("VX_CACHE=0", "--offload=off " + flags, path);
    const VxRun ver = run_vx(env, "-v --offload=verify --no-opt=" + name + " " + flags, path);
    CHECK_MESSAGE(ver.out == ref.out, ver.err);
    CHECK_MESSAGE(ver.status == ref.status, ver.err);
    CHECK_MESSAGE(count(ver.err, ", verified bit-identical") >= 1, ver.err);
    CHECK_MESSAGE(ver.err.find("differs from the interpreter") == std::string::npos, ver.err);
    const VxRun gpu = run_vx(env, "-v --offload=gpu --no-opt=" + name + " " + flags, path);
    CHECK_MESSAGE(gpu.out == ref.out, gpu.err);
    CHECK_MESSAGE(count(gpu.err, " GPU launch(es)") >= 1, gpu.err);
    const VxRun emitted = run_vx("", "--no-opt=" + name + " " + flags, path, "emit-cuda");
    for (auto& r : without[i])
      CHECK_MESSAGE(emitted.out.find(r.source) != std::string::npos, r.name);
  }
}
