// $ vx emit-cuda conformance/book/lane_copies_on_the_cpu.vx

// conformance/book/lane_copies_on_the_cpu.vx:15:5
#define VX_NT 64
#define VX_P2 64
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(64) vx_region_0_L15(float* __restrict__ x, float* __restrict__ even, float* __restrict__ odd, int steps, int* vx_err) {
  __shared__ float s_tiles[8192];
  __shared__ unsigned char s_tiles_init[8192];
  const int vx_tid = (int)(threadIdx.x + 64 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 16 "conformance/book/lane_copies_on_the_cpu.vx"
  const int b = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 17 "conformance/book/lane_copies_on_the_cpu.vx"
  for (int vx_e = vx_tid; vx_e < 8192; vx_e += VX_NT) s_tiles_init[vx_e] = 0;
  __syncthreads();
#line 18 "conformance/book/lane_copies_on_the_cpu.vx"
  {
    const int lo0 = ((int)(0LL));
    const int hi1 = vx_div(steps, ((int)(2LL)), vx_err);
    bool go2 = lo0 < hi1;
    for (int k = lo0; go2; go2 = (vx_add(k, (int)1) != hi1), k = vx_add(k, (int)1)) {
      __syncthreads();
#line 19 "conformance/book/lane_copies_on_the_cpu.vx"
      { // lanes::copy_async: cp.async on sm_80 and newer, else a cooperative copy (spec/offload.md)
        const long long vo3 = ((long long)(((int)(0LL)))) * ((64LL) * (64LL));
        const long long vx_st0 = vx_start_s((long long)(vx_mul(b, ((int)(64LL)))));
        const long long vx_st1 = vx_start_s((long long)(vx_mul(k, ((int)(128LL)))));
        for (long long vx_e = vx_tid; vx_e < 4096LL; vx_e += VX_NT) {
          long long vx_r = vx_e, vx_off = 0;
          bool vx_in = true;
          const long long vx_k1 = vx_r % 64LL; vx_r /= 64LL;
          const long long vx_k0 = vx_r % 64LL; vx_r /= 64LL;
          vx_in = vx_in && (vx_st0 + vx_k0) >= 0 && (vx_st0 + vx_k0) < 128LL;
          vx_off = vx_off * 128LL + (vx_in ? (vx_st0 + vx_k0) : 0);
          vx_in = vx_in && (vx_st1 + vx_k1) >= 0 && (vx_st1 + vx_k1) < 256LL;
          vx_off = vx_off * 256LL + (vx_in ? (vx_st1 + vx_k1) : 0);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
          asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"((unsigned)__cvta_generic_to_shared(&(s_tiles + vo3)[vx_e])), "l"(__cvta_generic_to_global(x + (vx_in ? vx_off : 0))), "r"(vx_in ? 4 : 0) : "memory");
#else
          (s_tiles + vo3)[vx_e] = vx_in ? x[vx_off] : vx_zero<float>();
#endif
          (s_tiles_init + vo3)[vx_e] = 1;
        }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        asm volatile("cp.async.commit_group;" ::: "memory");
#else
        __syncthreads();
#endif
      }
#line 20 "conformance/book/lane_copies_on_the_cpu.vx"
      { // lanes::copy_async: cp.async on sm_80 and newer, else a cooperative copy (spec/offload.md)
        const long long vo4 = ((long long)(((int)(1LL)))) * ((64LL) * (64LL));
        const long long vx_st0 = vx_start_s((long long)(vx_mul(b, ((int)(64LL)))));
        const long long vx_st1 = vx_start_s((long long)(vx_add(vx_mul(k, ((int)(128LL))), ((int)(64LL)))));
        for (long long vx_e = vx_tid; vx_e < 4096LL; vx_e += VX_NT) {
          long long vx_r = vx_e, vx_off = 0;
          bool vx_in = true;
          const long long vx_k1 = vx_r % 64LL; vx_r /= 64LL;
          const long long vx_k0 = vx_r % 64LL; vx_r /= 64LL;
          vx_in = vx_in && (vx_st0 + vx_k0) >= 0 && (vx_st0 + vx_k0) < 128LL;
          vx_off = vx_off * 128LL + (vx_in ? (vx_st0 + vx_k0) : 0);
          vx_in = vx_in && (vx_st1 + vx_k1) >= 0 && (vx_st1 + vx_k1) < 256LL;
          vx_off = vx_off * 256LL + (vx_in ? (vx_st1 + vx_k1) : 0);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
          asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"((unsigned)__cvta_generic_to_shared(&(s_tiles + vo4)[vx_e])), "l"(__cvta_generic_to_global(x + (vx_in ? vx_off : 0))), "r"(vx_in ? 4 : 0) : "memory");
#else
          (s_tiles + vo4)[vx_e] = vx_in ? x[vx_off] : vx_zero<float>();
#endif
          (s_tiles_init + vo4)[vx_e] = 1;
        }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        asm volatile("cp.async.commit_group;" ::: "memory");
#else
        __syncthreads();
#endif
      }
#line 21 "conformance/book/lane_copies_on_the_cpu.vx"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
      asm volatile("cp.async.wait_all;" ::: "memory");
      __syncthreads();
#endif
#line 23 "conformance/book/lane_copies_on_the_cpu.vx"
      if (VX_ZERO_Y && VX_ZERO_Z && true) {
        if (threadIdx.x < 64) {
          const int lo5 = ((int)(0LL));
          if (threadIdx.x < 64u) {
            const int r_2 = (int)(lo5 + (int)threadIdx.x);
#line 24 "conformance/book/lane_copies_on_the_cpu.vx"
            float s = (0x0p+0f);
#line 25 "conformance/book/lane_copies_on_the_cpu.vx"
            {
              const int lo6 = ((int)(0LL));
              const int hi7 = ((int)(64LL));
              bool go8 = lo6 < hi7;
              for (int c_2 = lo6; go8; go8 = (vx_add(c_2, (int)1) != hi7), c_2 = vx_add(c_2, (int)1)) {
#line 26 "conformance/book/lane_copies_on_the_cpu.vx"
                s = (s + vx_ld_init(s_tiles, s_tiles_init, (((long long)(((int)(0LL)))) * 64LL + (long long)(r_2)) * 64LL + (long long)(c_2), vx_err));
              }
            }
#line 28 "conformance/book/lane_copies_on_the_cpu.vx"
            const long long vs9 = ((long long)(vx_add(vx_mul(b, ((int)(64LL))), r_2))) * 2LL + vx_ix((long long)(k), 2LL, vx_err);
            even[vs9] = s;
          }
        }
      }
      __syncthreads();
#line 30 "conformance/book/lane_copies_on_the_cpu.vx"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
      asm volatile("cp.async.wait_all;" ::: "memory");
      __syncthreads();
#endif
#line 32 "conformance/book/lane_copies_on_the_cpu.vx"
      if (VX_ZERO_Y && VX_ZERO_Z && true) {
        if (threadIdx.x < 64) {
          const int lo10 = ((int)(0LL));
          if (threadIdx.x < 64u) {
            const int r_3 = (int)(lo10 + (int)threadIdx.x);
#line 33 "conformance/book/lane_copies_on_the_cpu.vx"
            float s_2 = (0x0p+0f);
#line 34 "conformance/book/lane_copies_on_the_cpu.vx"
            {
              const int lo11 = ((int)(0LL));
              const int hi12 = ((int)(64LL));
              bool go13 = lo11 < hi12;
              for (int c_3 = lo11; go13; go13 = (vx_add(c_3, (int)1) != hi12), c_3 = vx_add(c_3, (int)1)) {
#line 35 "conformance/book/lane_copies_on_the_cpu.vx"
                s_2 = (s_2 + vx_ld_init(s_tiles, s_tiles_init, (((long long)(((int)(1LL)))) * 64LL + (long long)(r_3)) * 64LL + (long long)(c_3), vx_err));
              }
            }
#line 37 "conformance/book/lane_copies_on_the_cpu.vx"
            const long long vs14 = ((long long)(vx_add(vx_mul(b, ((int)(64LL))), r_3))) * 2LL + vx_ix((long long)(k), 2LL, vx_err);
            odd[vs14] = s_2;
          }
        }
      }
      __syncthreads();
    }
  }
}
#undef VX_NT
#undef VX_P2
#undef VX_ZERO_X
#undef VX_ZERO_Y
#undef VX_ZERO_Z
#ifdef VX_HOST_HARNESS
static void vx_region_0_L15_host(void** a) {
  vx_region_0_L15(*(float**)a[0], *(float**)a[1], *(float**)a[2], *(int*)a[3], *(int**)a[4]);
}
#endif
