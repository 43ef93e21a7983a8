// $ vx emit-cuda conformance/builtins/lanes_sort.vx

// conformance/builtins/lanes_sort.vx:7:5
#define VX_NT 8
#define VX_P2 8
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(8) vx_region_0_L7(long long* __restrict__ src, long long* __restrict__ out, int* vx_err) {
  __shared__ long long s_tile[8];
  const int vx_tid = (int)(threadIdx.x + 8 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 8 "conformance/builtins/lanes_sort.vx"
  const int b = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 9 "conformance/builtins/lanes_sort.vx"
#line 10 "conformance/builtins/lanes_sort.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 8) {
      const int lo0 = ((int)(0LL));
      if (threadIdx.x < 8u) {
        const int l = (int)(lo0 + (int)threadIdx.x);
#line 11 "conformance/builtins/lanes_sort.vx"
        const long long vs1 = (long long)(l);
        s_tile[vs1] = src[(long long)(l)];
      }
    }
  }
  __syncthreads();
#line 13 "conformance/builtins/lanes_sort.vx"
  { // lanes::sort: odd-even transposition (stable, NaN last)
    long long sn2 = (long long)(vx_sub(((int)(8LL)), vx_mul(((int)(3LL)), b)));
    if (sn2 < 1 || sn2 > 8LL) { vx_fail(vx_err, vx_kErrLanesN); sn2 = 1; }
    for (long long vx_ph = 0; vx_ph < sn2; ++vx_ph) {
      for (long long vx_i = 2 * vx_tid + (vx_ph & 1); vx_i + 1 < sn2; vx_i += 2 * VX_NT) {
        long long vx_a = s_tile[vx_i], vx_b = s_tile[vx_i + 1];
        if (vx_sort_lt(vx_b, vx_a)) { s_tile[vx_i] = vx_b; s_tile[vx_i + 1] = vx_a; }
      }
      __syncthreads();
    }
  }
#line 14 "conformance/builtins/lanes_sort.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 8) {
      const int lo3 = ((int)(0LL));
      if (threadIdx.x < 8u) {
        const int l_2 = (int)(lo3 + (int)threadIdx.x);
#line 15 "conformance/builtins/lanes_sort.vx"
        const long long vs4 = ((long long)(b)) * 8LL + (long long)(l_2);
        out[vs4] = s_tile[(long long)(l_2)];
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
static void vx_region_0_L7_host(void** a) {
  vx_region_0_L7(*(long long**)a[0], *(long long**)a[1], *(int**)a[2]);
}
#endif
