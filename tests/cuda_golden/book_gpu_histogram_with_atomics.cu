// $ vx emit-cuda conformance/book/book_gpu_histogram_with_atomics.vx

// conformance/book/book_gpu_histogram_with_atomics.vx:10:5
#define VX_NT 256
#define VX_P2 256
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(256) vx_region_0_L10(int* __restrict__ values, unsigned int* __restrict__ bins, int* vx_err) {
  const int vx_tid = (int)(threadIdx.x + 256 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 11 "conformance/book/book_gpu_histogram_with_atomics.vx"
  const int b = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 12 "conformance/book/book_gpu_histogram_with_atomics.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 256) {
      const int lo0 = ((int)(0LL));
      if (threadIdx.x < 256u) {
        const int l = (int)(lo0 + (int)threadIdx.x);
#line 13 "conformance/book/book_gpu_histogram_with_atomics.vx"
        int x = values[(long long)(vx_add(vx_mul(b, ((int)(256LL))), l))];
#line 14 "conformance/book/book_gpu_histogram_with_atomics.vx"
        unsigned int va1 = vx_at_add((bins + vx_ix((long long)(x), ((8LL)), vx_err)), ((unsigned int)1ull));
        unsigned int _old = va1;
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
static void vx_region_0_L10_host(void** a) {
  vx_region_0_L10(*(int**)a[0], *(unsigned int**)a[1], *(int**)a[2]);
}
#endif
