// The offload tier without a GPU (spec/offload.md, issue 5): every region of every accepted
// corpus program (conformance/ and tests/cuda_host/programs/) is emitted, and NVRTC compiles each
// program's kernels (one call per program and architecture) for sm_80 and sm_90. NVRTC needs no
// device; without libnvrtc it reports itself skipped (exit 77, which tools/test refuses). Also: the
// emitter's pieces (launch bounds, literal strides, tree reductions) and the kernel cache.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cuda_host/corpus.hpp"
#include "offload/emit_cuda.hpp"
#include "offload/emit_cuda_impl.hpp"
#include "offload/nvrtc.hpp"
#include "offload/runner.hpp"
#include "skip_main.hpp"

using namespace vx;

namespace {

using vx::testing::skip;

std::unique_ptr<testing::CorpusProgram> from_source(const std::string& text) {
  auto p = std::make_unique<testing::CorpusProgram>();
  p->path = "test.vx";
  p->file = std::make_shared<SourceFile>("test.vx", text);
  pipeline::Compiled c = pipeline::compile(p->file);
  REQUIRE(c.ok());
  p->parsed = std::move(c.parsed);
  p->program = std::move(c.program);
  return p;
}

const char* kRowSums = R"(
fn main() -> i32 {
    let m = Tensor<f32, [8, 256]>::fill(1.0);
    let rows = transfer(m, Memory::HBM);
    let mut sums = transfer(Tensor<f32, [8]>::fill(0.0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..8 across blocks {
            let mut part = unsafe { Tensor<f32, [256], Memory::SMEM>::uninit() };
            for t in 0..300 across lanes(128) {
                if t < 256 { part[t] = rows[b][t]; }
            }
            let s = lanes::sum(&part, 256);
            sums[b] = s;
        }
    }
    return 0;
}
)";

}  // namespace

TEST_CASE("a region becomes one kernel with a constant block size") {
  auto p = from_source(kRowSums);
  auto regions = offload::emit_regions(*p->program);
  REQUIRE(regions.size() == 1);
  const auto& r = regions[0];
  INFO(r.reason);
  REQUIRE(r.ok);
  CHECK(r.block[0] == 128);
  CHECK(r.grid.size() == 1);
  CHECK(r.source.find("__launch_bounds__(128)") != std::string::npos);
  CHECK(r.source.find(" * 128;") != std::string::npos);  // a literal stride (unrolled passes)
  CHECK(r.source.find("__shfl_down_sync") != std::string::npos);  // the reduction's last levels
  CHECK(r.source.find("lanes::sum: the tree") != std::string::npos);
  CHECK(r.source.find("__shared__ float s_part[256];") != std::string::npos);  // the tile
  CHECK(r.source.find("if (vx_leader)") != std::string::npos);  // block code runs once
}

TEST_CASE("the emitted CUDA keeps each local's Vx name unless it would clash") {
  tir::Function f;
  f.slot_names = {"x", "int", "x", "vx_tid", "s_a", "a_d0", "v3", "t.0", "é", "lo0", "x_2", "_A"};
  f.slot_types.resize(f.slot_names.size() + 1);  // a slot past the names: `v12`
  const std::vector<std::string> want = {"x",       "int_",   "x_2",    "v3_vx_tid", "v4_s_a",
                                         "v5_a_d0", "v6_v3",  "v7_t_0", "v8___",     "lo0",
                                         "x_2_2",   "v11__A", "v12"};
  CHECK(offload::emit::local_names(f) == want);
}

TEST_CASE("the emitted CUDA is indented by its braces, outside strings and comments") {
  const std::string code =
      "if (a) {\nb = \"{\";\n} else {\n#line 3 \"k.vx\"\n  { // {\nc;\n}\n}\nd;\n";
  CHECK(offload::emit::indent_code(code) ==
        "if (a) {\n  b = \"{\";\n} else {\n#line 3 \"k.vx\"\n  { // {\n    c;\n  }\n}\nd;\n");
}

// sm_80 and sm_90; VX_OFFLOAD_TEST_ARCHS (words) instead: the sanitizer build compiles for sm_90
// alone (tests/sanitize.cmake), since what it checks is vx's code, not NVRTC's second target.
std::vector<std::string> test_archs() {
  const char* env = std::getenv("VX_OFFLOAD_TEST_ARCHS");
  if (!env) return {"sm_80", "sm_90"};
  std::istringstream words(env);
  std::vector<std::string> archs;
  for (std::string w; words >> w;) archs.push_back(w);
  return archs;
}

TEST_CASE("every corpus region is emitted and compiles with NVRTC for sm_80 and sm_90") {
  offload::Nvrtc nvrtc;
  std::string why;
  if (!nvrtc.load(why)) return skip(why);
  int programs = 0, regions_total = 0;
  double total_ms = 0;
  for (const std::string& path : testing::offload_corpus_files(VX_SOURCE_DIR)) {
    {
      // A program checked for the host machine (no blocks or lanes) has no kernel to emit.
      std::ifstream in(path);
      std::string first_line;
      std::getline(in, first_line);
      if (first_line.find("run-flags:") != std::string::npos &&
          first_line.find("fleet/host.vx") != std::string::npos)
        continue;
    }
    auto p = testing::load_program(path, path.substr(std::string(VX_SOURCE_DIR).size() + 1));
    if (!p) continue;  // refused by the checker: not a program the GPU could run
    auto regions = offload::emit_regions(*p->program);
    bool listed = false;
    for (const std::string& problem : testing::emission_problems(p->path, regions, listed))
      FAIL_CHECK(problem);
    if (listed) continue;
    ++programs;
    regions_total += static_cast<int>(regions.size());
    const std::string tu = offload::cuda_translation_unit(regions);
    for (const std::string& arch : test_archs()) {
      std::vector<char> cubin;
      std::string log;
      const auto t0 = std::chrono::steady_clock::now();
      const bool ok = nvrtc.compile(tu, arch, cubin, log);
      total_ms +=
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      INFO(p->path << " for " << arch << ":\n" << log);
      CHECK(ok);
      CHECK(!cubin.empty());
    }
  }
  REQUIRE(!test_archs().empty());
  MESSAGE(programs << " programs, " << regions_total << " regions, NVRTC " << nvrtc.version()
                   << ", " << total_ms << " ms compiling (cache: " << offload::kernel_cache_dir()
                   << ")");
  CHECK(programs > 10);
}

// The cache key is XXH3-128 (seed 0) as `xxhsum -H2` prints it. The digests of the empty text and
// of 1 MiB of zero bytes are those of the test vectors of Odin's xxHash port (core:hash tests,
// written from xxHash's sanity tables and `xxhsum -H2`), not computed here.
TEST_CASE("the kernel cache's key is the XXH3-128 digest of the text") {
  CHECK(offload::digest_hex("") == "99aa06d3014798d86001c324468d497f");
  CHECK(offload::digest_hex(std::string(1 << 20, '\0')) == "b6ef17a3448492b6918780b90550bf34");
}

TEST_CASE("the kernel cache returns the same cubin") {
  offload::Nvrtc nvrtc;
  std::string why;
  if (!nvrtc.load(why)) return skip(why);
  const std::string dir = std::string(VX_BINARY_DIR) + "/offload_test_cache";
  setenv("VX_CACHE_DIR", dir.c_str(), 1);
  auto p = from_source(kRowSums);
  const std::string tu = offload::cuda_translation_unit(offload::emit_regions(*p->program));
  std::vector<char> a, b;
  std::string log;
  bool cached = true;
  std::filesystem::remove_all(dir);
  REQUIRE(nvrtc.compile(tu, "sm_90", a, log, &cached));
  CHECK(!cached);
  const auto t0 = std::chrono::steady_clock::now();
  REQUIRE(nvrtc.compile(tu, "sm_90", b, log, &cached));
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  CHECK(cached);
  CHECK(a == b);
  MESSAGE("cached load: " << ms << " ms");
  // An entry is KEY.cubin beside KEY.key, the text the cubin was compiled from (the source, then
  // the options, NVRTC's version and the architecture), KEY its XXH3-128 digest.
  std::vector<std::filesystem::path> entries;
  for (auto& e : std::filesystem::directory_iterator(dir)) entries.push_back(e.path());
  std::sort(entries.begin(), entries.end());
  REQUIRE(entries.size() == 2);
  const std::filesystem::path cubin = entries[0], key = entries[1];
  CHECK(cubin.extension() == ".cubin");
  CHECK(key == std::filesystem::path(cubin).replace_extension(".key"));
  std::string key_text;
  {
    std::ifstream in(key);
    key_text.assign(std::istreambuf_iterator<char>(in), {});
  }
  CHECK(key_text.starts_with(tu + "\n--gpu-architecture=sm_90\n"));
  CHECK(key_text.ends_with("\nnvrtc " + nvrtc.version() + "\nsm_90"));
  CHECK(cubin.stem() == offload::digest_hex(key_text));
  // A key file that holds another text (another program of the same digest, or one cut short) is
  // a miss: the kernels are compiled again, and both files replaced.
  std::vector<char> c;
  for (const std::string& other : {key_text + " ", key_text.substr(0, key_text.size() - 1)}) {
    std::ofstream(key, std::ios::binary) << other;
    c.clear();
    REQUIRE(nvrtc.compile(tu, "sm_90", c, log, &cached));
    CHECK(!cached);
    CHECK(c == a);
  }
  REQUIRE(nvrtc.compile(tu, "sm_90", c, log, &cached));
  CHECK(cached);
  std::filesystem::remove(key);
  REQUIRE(nvrtc.compile(tu, "sm_90", c, log, &cached));
  CHECK(!cached);
  // An entry that is not a regular file of at most 256 MiB is not read (it could be /dev/zero,
  // or a file of any size): the kernels are compiled again and the entry replaced.
  std::filesystem::resize_file(cubin, (std::uintmax_t{256} << 20) + 1);  // sparse
  c.clear();
  REQUIRE(nvrtc.compile(tu, "sm_90", c, log, &cached));
  CHECK(!cached);
  CHECK(c == a);
  CHECK(std::filesystem::file_size(cubin) == a.size());
  std::filesystem::remove(cubin);
  std::filesystem::create_directory(cubin);
  c.clear();
  REQUIRE(nvrtc.compile(tu, "sm_90", c, log, &cached));
  CHECK(!cached);
  CHECK(c == a);
  std::filesystem::remove_all(dir);
  unsetenv("VX_CACHE_DIR");
}

TEST_CASE("the kernel cache keeps at most its bound, the least recently used removed first") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(VX_BINARY_DIR) / "offload_test_trim";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto t0 = fs::file_time_type::clock::now() - std::chrono::hours(1);
  // Entries A, B, C of 100 + 10, 200 + 10 and 300 + 10 bytes, used in that order; a key whose
  // cubin is gone (10 bytes); files of other names (never counted, never removed).
  auto write = [&](const std::string& name, size_t bytes) {
    std::ofstream(dir / name, std::ios::binary) << std::string(bytes, 'x');
  };
  const std::string a(32, 'a'), b(32, 'b'), c(32, 'c'), k(32, 'd');
  const std::string names[] = {a, b, c};
  for (int i = 0; i < 3; ++i) {
    write(names[i] + ".cubin", 100 * static_cast<size_t>(i + 1));
    write(names[i] + ".key", 10);
    fs::last_write_time(dir / (names[i] + ".cubin"), t0 + std::chrono::minutes(i));
  }
  write(k + ".key", 10);
  write("notes.txt", 5000);
  write(a + ".cubin.tmp.12", 5000);
  write("ABCDEF" + std::string(26, '0') + ".cubin", 5000);  // not a key: upper case
  auto present = [&] {
    std::set<std::string> out;
    for (auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
    return out;
  };
  const std::set<std::string> others = {"notes.txt", a + ".cubin.tmp.12",
                                        "ABCDEF" + std::string(26, '0') + ".cubin"};
  auto with = [&](std::initializer_list<std::string> entries) {
    std::set<std::string> out = others;
    for (const std::string& e : entries) {
      out.insert(e + ".cubin");
      out.insert(e + ".key");
    }
    return out;
  };
  // 640 bytes held: a bound of 640 removes nothing.
  offload::trim_kernel_cache(dir.string(), 640);
  std::set<std::string> all = with({a, b, c});
  all.insert(k + ".key");
  CHECK(present() == all);
  // 630: the key alone goes first, and is enough.
  offload::trim_kernel_cache(dir.string(), 630);
  CHECK(present() == with({a, b, c}));
  // 520: A (110) goes and is enough; 519: B (210) goes too, 310 left.
  offload::trim_kernel_cache(dir.string(), 520);
  CHECK(present() == with({b, c}));
  offload::trim_kernel_cache(dir.string(), 519);
  CHECK(present() == with({c}));
  // A use renews an entry: B written after C was, then C used (its time renewed, as a hit does).
  write(b + ".cubin", 200);
  write(b + ".key", 10);
  fs::last_write_time(dir / (b + ".cubin"), t0 + std::chrono::minutes(5));
  fs::last_write_time(dir / (c + ".cubin"), t0 + std::chrono::minutes(7));
  offload::trim_kernel_cache(dir.string(), 519);
  CHECK(present() == with({c}));
  offload::trim_kernel_cache(dir.string(), 0);
  CHECK(present() == others);
  // A directory that is not there is left alone.
  fs::remove_all(dir);
  offload::trim_kernel_cache(dir.string(), 0);
  CHECK(!fs::exists(dir));
}

TEST_CASE("VX_CACHE_MAX bounds the kernel cache as kernels are compiled; a hit renews an entry") {
  offload::Nvrtc nvrtc;
  std::string why;
  if (!nvrtc.load(why)) return skip(why);
  namespace fs = std::filesystem;
  const std::string dir = std::string(VX_BINARY_DIR) + "/offload_test_bound";
  fs::remove_all(dir);
  fs::create_directories(dir);
  setenv("VX_CACHE_DIR", dir.c_str(), 1);
  auto p = from_source(kRowSums);
  const std::string tu = offload::cuda_translation_unit(offload::emit_regions(*p->program));
  std::vector<char> cubin;
  std::string log;
  bool cached = false;
  // Each architecture is an entry of its own: their sizes, unbounded.
  std::map<std::string, std::uintmax_t> bytes;
  std::map<std::string, std::string> stem;
  for (const char* arch : {"sm_80", "sm_86", "sm_90"}) {
    std::set<fs::path> before;
    for (auto& e : fs::directory_iterator(dir)) before.insert(e.path());
    REQUIRE(nvrtc.compile(tu, arch, cubin, log, &cached));
    for (auto& e : fs::directory_iterator(dir))
      if (!before.count(e.path())) {
        bytes[arch] += fs::file_size(e.path());
        stem[arch] = e.path().stem().string();
      }
  }
  REQUIRE(bytes.size() == 3);
  auto entries = [&] {
    std::set<std::string> out;
    for (auto& e : fs::directory_iterator(dir))
      for (auto& [arch, s] : stem)
        if (e.path().stem() == s && e.path().extension() == ".cubin") out.insert(arch);
    return out;
  };
  CHECK(entries() == std::set<std::string>{"sm_80", "sm_86", "sm_90"});
  // A bound that holds sm_80 and sm_90: sm_80 is used again, sm_86 compiled again, and the
  // least recently used, sm_90, makes room for it.
  fs::remove_all(dir);
  for (const char* arch : {"sm_80", "sm_90"}) REQUIRE(nvrtc.compile(tu, arch, cubin, log));
  const std::string bound = std::to_string(bytes["sm_80"] + bytes["sm_86"]);
  setenv("VX_CACHE_MAX", bound.c_str(), 1);
  REQUIRE(nvrtc.compile(tu, "sm_80", cubin, log, &cached));
  CHECK(cached);
  REQUIRE(nvrtc.compile(tu, "sm_86", cubin, log, &cached));
  CHECK(!cached);
  CHECK(entries() == std::set<std::string>{"sm_80", "sm_86"});
  // A bound smaller than any entry leaves the cache empty after each compile.
  setenv("VX_CACHE_MAX", "1K", 1);
  REQUIRE(nvrtc.compile(tu, "sm_90", cubin, log, &cached));
  CHECK(!cached);
  CHECK(fs::is_empty(dir));
  unsetenv("VX_CACHE_MAX");
  unsetenv("VX_CACHE_DIR");
  fs::remove_all(dir);
}

namespace {

const char* kLayerRow = R"(
fn main() {
    let inp = transfer(Tensor<f32, [4, 768]>::fill(1.0), Memory::HBM);
    let mut out = transfer(Tensor<f32, [4, 768]>::fill(0.0), Memory::HBM);
    spawn on(Topology::Device) {
        for r in 0..4 across blocks {
            let mut part = unsafe { Tensor<f32, [256], Memory::SMEM>::uninit() };
            let mut row = unsafe { Tensor<f32, [768], Memory::SMEM>::uninit() };
            let mut late = unsafe { Tensor<f32, [256], Memory::SMEM>::uninit() };
            for c in 0..768 across lanes(256) {
                row[c] = inp[r][c];
            }
            for l in 0..256 across lanes {
                part[l] = row[l] + row[l + 256] + row[l + 512];
                if l < 8 { late[l] = 1.0; }
            }
            let total = lanes::sum(&part, 256);
            let m = total / 768.0;
            for c in 0..768 across lanes(256) {
                out[r][c] = row[c] - m + late[c % 8];
            }
        }
    }
}
)";

}  // namespace

TEST_CASE("the emitter leaves out what cannot fail and what no thread needs") {
  auto p = from_source(kLayerRow);
  auto regions = offload::emit_regions(*p->program);
  REQUIRE(regions.size() == 1);
  const std::string& src = regions[0].source;
  INFO(src);
  REQUIRE(regions[0].ok);
  // `row` and `part` are written whole by the first lane loop that touches them: no flags.
  // `late` is written only in part: it keeps its flags, and reads of it are checked.
  CHECK(src.find("_init[768]") == std::string::npos);
  CHECK(src.find("_init[256]") != std::string::npos);  // late's
  CHECK(src.find("vx_ld_init(") != std::string::npos);
  // r in 0..4 and c in 0..768 index [4, 768] in range: no check; `c % 8` is not analysed: checked.
  CHECK(src.find("((long long)(r)) * 768LL + (long long)(c") != std::string::npos);
  CHECK(src.find("vx_ix((long long)(vx_rem(") != std::string::npos);
  // A lane loop of three passes per thread is unrolled.
  CHECK(src.find("#pragma unroll") != std::string::npos);
  // lanes::sum of a constant 256 in warp 0: shuffles, no shared scratch, and the
  // barrier-per-level loop only in the branch for blocks of fewer than 32 threads.
  CHECK(src.find("__shfl_down_sync") != std::string::npos);
  CHECK(src.find("__shared__ float vx_red_f32") == std::string::npos);
  const size_t branch = src.find("#if VX_NT >= 32\n"), other = src.find("#else\n", branch);
  const size_t level_loop = src.find("vx_h >>= 1");
  REQUIRE(branch != std::string::npos);
  REQUIRE(other != std::string::npos);
  CHECK(level_loop > other);
  CHECK(level_loop < src.find("#endif\n", other));
  // `let m = total / 768.0` is computed by every thread: a register, not a shared slot.
  const size_t div = src.find(" / (0x1.8p+9f))");  // total / 768.0
  REQUIRE(div != std::string::npos);
  const size_t line = src.find_first_not_of(' ', src.rfind('\n', div) + 1);
  CHECK(src.compare(line, 10, "float m = ") == 0);  // a register of every thread, not `s_m`
  CHECK(src.find("if (vx_leader) {") == std::string::npos);  // no leader-only step is left
}

TEST_CASE(
    "a tile each lane reads only where it wrote lives in registers; lane loops that touch no "
    "shared memory end without a barrier") {
  auto p = from_source(R"(
fn main() {
    let inp = transfer(Tensor<f32, [4, 1024]>::fill(1.0), Memory::HBM);
    let mut out = transfer(Tensor<f32, [4, 1024]>::fill(0.0), Memory::HBM);
    spawn on(Topology::Device) {
        for r in 0..4 across blocks {
            let mut part = unsafe { Tensor<f32, [256], Memory::SMEM>::uninit() };
            let mut row = unsafe { Tensor<f32, [1024], Memory::SMEM>::uninit() };
            let mut next = unsafe { Tensor<f32, [1024], Memory::SMEM>::uninit() };
            for c in 0..1024 across lanes(256) {
                row[c] = inp[r][c];
            }
            for l in 0..256 across lanes {
                part[l] = row[l] + row[l + 256] + row[l + 512] + row[l + 768];
            }
            let total = lanes::sum(&part, 256);
            for c in 0..1024 across lanes(256) {
                row[c] = row[c] / total;
                next[c] = row[c];
            }
            for c in 0..1024 across lanes(256) {
                out[r][c] = next[(c + 1) % 1024];
            }
        }
    }
}
)");
  auto regions = offload::emit_regions(*p->program);
  REQUIRE(regions.size() == 1);
  const std::string& src = regions[0].source;
  INFO(src);
  REQUIRE(regions[0].ok);
  // row: thread t holds elements t, t + 256, t + 512, t + 768 as r_row[0..3].
  CHECK(src.find("float r_row[4];") != std::string::npos);
  CHECK(src.find("s_row") == std::string::npos);
  CHECK(src.find("r_row[k1 + 0] = inp[") != std::string::npos);  // the unrolled pass k1
  CHECK(src.find("(((r_row[0] + r_row[1]) + r_row[2]) + r_row[3])") != std::string::npos);
  // part goes to lanes::sum and next is read one element on (another lane's): shared memory.
  CHECK(src.find("__shared__ float s_part[256];") != std::string::npos);
  CHECK(src.find("__shared__ float s_next[1024];") != std::string::npos);
  // The first lane loop reads HBM no pass writes and writes registers only: no barrier between it
  // and the next lane loop, which writes shared memory and keeps its barrier before lanes::sum.
  const size_t first = src.find("r_row[k1 + 0] = inp[");
  const size_t second = src.find("s_part[vs");
  REQUIRE(second != std::string::npos);
  CHECK(src.find("__syncthreads();", first) > second);
  CHECK(src.find("__syncthreads();", second) < src.find("lanes::sum: the tree"));
}

TEST_CASE("host code gets a sync mark before it; loops of launches do not") {
  const char* text = R"(
fn main() {
    let mut h = Tensor<f32, [4, 300]>::fill(1.0);
    for y in 0..4 {
        h[y][0] = 2.0;
    }
    let mut g = transfer(h, Memory::HBM);
    for k in 0..3 {
        spawn on(Topology::Device) {
            for y in 0..4 across blocks {
                for x in 0..300 across lanes(256) {
                    g[y][x] = g[y][x] * 2.0;
                }
            }
        }
    }
    let b = transfer(g, Memory::CPU_DRAM);
    println!("{}", b[3][299]);
}
)";
  auto p = from_source(text);
  const tir::Program& prog = *p->program;
  const tir::Block* body = prog.functions[0].body;
  const size_t before = body->stmts.size();
  offload::OffloadMarks sp;
  offload::mark_sync_points(prog, sp);
  CHECK_FALSE(sp.eager);
  // Marks before: `let mut h` (a new tensor), the `for y` loop (not inside it), `let mut g`,
  // `let b` and the println!; none before `for k` or inside it, whose body is the region alone.
  CHECK(sp.syncs == 5);
  CHECK(body->stmts.size() == before);  // the marks stand beside the program, not in it
  REQUIRE(before == 6);
  for (size_t i = 0; i <= before; ++i) {
    INFO("position " << i);
    const std::vector<tir::Mark>* at = sp.marks.at(body, i);
    if (i == 3 || i == before) {
      CHECK_FALSE(at);
    } else {
      REQUIRE(at);
      REQUIRE(at->size() == 1);
      CHECK((*at)[0].kind == tir::MarkKind::Sync);
      CHECK((*at)[0].span.begin == body->stmts[i]->span.begin);
    }
  }
  const tir::Stmt* for_k = body->stmts[3];
  REQUIRE(for_k->kind == tir::StmtKind::For);
  CHECK(for_k->var_name == "k");
  CHECK(for_k->body->stmts.size() == 1);
  CHECK_FALSE(sp.marks.at(for_k->body, 0));
  CHECK_FALSE(sp.marks.at(for_k->body, 1));
  // The whole step adds a checkpoint after the region, `for k`'s only statement: at the end of
  // its body.
  const offload::OffloadMarks all = offload::offload_marks(prog);
  const std::vector<tir::Mark>* cp = all.marks.at(for_k->body, 1);
  REQUIRE(cp);
  REQUIRE(cp->size() == 1);
  CHECK((*cp)[0].kind == tir::MarkKind::Checkpoint);
  CHECK((*cp)[0].span.begin == for_k->body->stmts[0]->span.begin);
  CHECK(all.syncs == 5);

  // A loop that reads tensor data in its own condition while launching cannot hold a mark: such
  // a program copies results back after every launch.
  auto q = from_source(R"(
fn main() {
    let h = Tensor<f32, [1]>::fill(1.0);
    let mut g = transfer(Tensor<f32, [256]>::fill(1.0), Memory::HBM);
    while h[0] < 100.0 {
        spawn on(Topology::Device) {
            for y in 0..1 across blocks {
                for x in 0..256 across lanes {
                    g[x] = g[x] * 2.0;
                }
            }
        }
    }
}
)");
  CHECK(offload::offload_marks(*q->program).eager);
}

TEST_CASE("verify compares bit for bit but for NaNs, and f32-atomic regions within their bound") {
  auto bytes = [](std::vector<float> v) {
    std::vector<std::byte> b(v.size() * 4);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto h = bytes({1.0f, 1000.0f, nan, -0.0f});
  auto same = bytes({1.0f, 1000.0f, nan, -0.0f});
  auto off = bytes({1.0f, 1000.0f + 0.0625f, nan, 0.0f});  // two elements differ, both tiny
  auto far = bytes({1.0f, 1001.0f, nan, 0.0f});
  const size_t n = h.size();
  CHECK(offload::compare_launch(h.data(), same.data(), n, Scalar::F32, false).first_difference ==
        -1);
  // Without f32 atomics every bit counts: even -0.0 against 0.0.
  CHECK(offload::compare_launch(h.data(), off.data(), n, Scalar::F32, false).first_difference == 1);
  // With them: 2^-12 * 1000 = 0.244 > 0.0625 and 0: accepted, counted.
  auto loose = offload::compare_launch(h.data(), off.data(), n, Scalar::F32, true);
  CHECK(loose.first_difference == -1);
  CHECK(loose.within == 2);
  CHECK(offload::compare_launch(h.data(), far.data(), n, Scalar::F32, true).first_difference == 1);
  // Two NaNs are equal whatever their sign and payload (x86's 0.0 / 0.0 against the canonical
  // NaN and an NVIDIA GPU's); a NaN against a number is not.
  auto word = [](std::vector<uint32_t> v) {
    std::vector<std::byte> b(v.size() * 4);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
  };
  auto nans = word({0x7fc00000u, 0xffc00000u, 0x7fffffffu, 0x7f800001u});
  auto other_nans = word({0xffc00000u, 0x7fffffffu, 0x7fc00000u, 0xffc00000u});
  CHECK(offload::compare_launch(nans.data(), other_nans.data(), 16, Scalar::F32, false)
            .first_difference == -1);
  auto number = word({0xffc00000u, 0xffc00000u, 0x7f800000u, 0x7fc00000u});  // +inf at [2]
  CHECK(offload::compare_launch(nans.data(), number.data(), 16, Scalar::F32, false)
            .first_difference == 2);
  // f16's and f64's NaNs alike: 0x7e00 and 0xfe01 are both NaN, 0x7c00 is +inf.
  auto halves = [](std::vector<uint16_t> v) {
    std::vector<std::byte> b(v.size() * 2);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
  };
  auto h1 = halves({0x7e00, 0x7e00}), h2 = halves({0xfe01, 0x7c00});
  CHECK(offload::compare_launch(h1.data(), h2.data(), 4, Scalar::F16, false).first_difference == 1);
  const uint64_t d1[2] = {0x7ff8000000000000u, 1}, d2[2] = {0xfff8000000000001u, 1};
  CHECK(offload::compare_launch(reinterpret_cast<const std::byte*>(d1),
                                reinterpret_cast<const std::byte*>(d2), 16, Scalar::F64, false)
            .first_difference == -1);
  // Integers never get a bound.
  std::vector<std::byte> a(8), b(8);
  b[4] = std::byte{1};
  CHECK(offload::compare_launch(a.data(), b.data(), 8, Scalar::I32, true).first_difference == 1);
}

TEST_CASE("vx emit-cuda --cubin compiles for the machine file's GPU, or for --arch") {
  offload::Nvrtc nvrtc;
  std::string why;
  if (!nvrtc.load(why)) return skip(why);
  const std::string out = VX_BINARY_DIR "/emit_cuda_test.cubin",
                    log = VX_BINARY_DIR "/emit_cuda_test.log";
  auto vx = [&](const std::string& args) {
    std::remove(out.c_str());
    const std::string cmd =
        "cd " VX_SOURCE_DIR " && VX_CACHE=0 " VX_BINARY_DIR "/vx emit-cuda " + args + " 2> " + log;
    const int rc = std::system(cmd.c_str());
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    return std::make_pair(WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, text.str());
  };
  auto elf = [&] {
    std::ifstream in(out, std::ios::binary);
    char magic[4] = {};
    in.read(magic, 4);
    return in && std::memcmp(magic,
                             "\x7f"
                             "ELF",
                             4) == 0;
  };
  const std::string prog = "conformance/memory/register_tiles.vx";
  auto [rc, text] = vx(prog + " --cubin " + out + " --machine fleet/a100-sxm4-80gb.vx");
  CHECK(rc == 0);
  CHECK(text.find("vx: 1 kernel(s) for sm_80 compiled by NVRTC ") == 0);
  CHECK(elf());
  std::tie(rc, text) = vx(prog + " --cubin " + out + " --arch sm_90");
  CHECK(rc == 0);
  CHECK(text.find(" for sm_90 ") != std::string::npos);
  CHECK(elf());
  std::tie(rc, text) = vx(prog + " --cubin " + out + " --machine fleet/apple-m3-max.vx");
  CHECK(rc == 2);
  CHECK(text == "error: the machine apple-m3-max has no NVIDIA GPU; give --arch sm_XX\n");
  std::tie(rc, text) = vx(prog + " --cubin " + out + " --arch 90");
  CHECK(rc == 2);
  CHECK(text == "error: --arch takes sm_ and a compute capability (sm_80, sm_90), not `90`\n");
  // Under --error-format=json the usage error is one JSON object on one line.
  std::tie(rc, text) = vx(prog + " --cubin " + out + " --arch 90 --error-format=json");
  CHECK(rc == 2);
  CHECK(text ==
        R"({"code":null,"helps":[],"level":"error","message":"--arch takes sm_ and a compute )"
        R"(capability (sm_80, sm_90), not `90`","notes":[],"rendered":"error: --arch takes sm_ )"
        R"(and a compute capability (sm_80, sm_90), not `90`\n","spans":[]})"
        "\n");
  // A compute capability NVRTC does not know is its error, in the same form.
  std::tie(rc, text) = vx(prog + " --cubin " + out + " --arch sm_12 --error-format=json");
  CHECK(rc == 1);
  CHECK(text.find(R"({"code":null,"helps":[],"level":"error","message":"NVRTC )") == 0);
  CHECK(text.find("could not compile the kernels for sm_12") != std::string::npos);
  CHECK(std::count(text.begin(), text.end(), '\n') == 1);
}
