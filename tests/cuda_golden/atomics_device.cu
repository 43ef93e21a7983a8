// $ vx emit-cuda conformance/builtins/atomics_device.vx

// conformance/builtins/atomics_device.vx:8:5
#define VX_NT 64
#define VX_P2 64
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(64) vx_region_0_L8(long long* __restrict__ counts, float* __restrict__ fs, int* __restrict__ flags, unsigned int* __restrict__ per_block, int* vx_err) {
  __shared__ unsigned int s_total;
  __shared__ unsigned int s_hist[1];
  const int vx_tid = (int)(threadIdx.x + 64 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 9 "conformance/builtins/atomics_device.vx"
  const int b = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 10 "conformance/builtins/atomics_device.vx"
  {
    const unsigned int vx_fill = ((unsigned int)0ull);
    for (int vx_e = vx_tid; vx_e < 1; vx_e += VX_NT) s_hist[vx_e] = vx_fill;
  }
  __syncthreads();
#line 11 "conformance/builtins/atomics_device.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 64) {
      const int lo0 = ((int)(0LL));
      if (threadIdx.x < 64u) {
        const int l = (int)(lo0 + (int)threadIdx.x);
#line 12 "conformance/builtins/atomics_device.vx"
        long long k = ((long long)(vx_add(vx_mul(b, ((int)(64LL))), l)));
#line 13 "conformance/builtins/atomics_device.vx"
        long long va1 = vx_at_add((counts + vx_ix((long long)(((int)(0LL))), ((4LL)), vx_err)), ((long long)(1LL)));
        long long _a = va1;
#line 14 "conformance/builtins/atomics_device.vx"
        __threadfence();
        long long va2 = vx_at_max((counts + vx_ix((long long)(((int)(1LL))), ((4LL)), vx_err)), k);
        __threadfence();
        long long _m = va2;
#line 15 "conformance/builtins/atomics_device.vx"
        long long va3 = vx_at_min((counts + vx_ix((long long)(((int)(2LL))), ((4LL)), vx_err)), vx_neg(k));
        __threadfence();
        long long _n = va3;
#line 16 "conformance/builtins/atomics_device.vx"
        __threadfence();
        long long va4 = vx_at_sub((counts + vx_ix((long long)(((int)(3LL))), ((4LL)), vx_err)), ((long long)(2LL)));
        long long _s = va4;
#line 17 "conformance/builtins/atomics_device.vx"
        float va5 = vx_at_add((fs + vx_ix((long long)(((int)(0LL))), ((1LL)), vx_err)), (0x1p-1f));
        float _f = va5;
#line 18 "conformance/builtins/atomics_device.vx"
        __threadfence();
        int va6 = vx_at_cas((flags + vx_ix((long long)(((int)(0LL))), ((3LL)), vx_err)), ((int)(0LL)), ((int)(1LL)));
        __threadfence();
        int _c = va6;
#line 19 "conformance/builtins/atomics_device.vx"
        __threadfence();
        int va7 = vx_at_swap((flags + vx_ix((long long)(((int)(1LL))), ((3LL)), vx_err)), ((int)(7LL)));
        __threadfence();
        int _w = va7;
#line 20 "conformance/builtins/atomics_device.vx"
        __threadfence();
        vx_at_store((flags + vx_ix((long long)(((int)(2LL))), ((3LL)), vx_err)), ((int)(9LL)));
        __threadfence();
#line 21 "conformance/builtins/atomics_device.vx"
        unsigned int va8 = vx_at_add((s_hist + vx_ix((long long)(((int)(0LL))), ((1LL)), vx_err)), ((unsigned int)1ull));
        unsigned int _h = va8;
#line 22 "conformance/builtins/atomics_device.vx"
        __threadfence_block();
      }
    }
  }
  __syncthreads();
  if (vx_leader) {
#line 24 "conformance/builtins/atomics_device.vx"
    __threadfence();
#line 25 "conformance/builtins/atomics_device.vx"
    unsigned int va9 = vx_at_load((s_hist + vx_ix((long long)(((int)(0LL))), ((1LL)), vx_err)));
    __threadfence_block();
    s_total = va9;
#line 26 "conformance/builtins/atomics_device.vx"
    const long long vs10 = (long long)(b);
    per_block[vs10] = s_total;
  }
}
#undef VX_NT
#undef VX_P2
#undef VX_ZERO_X
#undef VX_ZERO_Y
#undef VX_ZERO_Z
#ifdef VX_HOST_HARNESS
static void vx_region_0_L8_host(void** a) {
  vx_region_0_L8(*(long long**)a[0], *(float**)a[1], *(int**)a[2], *(unsigned int**)a[3], *(int**)a[4]);
}
#endif
