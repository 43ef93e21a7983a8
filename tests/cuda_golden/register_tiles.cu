// $ vx emit-cuda conformance/memory/register_tiles.vx

// conformance/memory/register_tiles.vx:17:5
#define VX_NT 32
#define VX_P2 32
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(32) vx_region_0_L17(float* __restrict__ inp, float* __restrict__ out, float* __restrict__ out2, float* __restrict__ totals, float* __restrict__ sums, float* __restrict__ maxes, int* vx_err) {
  __shared__ float s_total;
  __shared__ float s_s;
  __shared__ float s_mx;
  __shared__ float s_part[32];
  __shared__ float s_next[96];
  const int vx_tid = (int)(threadIdx.x + 32 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 18 "conformance/memory/register_tiles.vx"
  const int r_2 = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 19 "conformance/memory/register_tiles.vx"
#line 20 "conformance/memory/register_tiles.vx"
  float r_row[3];
#line 21 "conformance/memory/register_tiles.vx"
  float r_acc[3];
  {
    const float vx_fill = (0x1p-1f);
    for (int vx_e = 0; vx_e < 3; ++vx_e) r_acc[vx_e] = vx_fill;
  }
#line 22 "conformance/memory/register_tiles.vx"
#line 24 "conformance/memory/register_tiles.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 32) {
      const int lo0 = ((int)(0LL));
#pragma unroll
      for (int k1 = 0; k1 < 3; ++k1) {
        const int p4 = (int)threadIdx.x + k1 * 32;
        const int c_2 = (int)((unsigned long long)lo0 + (unsigned long long)p4);
#line 25 "conformance/memory/register_tiles.vx"
        r_row[k1 + 0] = inp[((long long)(r_2)) * 96LL + (long long)(c_2)];
      }
    }
  }
#line 27 "conformance/memory/register_tiles.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 32) {
      const int lo5 = ((int)(0LL));
      if (threadIdx.x < 32u) {
        const int l = (int)(lo5 + (int)threadIdx.x);
#line 28 "conformance/memory/register_tiles.vx"
        const long long vs6 = (long long)(l);
        s_part[vs6] = ((r_row[0] + r_row[1]) + r_row[2]);
      }
    }
  }
  __syncthreads();
#line 30 "conformance/memory/register_tiles.vx"
  { // lanes::sum: the tree of DESIGN §3.7
#if VX_NT >= 32
    if (vx_tid < 32) {
      float vx_v = vx_zero<float>();
      if (vx_tid < 16) {
        float vx_r0 = s_part[vx_tid + 0];
        if (vx_tid + 0 + 16 < 32) {
          float vx_b = s_part[vx_tid + 0 + 16];
          vx_r0 = vx_r0 + vx_b;
        }
        vx_v = vx_r0;
      }
      {
        float vx_o = (float)__shfl_down_sync(0xffffffffu, (float)vx_v, 8);
        if (vx_tid < 8) {
          vx_v = vx_v + vx_o;
        }
      }
      {
        float vx_o = (float)__shfl_down_sync(0xffffffffu, (float)vx_v, 4);
        if (vx_tid < 4) {
          vx_v = vx_v + vx_o;
        }
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
      if (vx_tid == 0) s_total = vx_v;
    }
    __syncthreads();
#else
    {
      long long vx_p = 1;
      while (vx_p < 32) vx_p <<= 1;
      const long long vx_h0 = vx_p >> 1;
      if (vx_h0 == 0) {
        if (vx_leader) s_total = s_part[0];
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
            float vx_a = s_part[vx_j];
            int vx_ai = (int)vx_j;
            (void)vx_ai;
            if (vx_j + vx_h0 < 32) {
              float vx_x = s_part[vx_j + vx_h0];
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
        if (vx_leader) s_total = vx_red_f32[0];
      }
      __syncthreads();
    }
#endif
  }
#line 32 "conformance/memory/register_tiles.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 32) {
      const int lo8 = ((int)(0LL));
#pragma unroll
      for (int k9 = 0; k9 < 3; ++k9) {
        const int p12 = (int)threadIdx.x + k9 * 32;
        if (p12 < 80) {
          const int c_3 = (int)((unsigned long long)lo8 + (unsigned long long)p12);
#line 33 "conformance/memory/register_tiles.vx"
          r_acc[k9 + 0] = (r_acc[k9 + 0] + (r_row[k9 + 0] * s_total));
        }
      }
    }
  }
#line 36 "conformance/memory/register_tiles.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 32) {
      const int lo13 = ((int)(0LL));
#pragma unroll
      for (int k14 = 0; k14 < 3; ++k14) {
        const int p18 = (int)threadIdx.x + k14 * 32;
        const int c_4 = (int)((unsigned long long)lo13 + (unsigned long long)p18);
#line 37 "conformance/memory/register_tiles.vx"
        const long long vs15 = (long long)(c_4);
        s_next[vs15] = (r_row[k14 + 0] - s_total);
      }
    }
  }
  __syncthreads();
#line 39 "conformance/memory/register_tiles.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 32) {
      const int lo19 = ((int)(0LL));
#pragma unroll
      for (int k20 = 0; k20 < 3; ++k20) {
        const int p25 = (int)threadIdx.x + k20 * 32;
        const int c_5 = (int)((unsigned long long)lo19 + (unsigned long long)p25);
#line 40 "conformance/memory/register_tiles.vx"
        float vi21;
        if ((c_5 < ((int)(95LL)))) {
          vi21 = s_next[vx_ix((long long)(vx_add(c_5, ((int)(1LL)))), 96LL, vx_err)];
        } else {
          vi21 = s_next[(long long)(((int)(0LL)))];
        }
        float shifted = vi21;
#line 41 "conformance/memory/register_tiles.vx"
        const long long vs22 = ((long long)(r_2)) * 96LL + (long long)(c_5);
        out[vs22] = (shifted * (0x1p+1f));
      }
    }
  }
  __syncthreads();
#line 43 "conformance/memory/register_tiles.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 32) {
      const int lo26 = ((int)(0LL));
#pragma unroll
      for (int k27 = 0; k27 < 3; ++k27) {
        const int p31 = (int)threadIdx.x + k27 * 32;
        if (p31 < 80) {
          const int c_6 = (int)((unsigned long long)lo26 + (unsigned long long)p31);
#line 44 "conformance/memory/register_tiles.vx"
          const long long vs28 = ((long long)(r_2)) * 80LL + (long long)(c_6);
          out2[vs28] = (r_acc[k27 + 0] - (0x1p+0f));
        }
      }
    }
  }
  __syncthreads();
#line 47 "conformance/memory/register_tiles.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 16) {
      const int lo32 = ((int)(0LL));
      if (threadIdx.x < 16u) {
        const int l_2 = (int)(lo32 + (int)threadIdx.x);
#line 48 "conformance/memory/register_tiles.vx"
        const long long vs33 = (long long)(l_2);
        s_part[vs33] = ((r_acc[0] + r_acc[1]) + r_acc[2]);
      }
    }
  }
  __syncthreads();
#line 50 "conformance/memory/register_tiles.vx"
  { // lanes::sum: the tree of DESIGN §3.7
#if VX_NT >= 32
    if (vx_tid < 32) {
      float vx_v = vx_zero<float>();
      if (vx_tid < 8) {
        float vx_r0 = s_part[vx_tid + 0];
        if (vx_tid + 0 + 8 < 16) {
          float vx_b = s_part[vx_tid + 0 + 8];
          vx_r0 = vx_r0 + vx_b;
        }
        vx_v = vx_r0;
      }
      {
        float vx_o = (float)__shfl_down_sync(0xffffffffu, (float)vx_v, 4);
        if (vx_tid < 4) {
          vx_v = vx_v + vx_o;
        }
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
      if (vx_tid == 0) s_s = vx_v;
    }
    __syncthreads();
#else
    {
      long long vx_p = 1;
      while (vx_p < 16) vx_p <<= 1;
      const long long vx_h0 = vx_p >> 1;
      if (vx_h0 == 0) {
        if (vx_leader) s_s = s_part[0];
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
            float vx_a = s_part[vx_j];
            int vx_ai = (int)vx_j;
            (void)vx_ai;
            if (vx_j + vx_h0 < 16) {
              float vx_x = s_part[vx_j + vx_h0];
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
#endif
  }
#line 51 "conformance/memory/register_tiles.vx"
  { // lanes::max: the tree of DESIGN §3.7
#if VX_NT >= 32
    if (vx_tid < 32) {
      float vx_v = vx_zero<float>();
      if (vx_tid < 16) {
        float vx_r0 = s_part[vx_tid + 0];
        if (vx_tid + 0 + 16 < 32) {
          float vx_b = s_part[vx_tid + 0 + 16];
          vx_r0 = vx_maxm(vx_r0, vx_b);
        }
        vx_v = vx_r0;
      }
      {
        float vx_o = (float)__shfl_down_sync(0xffffffffu, (float)vx_v, 8);
        if (vx_tid < 8) {
          vx_v = vx_maxm(vx_v, vx_o);
        }
      }
      {
        float vx_o = (float)__shfl_down_sync(0xffffffffu, (float)vx_v, 4);
        if (vx_tid < 4) {
          vx_v = vx_maxm(vx_v, vx_o);
        }
      }
      {
        float vx_o = (float)__shfl_down_sync(0xffffffffu, (float)vx_v, 2);
        if (vx_tid < 2) {
          vx_v = vx_maxm(vx_v, vx_o);
        }
      }
      {
        float vx_o = (float)__shfl_down_sync(0xffffffffu, (float)vx_v, 1);
        if (vx_tid < 1) {
          vx_v = vx_maxm(vx_v, vx_o);
        }
      }
      if (vx_tid == 0) s_mx = vx_v;
    }
    __syncthreads();
#else
    {
      long long vx_p = 1;
      while (vx_p < 32) vx_p <<= 1;
      const long long vx_h0 = vx_p >> 1;
      if (vx_h0 == 0) {
        if (vx_leader) s_mx = s_part[0];
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
            float vx_a = s_part[vx_j];
            int vx_ai = (int)vx_j;
            (void)vx_ai;
            if (vx_j + vx_h0 < 32) {
              float vx_x = s_part[vx_j + vx_h0];
              int vx_xi = (int)(vx_j + vx_h0);
              (void)vx_xi;
              vx_a = vx_maxm(vx_a, vx_x);
            }
            for (long long vx_c = vx_q; vx_c & 1; vx_c >>= 1) {
              --vx_d;
              float vx_l = vx_st[vx_d];
              int vx_li = vx_sti[vx_d];
              (void)vx_li;
              vx_l = vx_maxm(vx_l, vx_a);
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
            vx_red_f32[vx_tid] = vx_maxm(vx_red_f32[vx_tid], vx_red_f32[vx_tid + vx_h]);
          }
          __syncthreads();
        }
        if (vx_leader) s_mx = vx_red_f32[0];
      }
      __syncthreads();
    }
#endif
  }
  if (vx_leader) {
#line 52 "conformance/memory/register_tiles.vx"
    const long long vs36 = (long long)(r_2);
    totals[vs36] = s_total;
#line 53 "conformance/memory/register_tiles.vx"
    const long long vs37 = (long long)(r_2);
    sums[vs37] = s_s;
#line 54 "conformance/memory/register_tiles.vx"
    const long long vs38 = (long long)(r_2);
    maxes[vs38] = s_mx;
  }
}
#undef VX_NT
#undef VX_P2
#undef VX_ZERO_X
#undef VX_ZERO_Y
#undef VX_ZERO_Z
#ifdef VX_HOST_HARNESS
static void vx_region_0_L17_host(void** a) {
  vx_region_0_L17(*(float**)a[0], *(float**)a[1], *(float**)a[2], *(float**)a[3], *(float**)a[4], *(float**)a[5], *(int**)a[6]);
}
#endif
