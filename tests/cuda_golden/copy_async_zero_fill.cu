// $ vx emit-cuda conformance/memory/copy_async_zero_fill.vx

// conformance/memory/copy_async_zero_fill.vx:12:5
#define VX_NT 8
#define VX_P2 8
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(8) vx_region_0_L12(float* __restrict__ src, float* __restrict__ out, int* vx_err) {
  __shared__ int s_i0;
  __shared__ int s_i1;
  __shared__ float s_tile[8];
  __shared__ unsigned char s_tile_init[8];
  const int vx_tid = (int)(threadIdx.x + 8 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 13 "conformance/memory/copy_async_zero_fill.vx"
  const int b = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
  if (vx_leader) {
#line 14 "conformance/memory/copy_async_zero_fill.vx"
    s_i0 = ((int)(1LL));
#line 15 "conformance/memory/copy_async_zero_fill.vx"
    s_i1 = ((int)(1LL));
#line 16 "conformance/memory/copy_async_zero_fill.vx"
    if ((b == ((int)(0LL)))) {
#line 17 "conformance/memory/copy_async_zero_fill.vx"
      s_i0 = ((int)(3LL));
#line 18 "conformance/memory/copy_async_zero_fill.vx"
      s_i1 = ((int)(4LL));
    } else {
      if ((b == ((int)(1LL)))) {
#line 20 "conformance/memory/copy_async_zero_fill.vx"
        s_i0 = ((int)(-1LL));
#line 21 "conformance/memory/copy_async_zero_fill.vx"
        s_i1 = ((int)(-2LL));
      }
      (void)(0);
    }
  }
  __syncthreads();
#line 23 "conformance/memory/copy_async_zero_fill.vx"
  for (int vx_e = vx_tid; vx_e < 8; vx_e += VX_NT) s_tile_init[vx_e] = 0;
  __syncthreads();
#line 24 "conformance/memory/copy_async_zero_fill.vx"
  { // lanes::copy_async: cp.async on sm_80 and newer, else a cooperative copy (spec/offload.md)
    const long long vx_st0 = vx_start_s((long long)(s_i0));
    const long long vx_st1 = vx_start_s((long long)(s_i1));
    for (long long vx_e = vx_tid; vx_e < 8LL; vx_e += VX_NT) {
      long long vx_r = vx_e, vx_off = 0;
      bool vx_in = true;
      const long long vx_k1 = vx_r % 4LL; vx_r /= 4LL;
      const long long vx_k0 = vx_r % 2LL; vx_r /= 2LL;
      vx_in = vx_in && (vx_st0 + vx_k0) >= 0 && (vx_st0 + vx_k0) < 4LL;
      vx_off = vx_off * 4LL + (vx_in ? (vx_st0 + vx_k0) : 0);
      vx_in = vx_in && (vx_st1 + vx_k1) >= 0 && (vx_st1 + vx_k1) < 6LL;
      vx_off = vx_off * 6LL + (vx_in ? (vx_st1 + vx_k1) : 0);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
      asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"((unsigned)__cvta_generic_to_shared(&s_tile[vx_e])), "l"(__cvta_generic_to_global(src + (vx_in ? vx_off : 0))), "r"(vx_in ? 4 : 0) : "memory");
#else
      s_tile[vx_e] = vx_in ? src[vx_off] : vx_zero<float>();
#endif
      s_tile_init[vx_e] = 1;
    }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#else
    __syncthreads();
#endif
  }
#line 25 "conformance/memory/copy_async_zero_fill.vx"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
#endif
#line 26 "conformance/memory/copy_async_zero_fill.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 8) {
      const int lo0 = ((int)(0LL));
      if (threadIdx.x < 8u) {
        const int k = (int)(lo0 + (int)threadIdx.x);
#line 27 "conformance/memory/copy_async_zero_fill.vx"
        const long long vs1 = (((long long)(b)) * 2LL + vx_ix((long long)(vx_div(k, ((int)(4LL)), vx_err)), 2LL, vx_err)) * 4LL + vx_ix((long long)(vx_rem(k, ((int)(4LL)), vx_err)), 4LL, vx_err);
        out[vs1] = vx_ld_init(s_tile, s_tile_init, (vx_ix((long long)(vx_div(k, ((int)(4LL)), vx_err)), 2LL, vx_err)) * 4LL + vx_ix((long long)(vx_rem(k, ((int)(4LL)), vx_err)), 4LL, vx_err), vx_err);
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
static void vx_region_0_L12_host(void** a) {
  vx_region_0_L12(*(float**)a[0], *(float**)a[1], *(int**)a[2]);
}
#endif
