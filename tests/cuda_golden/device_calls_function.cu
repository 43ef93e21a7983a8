// $ vx emit-cuda conformance/semantics/device_calls_function.vx

static __device__ float vx_fn_0_sq(float x, int* vx_err);
static __device__ float vx_fn_1_clamp01(float x, int* vx_err);
#ifndef VX_FN_0
#define VX_FN_0
static __device__ float vx_fn_0_sq(float x, int* vx_err) {
  return (x * x);
}
#endif
#ifndef VX_FN_1
#define VX_FN_1
static __device__ float vx_fn_1_clamp01(float x, int* vx_err) {
  float vi2;
  if ((x < (0x0p+0f))) {
    vi2 = (0x0p+0f);
  } else {
    float vi3;
    if ((x > (0x1p+0f))) {
      vi3 = (0x1p+0f);
    } else {
      vi3 = x;
    }
    vi2 = vi3;
  }
  return vi2;
}
#endif
// conformance/semantics/device_calls_function.vx:17:5
#define VX_NT 8
#define VX_P2 8
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(8) vx_region_0_L17(float* __restrict__ inp, float* __restrict__ out, int* vx_err) {
  const int vx_tid = (int)(threadIdx.x + 8 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 18 "conformance/semantics/device_calls_function.vx"
  const int b = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 19 "conformance/semantics/device_calls_function.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 8) {
      const int lo0 = ((int)(0LL));
      if (threadIdx.x < 8u) {
        const int l = (int)(lo0 + (int)threadIdx.x);
#line 20 "conformance/semantics/device_calls_function.vx"
        const long long vs1 = (long long)(vx_add(vx_mul(b, ((int)(8LL))), l));
        out[vs1] = vx_fn_1_clamp01((vx_fn_0_sq(inp[(long long)(vx_add(vx_mul(b, ((int)(8LL))), l))], vx_err) - (0x1p-2f)), vx_err);
      }
    }
  }
}
#undef VX_NT
#undef VX_P2
#undef VX_ZERO_X
#undef VX_ZERO_Y
#undef VX_ZERO_Z
#ifdef VX_HOST_HARNESS
static void vx_region_0_L17_host(void** a) {
  vx_region_0_L17(*(float**)a[0], *(float**)a[1], *(int**)a[2]);
}
#endif
