// nvrtc_check: compiles src/numeric/vx_math.h with NVRTC as the offload tier does (the header
// text prepended to a kernel, -fmad=false, --std=c++17) for each architecture given (default
// sm_80 sm_90). Needs no GPU. Build: g++ -I/usr/local/cuda/include nvrtc_check.cpp -o nvrtc_check
//   -L/usr/local/cuda/lib64 -lnvrtc ; run from the repository root.
#include <nvrtc.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::ifstream in("src/numeric/vx_math.h");
  if (!in) {
    std::fprintf(stderr, "run from the repository root\n");
    return 2;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  // The generated tables inlined, as the offload tier's prelude has them (CMakeLists.txt).
  std::ifstream tables_in("src/numeric/vx_math_tables.inc");
  std::stringstream tables;
  tables << tables_in.rdbuf();
  std::string math = ss.str();
  const std::string include = "#include \"vx_math_tables.inc\"";
  const size_t at = math.find(include);
  if (!tables_in || at == std::string::npos) {
    std::fprintf(stderr, "src/numeric/vx_math_tables.inc or its #include is missing\n");
    return 2;
  }
  math.replace(at, include.size(), tables.str());
  std::string src = math + R"(
extern "C" __global__ void vx_math_all(float* a, double* b) {
  int i = threadIdx.x;
  float x = a[i], y = a[i + 1];
  a[i] = vx_exp_f32(x) + vx_exp2_f32(x) + vx_log_f32(x) + vx_log2_f32(x) + vx_tanh_f32(x) +
         vx_sin_f32(x) + vx_cos_f32(x) + vx_sqrt_f32(x) + vx_pow_f32(x, y) + vx_fast_exp_f32(x) +
         vx_fast_tanh_f32(x) + vx_floor_f32(x) + vx_ceil_f32(x) + vx_round_f32(x) +
         vx_trunc_f32(x) + vx_abs_f32(x);
  double u = b[i], v = b[i + 1];
  b[i] = vx_exp_f64(u) + vx_exp2_f64(u) + vx_log_f64(u) + vx_log2_f64(u) + vx_tanh_f64(u) +
         vx_sin_f64(u) + vx_cos_f64(u) + vx_sqrt_f64(u) + vx_pow_f64(u, v) + vx_floor_f64(u) +
         vx_ceil_f64(u) + vx_round_f64(u) + vx_trunc_f64(u) + vx_abs_f64(u);
}
)";
  std::vector<std::string> archs;
  for (int i = 1; i < argc; ++i) archs.push_back(argv[i]);
  if (archs.empty()) archs = {"sm_80", "sm_90"};
  int failed = 0;
  for (const std::string& arch : archs) {
    nvrtcProgram prog;
    nvrtcCreateProgram(&prog, src.c_str(), "vx_math_check.cu", 0, nullptr, nullptr);
    std::string a = "--gpu-architecture=" + arch;
    const char* opts[] = {a.c_str(), "-fmad=false", "--std=c++17"};
    nvrtcResult r = nvrtcCompileProgram(prog, 3, opts);
    size_t n = 0;
    nvrtcGetProgramLogSize(prog, &n);
    std::string log(n, '\0');
    nvrtcGetProgramLog(prog, log.data());
    size_t cubin = 0;
    if (r == NVRTC_SUCCESS) nvrtcGetCUBINSize(prog, &cubin);
    std::printf("%s: %s, cubin %zu bytes\n%s", arch.c_str(), nvrtcGetErrorString(r), cubin,
                log.size() > 1 ? log.c_str() : "");
    failed += r != NVRTC_SUCCESS;
    nvrtcDestroyProgram(&prog);
  }
  return failed ? 1 : 0;
}
