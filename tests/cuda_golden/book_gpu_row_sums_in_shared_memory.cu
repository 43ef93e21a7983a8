// $ vx emit-cuda conformance/book/book_gpu_row_sums_in_shared_memory.vx

// conformance/book/book_gpu_row_sums_in_shared_memory.vx:11:5
#define VX_NT 256
#define VX_P2 256
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(256) vx_region_0_L11(float* __restrict__ rows, float* __restrict__ sums, int* vx_err) {
  __shared__ float s_s;
  __shared__ float s_part[256];
  const int vx_tid = (int)(threadIdx.x + 256 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 12 "conformance/book/book_gpu_row_sums_in_shared_memory.vx"
  const int b = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 13 "conformance/book/book_gpu_row_sums_in_shared_memory.vx"
#line 14 "conformance/book/book_gpu_row_sums_in_shared_memory.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 256) {
      const int lo0 = ((int)(0LL));
      if (threadIdx.x < 256u) {
        const int t = (int)(lo0 + (int)threadIdx.x);
#line 15 "conformance/book/book_gpu_row_sums_in_shared_memory.vx"
        const long long vs1 = (long long)(t);
        s_part[vs1] = rows[((long long)(b)) * 256LL + (long long)(t)];
      }
    }
  }
  __syncthreads();
#line 17 "conformance/book/book_gpu_row_sums_in_shared_memory.vx"
  { // lanes::sum: the tree of DESIGN §3.7
#if VX_NT >= 32
    if (vx_tid < 32) {
      float vx_v = vx_zero<float>();
      if (vx_tid < 32) {
        float vx_r2 = s_part[vx_tid + 0];
        if (vx_tid + 0 + 128 < 256) {
          float vx_b = s_part[vx_tid + 0 + 128];
          vx_r2 = vx_r2 + vx_b;
        }
        float vx_r3 = s_part[vx_tid + 64];
        if (vx_tid + 64 + 128 < 256) {
          float vx_b = s_part[vx_tid + 64 + 128];
          vx_r3 = vx_r3 + vx_b;
        }
        float vx_r1 = vx_r2;
        vx_r1 = vx_r1 + vx_r3;
        float vx_r5 = s_part[vx_tid + 32];
        if (vx_tid + 32 + 128 < 256) {
          float vx_b = s_part[vx_tid + 32 + 128];
          vx_r5 = vx_r5 + vx_b;
        }
        float vx_r6 = s_part[vx_tid + 96];
        if (vx_tid + 96 + 128 < 256) {
          float vx_b = s_part[vx_tid + 96 + 128];
          vx_r6 = vx_r6 + vx_b;
        }
        float vx_r4 = vx_r5;
        vx_r4 = vx_r4 + vx_r6;
        float vx_r0 = vx_r1;
        vx_r0 = vx_r0 + vx_r4;
        vx_v = vx_r0;
      }
      {
        float vx_o = (float)__shfl_down_sync(0xffffffffu, (float)vx_v, 16);
        if (vx_tid < 16) {
          vx_v = vx_v + vx_o;
        }
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
      if (vx_tid == 0) s_s = vx_v;
    }
    __syncthreads();
#else
    {
      long long vx_p = 1;
      while (vx_p < 256) vx_p <<= 1;
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
            if (vx_j + vx_h0 < 256) {
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
  if (vx_leader) {
#line 18 "conformance/book/book_gpu_row_sums_in_shared_memory.vx"
    const long long vs3 = (long long)(b);
    sums[vs3] = s_s;
  }
}
#undef VX_NT
#undef VX_P2
#undef VX_ZERO_X
#undef VX_ZERO_Y
#undef VX_ZERO_Z
#ifdef VX_HOST_HARNESS
static void vx_region_0_L11_host(void** a) {
  vx_region_0_L11(*(float**)a[0], *(float**)a[1], *(int**)a[2]);
}
#endif
