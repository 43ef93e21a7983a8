// $ vx emit-cuda conformance/book/book_gpu_blocks_and_lanes.vx

// conformance/book/book_gpu_blocks_and_lanes.vx:4:5
#define VX_NT 256
#define VX_P2 256
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(256) vx_region_0_L4(float* __restrict__ grid, int* vx_err) {
  const int vx_tid = (int)(threadIdx.x + 256 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 5 "conformance/book/book_gpu_blocks_and_lanes.vx"
  const int y = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 6 "conformance/book/book_gpu_blocks_and_lanes.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 256) {
      const int lo0 = ((int)(0LL));
#pragma unroll
      for (int k1 = 0; k1 < 2; ++k1) {
        const int p5 = (int)threadIdx.x + k1 * 256;
        if (p5 < 300) {
          const int x = (int)((unsigned long long)lo0 + (unsigned long long)p5);
#line 7 "conformance/book/book_gpu_blocks_and_lanes.vx"
          const long long vs2 = ((long long)(y)) * 300LL + (long long)(x);
          grid[vs2] = ((grid[((long long)(y)) * 300LL + (long long)(x)] * (0x1p+1f)) + ((float)(y)));
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
  vx_region_0_L4(*(float**)a[0], *(int**)a[1]);
}
#endif
