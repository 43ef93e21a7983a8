// $ vx emit-cuda conformance/memory/half_helper_returns.vx

static __device__ vx_f16 vx_fn_0_twice(vx_f16 x, int* vx_err);
static __device__ vx_bf16 vx_fn_1_plus(vx_bf16 x, int* vx_err);
#ifndef VX_FN_0
#define VX_FN_0
static __device__ vx_f16 vx_fn_0_twice(vx_f16 x, int* vx_err) {
#line 6 "conformance/memory/half_helper_returns.vx"
  return (x * vx_to_f16((0x1p+1)));
  return vx_zero<vx_f16>();
}
#endif
#ifndef VX_FN_1
#define VX_FN_1
static __device__ vx_bf16 vx_fn_1_plus(vx_bf16 x, int* vx_err) {
#line 10 "conformance/memory/half_helper_returns.vx"
  return (x + x);
  return vx_zero<vx_bf16>();
}
#endif
// conformance/memory/half_helper_returns.vx:16:5
#define VX_NT 4
#define VX_P2 4
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(4) vx_region_0_L16(vx_f16* __restrict__ a, vx_bf16* __restrict__ b, int* vx_err) {
  const int vx_tid = (int)(threadIdx.x + 4 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 17 "conformance/memory/half_helper_returns.vx"
  const int blk = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 18 "conformance/memory/half_helper_returns.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 4) {
      const int lo0 = ((int)(0LL));
      if (threadIdx.x < 4u) {
        const int l = (int)(lo0 + (int)threadIdx.x);
#line 19 "conformance/memory/half_helper_returns.vx"
        const long long vs1 = (long long)(l);
        a[vs1] = vx_fn_0_twice(a[(long long)(l)], vx_err);
#line 20 "conformance/memory/half_helper_returns.vx"
        const long long vs2 = (long long)(l);
        b[vs2] = vx_fn_1_plus(b[(long long)(l)], vx_err);
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
static void vx_region_0_L16_host(void** a) {
  vx_region_0_L16(*(vx_f16**)a[0], *(vx_bf16**)a[1], *(int**)a[2]);
}
#endif
