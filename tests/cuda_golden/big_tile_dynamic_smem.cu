// $ vx emit-cuda conformance/memory/big_tile_dynamic_smem.vx

// conformance/memory/big_tile_dynamic_smem.vx:9:5
#define VX_NT 256
#define VX_P2 256
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(256) vx_region_0_L9(float* __restrict__ out, int* vx_err) {
  __shared__ float s_s;
  VX_DYNAMIC_SMEM(vx_dyn_smem, 66560);
  float* const s_tile = reinterpret_cast<float*>(vx_dyn_smem + 0);
  float* const vx_red_f32 = reinterpret_cast<float*>(vx_dyn_smem + 65536);
  const int vx_tid = (int)(threadIdx.x + 256 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 10 "conformance/memory/big_tile_dynamic_smem.vx"
  const int b = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 11 "conformance/memory/big_tile_dynamic_smem.vx"
#line 12 "conformance/memory/big_tile_dynamic_smem.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 256) {
      const int lo0 = ((int)(0LL));
      for (int p4 = (int)threadIdx.x; p4 < 16384; p4 += 256) {
        const int l = (int)((unsigned long long)lo0 + (unsigned long long)p4);
#line 13 "conformance/memory/big_tile_dynamic_smem.vx"
        const long long vs1 = (long long)(l);
        s_tile[vs1] = ((float)(vx_add(vx_rem(l, ((int)(8LL)), vx_err), b)));
      }
    }
  }
  __syncthreads();
#line 15 "conformance/memory/big_tile_dynamic_smem.vx"
  { // lanes::sum: the tree of DESIGN §3.7
    {
      long long vx_p = 1;
      while (vx_p < 16384) vx_p <<= 1;
      const long long vx_h0 = vx_p >> 1;
      if (vx_h0 == 0) {
        if (vx_leader) s_s = s_tile[0];
      } else {
        const long long vx_H = vx_h0 < VX_P2 ? vx_h0 : (long long)VX_P2;
        if (vx_tid < vx_H) {
          const long long vx_K = vx_h0 / vx_H;
          int vx_L = 0;
          while ((1LL << vx_L) < vx_K) ++vx_L;
          float vx_st[32];
          int vx_sti[32];
          int vx_d = 0;
          (void)vx_sti;
          for (long long vx_q = 0; vx_q < vx_K; ++vx_q) {
            long long vx_k = 0;
            for (int vx_b = 0; vx_b < vx_L; ++vx_b) vx_k |= ((vx_q >> vx_b) & 1LL) << (vx_L - 1 - vx_b);
            const long long vx_j = vx_tid + vx_k * vx_H;
            float vx_a = s_tile[vx_j];
            int vx_ai = (int)vx_j;
            (void)vx_ai;
            if (vx_j + vx_h0 < 16384) {
              float vx_x = s_tile[vx_j + vx_h0];
              int vx_xi = (int)(vx_j + vx_h0);
              (void)vx_xi;
              vx_a = vx_a + vx_x;
            }
            for (long long vx_c = vx_q; vx_c & 1; vx_c >>= 1) {
              --vx_d;
              float vx_l = vx_st[vx_d];
              int vx_li = vx_sti[vx_d];
              (void)vx_li;
              vx_l = vx_l + vx_a;
              vx_a = vx_l;
              vx_ai = vx_li;
            }
            vx_st[vx_d] = vx_a;
            vx_sti[vx_d] = vx_ai;
            ++vx_d;
          }
          vx_red_f32[vx_tid] = vx_st[0];
        }
        __syncthreads();
        for (long long vx_h = vx_H >> 1; vx_h >= 1; vx_h >>= 1) {
          if (vx_tid < vx_h) {
            vx_red_f32[vx_tid] = vx_red_f32[vx_tid] + vx_red_f32[vx_tid + vx_h];
          }
          __syncthreads();
        }
        if (vx_leader) s_s = vx_red_f32[0];
      }
      __syncthreads();
    }
  }
  if (vx_leader) {
#line 16 "conformance/memory/big_tile_dynamic_smem.vx"
    const long long vs6 = (long long)(b);
    out[vs6] = s_s;
  }
}
#undef VX_NT
#undef VX_P2
#undef VX_ZERO_X
#undef VX_ZERO_Y
#undef VX_ZERO_Z
#ifdef VX_HOST_HARNESS
static void vx_region_0_L9_host(void** a) {
  vx_region_0_L9(*(float**)a[0], *(int**)a[1]);
}
#endif

// conformance/memory/big_tile_dynamic_smem.vx:19:5
#define VX_NT 4
#define VX_P2 4
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(4) vx_region_1_L19(int* __restrict__ small, int* vx_err) {
  const int vx_tid = (int)(threadIdx.x + 4 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 20 "conformance/memory/big_tile_dynamic_smem.vx"
  const int b_2 = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 21 "conformance/memory/big_tile_dynamic_smem.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 4) {
      const int lo0 = ((int)(0LL));
      if (threadIdx.x < 4u) {
        const int l_2 = (int)(lo0 + (int)threadIdx.x);
#line 22 "conformance/memory/big_tile_dynamic_smem.vx"
        const long long vs1 = (long long)(vx_add(vx_mul(b_2, ((int)(4LL))), l_2));
        small[vs1] = vx_add(vx_mul(b_2, ((int)(4LL))), l_2);
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
static void vx_region_1_L19_host(void** a) {
  vx_region_1_L19(*(int**)a[0], *(int**)a[1]);
}
#endif
