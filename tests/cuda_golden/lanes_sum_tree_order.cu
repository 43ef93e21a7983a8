// $ vx emit-cuda conformance/builtins/lanes_sum_tree_order.vx

// conformance/builtins/lanes_sum_tree_order.vx:19:5
#define VX_NT 8
#define VX_P2 8
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(8) vx_region_0_L19(float* __restrict__ src, float* __restrict__ r1, float* __restrict__ r3, float* __restrict__ r5, float* __restrict__ r8, float* __restrict__ copy, int* vx_err) {
  __shared__ float s_s1;
  __shared__ float s_s3;
  __shared__ float s_s5;
  __shared__ float s_s8;
  __shared__ float s_tile[8];
  __shared__ float vx_red_f32[8];
  const int vx_tid = (int)(threadIdx.x + 8 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 20 "conformance/builtins/lanes_sum_tree_order.vx"
  const int b = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 21 "conformance/builtins/lanes_sum_tree_order.vx"
#line 22 "conformance/builtins/lanes_sum_tree_order.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 8) {
      const int lo0 = ((int)(0LL));
      if (threadIdx.x < 8u) {
        const int l = (int)(lo0 + (int)threadIdx.x);
#line 23 "conformance/builtins/lanes_sum_tree_order.vx"
        const long long vs1 = (long long)(l);
        s_tile[vs1] = src[(long long)(vx_add(vx_mul(b, ((int)(8LL))), l))];
      }
    }
  }
  __syncthreads();
#line 25 "conformance/builtins/lanes_sum_tree_order.vx"
  { // lanes::sum: the tree of DESIGN §3.7
    if (vx_leader) s_s1 = s_tile[0];
    __syncthreads();
  }
#line 26 "conformance/builtins/lanes_sum_tree_order.vx"
  { // lanes::sum: the tree of DESIGN §3.7
#if VX_NT >= 32
    if (vx_tid < 32) {
      float vx_v = vx_zero<float>();
      if (vx_tid < 2) {
        float vx_r0 = s_tile[vx_tid + 0];
        if (vx_tid + 0 + 2 < 3) {
          float vx_b = s_tile[vx_tid + 0 + 2];
          vx_r0 = vx_r0 + vx_b;
        }
        vx_v = vx_r0;
      }
      {
        float vx_o = (float)__shfl_down_sync(0xffffffffu, (float)vx_v, 1);
        if (vx_tid < 1) {
          vx_v = vx_v + vx_o;
        }
      }
      if (vx_tid == 0) s_s3 = vx_v;
    }
    __syncthreads();
#else
    {
      long long vx_p = 1;
      while (vx_p < 3) vx_p <<= 1;
      const long long vx_h0 = vx_p >> 1;
      if (vx_h0 == 0) {
        if (vx_leader) s_s3 = s_tile[0];
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
            if (vx_j + vx_h0 < 3) {
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
        if (vx_leader) s_s3 = vx_red_f32[0];
      }
      __syncthreads();
    }
#endif
  }
#line 27 "conformance/builtins/lanes_sum_tree_order.vx"
  { // lanes::sum: the tree of DESIGN §3.7
#if VX_NT >= 32
    if (vx_tid < 32) {
      float vx_v = vx_zero<float>();
      if (vx_tid < 4) {
        float vx_r0 = s_tile[vx_tid + 0];
        if (vx_tid + 0 + 4 < 5) {
          float vx_b = s_tile[vx_tid + 0 + 4];
          vx_r0 = vx_r0 + vx_b;
        }
        vx_v = vx_r0;
      }
      {
        float vx_o = (float)__shfl_down_sync(0xffffffffu, (float)vx_v, 2);
        if (vx_tid < 2) {
          vx_v = vx_v + vx_o;
        }
      }
      {
        float vx_o = (float)__shfl_down_sync(0xffffffffu, (float)vx_v, 1);
        if (vx_tid < 1) {
          vx_v = vx_v + vx_o;
        }
      }
      if (vx_tid == 0) s_s5 = vx_v;
    }
    __syncthreads();
#else
    {
      long long vx_p = 1;
      while (vx_p < 5) vx_p <<= 1;
      const long long vx_h0 = vx_p >> 1;
      if (vx_h0 == 0) {
        if (vx_leader) s_s5 = s_tile[0];
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
            if (vx_j + vx_h0 < 5) {
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
        if (vx_leader) s_s5 = vx_red_f32[0];
      }
      __syncthreads();
    }
#endif
  }
#line 28 "conformance/builtins/lanes_sum_tree_order.vx"
  { // lanes::sum: the tree of DESIGN §3.7
#if VX_NT >= 32
    if (vx_tid < 32) {
      float vx_v = vx_zero<float>();
      if (vx_tid < 4) {
        float vx_r0 = s_tile[vx_tid + 0];
        if (vx_tid + 0 + 4 < 8) {
          float vx_b = s_tile[vx_tid + 0 + 4];
          vx_r0 = vx_r0 + vx_b;
        }
        vx_v = vx_r0;
      }
      {
        float vx_o = (float)__shfl_down_sync(0xffffffffu, (float)vx_v, 2);
        if (vx_tid < 2) {
          vx_v = vx_v + vx_o;
        }
      }
      {
        float vx_o = (float)__shfl_down_sync(0xffffffffu, (float)vx_v, 1);
        if (vx_tid < 1) {
          vx_v = vx_v + vx_o;
        }
      }
      if (vx_tid == 0) s_s8 = vx_v;
    }
    __syncthreads();
#else
    {
      long long vx_p = 1;
      while (vx_p < 8) vx_p <<= 1;
      const long long vx_h0 = vx_p >> 1;
      if (vx_h0 == 0) {
        if (vx_leader) s_s8 = s_tile[0];
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
            if (vx_j + vx_h0 < 8) {
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
        if (vx_leader) s_s8 = vx_red_f32[0];
      }
      __syncthreads();
    }
#endif
  }
  if (vx_leader) {
#line 29 "conformance/builtins/lanes_sum_tree_order.vx"
    const long long vs6 = (long long)(b);
    r1[vs6] = s_s1;
#line 30 "conformance/builtins/lanes_sum_tree_order.vx"
    const long long vs7 = (long long)(b);
    r3[vs7] = s_s3;
#line 31 "conformance/builtins/lanes_sum_tree_order.vx"
    const long long vs8 = (long long)(b);
    r5[vs8] = s_s5;
#line 32 "conformance/builtins/lanes_sum_tree_order.vx"
    const long long vs9 = (long long)(b);
    r8[vs9] = s_s8;
  }
  __syncthreads();
#line 33 "conformance/builtins/lanes_sum_tree_order.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 8) {
      const int lo10 = ((int)(0LL));
      if (threadIdx.x < 8u) {
        const int l_2 = (int)(lo10 + (int)threadIdx.x);
#line 34 "conformance/builtins/lanes_sum_tree_order.vx"
        const long long vs11 = (long long)(vx_add(vx_mul(b, ((int)(8LL))), l_2));
        copy[vs11] = s_tile[(long long)(l_2)];
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
static void vx_region_0_L19_host(void** a) {
  vx_region_0_L19(*(float**)a[0], *(float**)a[1], *(float**)a[2], *(float**)a[3], *(float**)a[4], *(float**)a[5], *(int**)a[6]);
}
#endif
