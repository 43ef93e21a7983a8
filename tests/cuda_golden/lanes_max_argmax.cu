// $ vx emit-cuda conformance/builtins/lanes_max_argmax.vx

// conformance/builtins/lanes_max_argmax.vx:16:5
#define VX_NT 16
#define VX_P2 16
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(16) vx_region_0_L16(float* __restrict__ src, int* __restrict__ isrc, float* __restrict__ maxes, int* __restrict__ args, int* __restrict__ imax, int* vx_err) {
  __shared__ int s_n;
  __shared__ float s_m;
  __shared__ int s_a;
  __shared__ int s_k;
  __shared__ float s_tile[16];
  __shared__ int s_itile[16];
  __shared__ unsigned char s_itile_init[16];
  __shared__ int vx_red_i32[16];
  __shared__ float vx_red_f32[16];
  __shared__ int vx_redi[16];
  const int vx_tid = (int)(threadIdx.x + 16 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 17 "conformance/builtins/lanes_max_argmax.vx"
  const int b = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 18 "conformance/builtins/lanes_max_argmax.vx"
#line 19 "conformance/builtins/lanes_max_argmax.vx"
  for (int vx_e = vx_tid; vx_e < 16; vx_e += VX_NT) s_itile_init[vx_e] = 0;
  __syncthreads();
#line 20 "conformance/builtins/lanes_max_argmax.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 16) {
      const int lo0 = ((int)(0LL));
      if (threadIdx.x < 16u) {
        const int l = (int)(lo0 + (int)threadIdx.x);
#line 21 "conformance/builtins/lanes_max_argmax.vx"
        const long long vs1 = (long long)(l);
        s_tile[vs1] = src[(long long)(l)];
#line 22 "conformance/builtins/lanes_max_argmax.vx"
        const long long vs2 = (long long)(l);
        s_itile[vs2] = isrc[(long long)(l)];
        s_itile_init[vs2] = 1;
      }
    }
  }
  __syncthreads();
  if (vx_leader) {
#line 24 "conformance/builtins/lanes_max_argmax.vx"
    s_n = ((int)(1LL));
#line 25 "conformance/builtins/lanes_max_argmax.vx"
    if ((b == ((int)(1LL)))) {
#line 26 "conformance/builtins/lanes_max_argmax.vx"
      s_n = ((int)(3LL));
    } else {
      if ((b == ((int)(2LL)))) {
#line 28 "conformance/builtins/lanes_max_argmax.vx"
        s_n = ((int)(8LL));
      } else {
        if ((b == ((int)(3LL)))) {
#line 30 "conformance/builtins/lanes_max_argmax.vx"
          s_n = ((int)(16LL));
        }
        (void)(0);
      }
      (void)(0);
    }
  }
  __syncthreads();
#line 32 "conformance/builtins/lanes_max_argmax.vx"
  { // lanes::max: the tree of DESIGN §3.7
    long long rn3 = (long long)(s_n);
    if (rn3 < 1 || rn3 > 16LL) { vx_fail(vx_err, vx_kErrLanesN); rn3 = 1; }
    {
      long long vx_p = 1;
      while (vx_p < rn3) vx_p <<= 1;
      const long long vx_h0 = vx_p >> 1;
      if (vx_h0 == 0) {
        if (vx_leader) s_m = s_tile[0];
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
            if (vx_j + vx_h0 < rn3) {
              float vx_x = s_tile[vx_j + vx_h0];
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
        if (vx_leader) s_m = vx_red_f32[0];
      }
      __syncthreads();
    }
  }
#line 33 "conformance/builtins/lanes_max_argmax.vx"
  { // lanes::argmax: the tree of DESIGN §3.7
    long long rn4 = (long long)(s_n);
    if (rn4 < 1 || rn4 > 16LL) { vx_fail(vx_err, vx_kErrLanesN); rn4 = 1; }
    {
      long long vx_p = 1;
      while (vx_p < rn4) vx_p <<= 1;
      const long long vx_h0 = vx_p >> 1;
      if (vx_h0 == 0) {
        if (vx_leader) s_a = 0;
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
            if (vx_j + vx_h0 < rn4) {
              float vx_x = s_tile[vx_j + vx_h0];
              int vx_xi = (int)(vx_j + vx_h0);
              (void)vx_xi;
              if (vx_argmax_takes(vx_a, vx_ai, vx_x, (int)(vx_xi))) { vx_a = vx_x; vx_ai = (int)(vx_xi); }
            }
            for (long long vx_c = vx_q; vx_c & 1; vx_c >>= 1) {
              --vx_d;
              float vx_l = vx_st[vx_d];
              int vx_li = vx_sti[vx_d];
              (void)vx_li;
              if (vx_argmax_takes(vx_l, vx_li, vx_a, (int)(vx_ai))) { vx_l = vx_a; vx_li = (int)(vx_ai); }
              vx_a = vx_l;
              vx_ai = vx_li;
            }
            vx_st[vx_d] = vx_a;
            vx_sti[vx_d] = vx_ai;
            ++vx_d;
          }
          vx_red_f32[vx_tid] = vx_st[0];
          vx_redi[vx_tid] = vx_sti[0];
        }
        __syncthreads();
        for (long long vx_h = vx_H >> 1; vx_h >= 1; vx_h >>= 1) {
          if (vx_tid < vx_h) {
            if (vx_argmax_takes(vx_red_f32[vx_tid], vx_redi[vx_tid], vx_red_f32[vx_tid + vx_h], (int)(vx_redi[vx_tid + vx_h]))) { vx_red_f32[vx_tid] = vx_red_f32[vx_tid + vx_h]; vx_redi[vx_tid] = (int)(vx_redi[vx_tid + vx_h]); }
          }
          __syncthreads();
        }
        if (vx_leader) s_a = vx_redi[0];
      }
      __syncthreads();
    }
  }
#line 34 "conformance/builtins/lanes_max_argmax.vx"
  { // lanes::max: the tree of DESIGN §3.7
    long long rn5 = (long long)(s_n);
    if (rn5 < 1 || rn5 > 16LL) { vx_fail(vx_err, vx_kErrLanesN); rn5 = 1; }
    {
      long long vx_p = 1;
      while (vx_p < rn5) vx_p <<= 1;
      const long long vx_h0 = vx_p >> 1;
      if (vx_h0 == 0) {
        if (vx_leader) s_k = vx_ld_init(s_itile, s_itile_init, 0, vx_err);
      } else {
        const long long vx_H = vx_h0 < VX_P2 ? vx_h0 : (long long)VX_P2;
        if (vx_tid < vx_H) {
          const long long vx_K = vx_h0 / vx_H;
          int vx_L = 0;
          while ((1LL << vx_L) < vx_K) ++vx_L;
          int vx_st[32];
          int vx_sti[32];
          int vx_d = 0;
          (void)vx_sti;
          for (long long vx_q = 0; vx_q < vx_K; ++vx_q) {
            long long vx_k = 0;
            for (int vx_b = 0; vx_b < vx_L; ++vx_b) vx_k |= ((vx_q >> vx_b) & 1LL) << (vx_L - 1 - vx_b);
            const long long vx_j = vx_tid + vx_k * vx_H;
            int vx_a = vx_ld_init(s_itile, s_itile_init, vx_j, vx_err);
            int vx_ai = (int)vx_j;
            (void)vx_ai;
            if (vx_j + vx_h0 < rn5) {
              int vx_x = vx_ld_init(s_itile, s_itile_init, vx_j + vx_h0, vx_err);
              int vx_xi = (int)(vx_j + vx_h0);
              (void)vx_xi;
              vx_a = vx_maxm(vx_a, vx_x);
            }
            for (long long vx_c = vx_q; vx_c & 1; vx_c >>= 1) {
              --vx_d;
              int vx_l = vx_st[vx_d];
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
          vx_red_i32[vx_tid] = vx_st[0];
        }
        __syncthreads();
        for (long long vx_h = vx_H >> 1; vx_h >= 1; vx_h >>= 1) {
          if (vx_tid < vx_h) {
            vx_red_i32[vx_tid] = vx_maxm(vx_red_i32[vx_tid], vx_red_i32[vx_tid + vx_h]);
          }
          __syncthreads();
        }
        if (vx_leader) s_k = vx_red_i32[0];
      }
      __syncthreads();
    }
  }
  if (vx_leader) {
#line 35 "conformance/builtins/lanes_max_argmax.vx"
    const long long vs6 = (long long)(b);
    maxes[vs6] = s_m;
#line 36 "conformance/builtins/lanes_max_argmax.vx"
    const long long vs7 = (long long)(b);
    args[vs7] = s_a;
#line 37 "conformance/builtins/lanes_max_argmax.vx"
    const long long vs8 = (long long)(b);
    imax[vs8] = s_k;
  }
}
#undef VX_NT
#undef VX_P2
#undef VX_ZERO_X
#undef VX_ZERO_Y
#undef VX_ZERO_Z
#ifdef VX_HOST_HARNESS
static void vx_region_0_L16_host(void** a) {
  vx_region_0_L16(*(float**)a[0], *(int**)a[1], *(float**)a[2], *(int**)a[3], *(int**)a[4], *(int**)a[5]);
}
#endif
