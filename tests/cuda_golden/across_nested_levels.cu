// $ vx emit-cuda conformance/semantics/across_nested_levels.vx

// conformance/semantics/across_nested_levels.vx:4:5
#define VX_NT 15
#define VX_P2 8
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y (threadIdx.y == 0)
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(15) vx_region_0_L4(int* __restrict__ out, int* vx_err) {
  const int vx_tid = (int)(threadIdx.x + 5 * (threadIdx.y + 3 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 5 "conformance/semantics/across_nested_levels.vx"
  const int by = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.y);
#line 6 "conformance/semantics/across_nested_levels.vx"
  const int bx = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 7 "conformance/semantics/across_nested_levels.vx"
  if (VX_ZERO_Z && true) {
    if (threadIdx.y < 3) {
      const int lo0 = ((int)(0LL));
      if (threadIdx.y < 3u) {
        const int ty = (int)(lo0 + (int)threadIdx.y);
#line 8 "conformance/semantics/across_nested_levels.vx"
        if (threadIdx.x < 5) {
          const int lo1 = ((int)(0LL));
          if (threadIdx.x < 5u) {
            const int tx = (int)(lo1 + (int)threadIdx.x);
#line 9 "conformance/semantics/across_nested_levels.vx"
            const long long vs2 = ((((long long)(by)) * 6LL + (long long)(bx)) * 3LL + (long long)(ty)) * 5LL + (long long)(tx);
            out[vs2] = vx_add(vx_add(vx_add(vx_mul(by, ((int)(1000LL))), vx_mul(bx, ((int)(100LL)))), vx_mul(ty, ((int)(10LL)))), tx);
          }
        }
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
static void vx_region_0_L4_host(void** a) {
  vx_region_0_L4(*(int**)a[0], *(int**)a[1]);
}
#endif
