// $ vx emit-cuda conformance/memory/half_kernels.vx

// conformance/memory/half_kernels.vx:23:5
#define VX_NT 32
#define VX_P2 32
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(32) vx_region_0_L23(vx_f16* __restrict__ hx, vx_bf16* __restrict__ gx, vx_f16* __restrict__ ho, vx_bf16* __restrict__ go, float* __restrict__ wide, vx_f16* __restrict__ sums, vx_bf16* __restrict__ maxes, int* __restrict__ where_max, vx_f16 scale, int* vx_err) {
  __shared__ vx_f16 s_s;
  __shared__ vx_bf16 s_m;
  __shared__ int s_k;
  __shared__ vx_f16 s_t[64];
  __shared__ vx_bf16 s_u[64];
  __shared__ vx_bf16 s_v[64];
  __shared__ unsigned char s_v_init[64];
  const int vx_tid = (int)(threadIdx.x + 32 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 24 "conformance/memory/half_kernels.vx"
  const int r_2 = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 25 "conformance/memory/half_kernels.vx"
#line 26 "conformance/memory/half_kernels.vx"
  {
    const vx_bf16 vx_fill = (vx_bf16{0xbe80});
    for (int vx_e = vx_tid; vx_e < 64; vx_e += VX_NT) s_u[vx_e] = vx_fill;
  }
  __syncthreads();
#line 27 "conformance/memory/half_kernels.vx"
  for (int vx_e = vx_tid; vx_e < 64; vx_e += VX_NT) s_v_init[vx_e] = 0;
  __syncthreads();
#line 28 "conformance/memory/half_kernels.vx"
  { // lanes::copy_async: cp.async on sm_80 and newer, else a cooperative copy (spec/offload.md)
    const long long vx_st0 = vx_start_s((long long)(r_2));
    const long long vx_st1 = vx_start_s((long long)(((int)(0LL))));
    for (long long vx_e = vx_tid; vx_e < 64LL; vx_e += VX_NT) {
      long long vx_r = vx_e, vx_off = 0;
      bool vx_in = true;
      const long long vx_k1 = vx_r % 64LL; vx_r /= 64LL;
      const long long vx_k0 = vx_r % 1LL; vx_r /= 1LL;
      vx_in = vx_in && (vx_st0 + vx_k0) >= 0 && (vx_st0 + vx_k0) < 4LL;
      vx_off = vx_off * 4LL + (vx_in ? (vx_st0 + vx_k0) : 0);
      vx_in = vx_in && (vx_st1 + vx_k1) >= 0 && (vx_st1 + vx_k1) < 64LL;
      vx_off = vx_off * 64LL + (vx_in ? (vx_st1 + vx_k1) : 0);
      s_v[vx_e] = vx_in ? gx[vx_off] : vx_zero<vx_bf16>();
      s_v_init[vx_e] = 1;
    }
    __syncthreads();
  }
#line 29 "conformance/memory/half_kernels.vx"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
#endif
#line 30 "conformance/memory/half_kernels.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 32) {
      const int lo0 = ((int)(0LL));
#pragma unroll
      for (int k1 = 0; k1 < 2; ++k1) {
        const int p9 = (int)threadIdx.x + k1 * 32;
        const int c_2 = (int)((unsigned long long)lo0 + (unsigned long long)p9);
#line 31 "conformance/memory/half_kernels.vx"
        vx_f16 x = hx[((long long)(r_2)) * 64LL + (long long)(c_2)];
#line 32 "conformance/memory/half_kernels.vx"
        vx_f16 y = ((x * scale) + (vx_f16_of_int((long long)(c_2)) / (vx_f16{0x4700})));
#line 33 "conformance/memory/half_kernels.vx"
        vx_bf16 big = vx_bf16_of_int((long long)(vx_sub(vx_mul(((long long)(vx_add(vx_mul(r_2, ((int)(64LL))), c_2))), ((long long)(1000000007LL))), ((long long)(3000000000LL)))));
#line 34 "conformance/memory/half_kernels.vx"
        vx_f16 vi2;
        if ((y < (vx_f16{0x0000}))) {
          vi2 = (-y);
        } else {
          vi2 = vx_to_f16(vx_sqrt_f32(vx_widen(y)));
        }
        vx_f16 z = vi2;
#line 35 "conformance/memory/half_kernels.vx"
        const long long vs3 = (long long)(c_2);
        s_t[vs3] = (vx_minm(vx_maxm(z, vx_abs(x)), (vx_f16{0x5640})) - vx_frem(x, (vx_f16{0x3e00})));
#line 36 "conformance/memory/half_kernels.vx"
        const long long vs4 = (long long)(c_2);
        s_u[vs4] = ((s_u[(long long)(c_2)] + (vx_ld_init(s_v, s_v_init, ((long long)(((int)(0LL)))) * 64LL + (long long)(c_2), vx_err) * (big / (vx_bf16{0x4e6e})))) + vx_to_bf16((((double)(vx_widen(y))) * (0x1.999999999999ap-4))));
#line 37 "conformance/memory/half_kernels.vx"
        const long long vs5 = ((long long)(r_2)) * 64LL + (long long)(c_2);
        ho[vs5] = ((vx_to_f16(vx_exp_f32(vx_widen(x))) + vx_to_f16(vx_tanh_f32(vx_widen(x)))) + vx_to_f16(vx_sin_f32((((float)(vx_widen(x))) * (0x1p-1f)))));
#line 38 "conformance/memory/half_kernels.vx"
        const long long vs6 = ((long long)(r_2)) * 64LL + (long long)(c_2);
        wide[vs6] = (((((float)(vx_widen(x))) + ((float)(vx_widen(vx_ld_init(s_v, s_v_init, ((long long)(((int)(0LL)))) * 64LL + (long long)(c_2), vx_err))))) + ((float)(((double)(vx_widen(s_t[(long long)(c_2)])))))) + ((float)(vx_sat_i32((double)(vx_widen(s_u[(long long)(c_2)]))))));
      }
    }
  }
  __syncthreads();
#line 40 "conformance/memory/half_kernels.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 32) {
      const int lo10 = ((int)(0LL));
#pragma unroll
      for (int k11 = 0; k11 < 2; ++k11) {
        const int p15 = (int)threadIdx.x + k11 * 32;
        const int c_3 = (int)((unsigned long long)lo10 + (unsigned long long)p15);
#line 41 "conformance/memory/half_kernels.vx"
        const long long vs12 = ((long long)(r_2)) * 64LL + (long long)(c_3);
        go[vs12] = ((vx_to_bf16(vx_pow_f32(vx_widen(s_u[(long long)(c_3)]), vx_widen((vx_bf16{0x4000})))) - vx_to_bf16(vx_tanh_f32(vx_widen(vx_ld_init(s_v, s_v_init, ((long long)(((int)(0LL)))) * 64LL + (long long)(c_3), vx_err))))) + vx_to_bf16(vx_widen(s_t[(long long)(c_3)])));
      }
    }
  }
  __syncthreads();
#line 43 "conformance/memory/half_kernels.vx"
  { // lanes::sum: the tree of DESIGN §3.7
#if VX_NT >= 32
    if (vx_tid < 32) {
      vx_f16 vx_v = vx_zero<vx_f16>();
      if (vx_tid < 32) {
        vx_f16 vx_r0 = s_t[vx_tid + 0];
        if (vx_tid + 0 + 32 < 64) {
          vx_f16 vx_b = s_t[vx_tid + 0 + 32];
          vx_r0 = vx_r0 + vx_b;
        }
        vx_v = vx_r0;
      }
      {
        vx_f16 vx_o = vx_shfl_down(vx_v, 16);
        if (vx_tid < 16) {
          vx_v = vx_v + vx_o;
        }
      }
      {
        vx_f16 vx_o = vx_shfl_down(vx_v, 8);
        if (vx_tid < 8) {
          vx_v = vx_v + vx_o;
        }
      }
      {
        vx_f16 vx_o = vx_shfl_down(vx_v, 4);
        if (vx_tid < 4) {
          vx_v = vx_v + vx_o;
        }
      }
      {
        vx_f16 vx_o = vx_shfl_down(vx_v, 2);
        if (vx_tid < 2) {
          vx_v = vx_v + vx_o;
        }
      }
      {
        vx_f16 vx_o = vx_shfl_down(vx_v, 1);
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
      while (vx_p < 64) vx_p <<= 1;
      const long long vx_h0 = vx_p >> 1;
      if (vx_h0 == 0) {
        if (vx_leader) s_s = s_t[0];
      } else {
        const long long vx_H = vx_h0 < VX_P2 ? vx_h0 : (long long)VX_P2;
        if (vx_tid < vx_H) {
          const long long vx_K = vx_h0 / vx_H;
          int vx_L = 0;
          while ((1LL << vx_L) < vx_K) ++vx_L;
          vx_f16 vx_st[32];
          int vx_sti[32];
          int vx_d = 0;
          (void)vx_sti;
          for (long long vx_q = 0; vx_q < vx_K; ++vx_q) {
            long long vx_k = 0;
            for (int vx_b = 0; vx_b < vx_L; ++vx_b) vx_k |= ((vx_q >> vx_b) & 1LL) << (vx_L - 1 - vx_b);
            const long long vx_j = vx_tid + vx_k * vx_H;
            vx_f16 vx_a = s_t[vx_j];
            int vx_ai = (int)vx_j;
            (void)vx_ai;
            if (vx_j + vx_h0 < 64) {
              vx_f16 vx_x = s_t[vx_j + vx_h0];
              int vx_xi = (int)(vx_j + vx_h0);
              (void)vx_xi;
              vx_a = vx_a + vx_x;
            }
            for (long long vx_c = vx_q; vx_c & 1; vx_c >>= 1) {
              --vx_d;
              vx_f16 vx_l = vx_st[vx_d];
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
          vx_red_f16[vx_tid] = vx_st[0];
        }
        __syncthreads();
        for (long long vx_h = vx_H >> 1; vx_h >= 1; vx_h >>= 1) {
          if (vx_tid < vx_h) {
            vx_red_f16[vx_tid] = vx_red_f16[vx_tid] + vx_red_f16[vx_tid + vx_h];
          }
          __syncthreads();
        }
        if (vx_leader) s_s = vx_red_f16[0];
      }
      __syncthreads();
    }
#endif
  }
#line 44 "conformance/memory/half_kernels.vx"
  { // lanes::max: the tree of DESIGN §3.7
#if VX_NT >= 32
    if (vx_tid < 32) {
      vx_bf16 vx_v = vx_zero<vx_bf16>();
      if (vx_tid < 32) {
        vx_bf16 vx_r0 = s_u[vx_tid + 0];
        if (vx_tid + 0 + 32 < 64) {
          vx_bf16 vx_b = s_u[vx_tid + 0 + 32];
          vx_r0 = vx_maxm(vx_r0, vx_b);
        }
        vx_v = vx_r0;
      }
      {
        vx_bf16 vx_o = vx_shfl_down(vx_v, 16);
        if (vx_tid < 16) {
          vx_v = vx_maxm(vx_v, vx_o);
        }
      }
      {
        vx_bf16 vx_o = vx_shfl_down(vx_v, 8);
        if (vx_tid < 8) {
          vx_v = vx_maxm(vx_v, vx_o);
        }
      }
      {
        vx_bf16 vx_o = vx_shfl_down(vx_v, 4);
        if (vx_tid < 4) {
          vx_v = vx_maxm(vx_v, vx_o);
        }
      }
      {
        vx_bf16 vx_o = vx_shfl_down(vx_v, 2);
        if (vx_tid < 2) {
          vx_v = vx_maxm(vx_v, vx_o);
        }
      }
      {
        vx_bf16 vx_o = vx_shfl_down(vx_v, 1);
        if (vx_tid < 1) {
          vx_v = vx_maxm(vx_v, vx_o);
        }
      }
      if (vx_tid == 0) s_m = vx_v;
    }
    __syncthreads();
#else
    {
      long long vx_p = 1;
      while (vx_p < 64) vx_p <<= 1;
      const long long vx_h0 = vx_p >> 1;
      if (vx_h0 == 0) {
        if (vx_leader) s_m = s_u[0];
      } else {
        const long long vx_H = vx_h0 < VX_P2 ? vx_h0 : (long long)VX_P2;
        if (vx_tid < vx_H) {
          const long long vx_K = vx_h0 / vx_H;
          int vx_L = 0;
          while ((1LL << vx_L) < vx_K) ++vx_L;
          vx_bf16 vx_st[32];
          int vx_sti[32];
          int vx_d = 0;
          (void)vx_sti;
          for (long long vx_q = 0; vx_q < vx_K; ++vx_q) {
            long long vx_k = 0;
            for (int vx_b = 0; vx_b < vx_L; ++vx_b) vx_k |= ((vx_q >> vx_b) & 1LL) << (vx_L - 1 - vx_b);
            const long long vx_j = vx_tid + vx_k * vx_H;
            vx_bf16 vx_a = s_u[vx_j];
            int vx_ai = (int)vx_j;
            (void)vx_ai;
            if (vx_j + vx_h0 < 64) {
              vx_bf16 vx_x = s_u[vx_j + vx_h0];
              int vx_xi = (int)(vx_j + vx_h0);
              (void)vx_xi;
              vx_a = vx_maxm(vx_a, vx_x);
            }
            for (long long vx_c = vx_q; vx_c & 1; vx_c >>= 1) {
              --vx_d;
              vx_bf16 vx_l = vx_st[vx_d];
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
          vx_red_bf16[vx_tid] = vx_st[0];
        }
        __syncthreads();
        for (long long vx_h = vx_H >> 1; vx_h >= 1; vx_h >>= 1) {
          if (vx_tid < vx_h) {
            vx_red_bf16[vx_tid] = vx_maxm(vx_red_bf16[vx_tid], vx_red_bf16[vx_tid + vx_h]);
          }
          __syncthreads();
        }
        if (vx_leader) s_m = vx_red_bf16[0];
      }
      __syncthreads();
    }
#endif
  }
#line 45 "conformance/memory/half_kernels.vx"
  { // lanes::argmax: the tree of DESIGN §3.7
#if VX_NT >= 32
    if (vx_tid < 32) {
      vx_bf16 vx_v = vx_zero<vx_bf16>();
      int vx_vi = 0;
      if (vx_tid < 32) {
        vx_bf16 vx_r0 = s_u[vx_tid + 0];
        int vx_r0i = vx_tid + 0;
        if (vx_tid + 0 + 32 < 64) {
          vx_bf16 vx_b = s_u[vx_tid + 0 + 32];
          if (vx_argmax_takes(vx_r0, vx_r0i, vx_b, (int)(vx_tid + 0 + 32))) { vx_r0 = vx_b; vx_r0i = (int)(vx_tid + 0 + 32); }
        }
        vx_v = vx_r0;
        vx_vi = vx_r0i;
      }
      {
        vx_bf16 vx_o = vx_shfl_down(vx_v, 16);
        int vx_oi = __shfl_down_sync(0xffffffffu, vx_vi, 16);
        if (vx_tid < 16) {
          if (vx_argmax_takes(vx_v, vx_vi, vx_o, (int)(vx_oi))) { vx_v = vx_o; vx_vi = (int)(vx_oi); }
        }
      }
      {
        vx_bf16 vx_o = vx_shfl_down(vx_v, 8);
        int vx_oi = __shfl_down_sync(0xffffffffu, vx_vi, 8);
        if (vx_tid < 8) {
          if (vx_argmax_takes(vx_v, vx_vi, vx_o, (int)(vx_oi))) { vx_v = vx_o; vx_vi = (int)(vx_oi); }
        }
      }
      {
        vx_bf16 vx_o = vx_shfl_down(vx_v, 4);
        int vx_oi = __shfl_down_sync(0xffffffffu, vx_vi, 4);
        if (vx_tid < 4) {
          if (vx_argmax_takes(vx_v, vx_vi, vx_o, (int)(vx_oi))) { vx_v = vx_o; vx_vi = (int)(vx_oi); }
        }
      }
      {
        vx_bf16 vx_o = vx_shfl_down(vx_v, 2);
        int vx_oi = __shfl_down_sync(0xffffffffu, vx_vi, 2);
        if (vx_tid < 2) {
          if (vx_argmax_takes(vx_v, vx_vi, vx_o, (int)(vx_oi))) { vx_v = vx_o; vx_vi = (int)(vx_oi); }
        }
      }
      {
        vx_bf16 vx_o = vx_shfl_down(vx_v, 1);
        int vx_oi = __shfl_down_sync(0xffffffffu, vx_vi, 1);
        if (vx_tid < 1) {
          if (vx_argmax_takes(vx_v, vx_vi, vx_o, (int)(vx_oi))) { vx_v = vx_o; vx_vi = (int)(vx_oi); }
        }
      }
      if (vx_tid == 0) s_k = vx_vi;
    }
    __syncthreads();
#else
    {
      long long vx_p = 1;
      while (vx_p < 64) vx_p <<= 1;
      const long long vx_h0 = vx_p >> 1;
      if (vx_h0 == 0) {
        if (vx_leader) s_k = 0;
      } else {
        const long long vx_H = vx_h0 < VX_P2 ? vx_h0 : (long long)VX_P2;
        if (vx_tid < vx_H) {
          const long long vx_K = vx_h0 / vx_H;
          int vx_L = 0;
          while ((1LL << vx_L) < vx_K) ++vx_L;
          vx_bf16 vx_st[32];
          int vx_sti[32];
          int vx_d = 0;
          (void)vx_sti;
          for (long long vx_q = 0; vx_q < vx_K; ++vx_q) {
            long long vx_k = 0;
            for (int vx_b = 0; vx_b < vx_L; ++vx_b) vx_k |= ((vx_q >> vx_b) & 1LL) << (vx_L - 1 - vx_b);
            const long long vx_j = vx_tid + vx_k * vx_H;
            vx_bf16 vx_a = s_u[vx_j];
            int vx_ai = (int)vx_j;
            (void)vx_ai;
            if (vx_j + vx_h0 < 64) {
              vx_bf16 vx_x = s_u[vx_j + vx_h0];
              int vx_xi = (int)(vx_j + vx_h0);
              (void)vx_xi;
              if (vx_argmax_takes(vx_a, vx_ai, vx_x, (int)(vx_xi))) { vx_a = vx_x; vx_ai = (int)(vx_xi); }
            }
            for (long long vx_c = vx_q; vx_c & 1; vx_c >>= 1) {
              --vx_d;
              vx_bf16 vx_l = vx_st[vx_d];
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
          vx_red_bf16[vx_tid] = vx_st[0];
          vx_redi[vx_tid] = vx_sti[0];
        }
        __syncthreads();
        for (long long vx_h = vx_H >> 1; vx_h >= 1; vx_h >>= 1) {
          if (vx_tid < vx_h) {
            if (vx_argmax_takes(vx_red_bf16[vx_tid], vx_redi[vx_tid], vx_red_bf16[vx_tid + vx_h], (int)(vx_redi[vx_tid + vx_h]))) { vx_red_bf16[vx_tid] = vx_red_bf16[vx_tid + vx_h]; vx_redi[vx_tid] = (int)(vx_redi[vx_tid + vx_h]); }
          }
          __syncthreads();
        }
        if (vx_leader) s_k = vx_redi[0];
      }
      __syncthreads();
    }
#endif
  }
  if (vx_leader) {
#line 46 "conformance/memory/half_kernels.vx"
    const long long vs19 = (long long)(r_2);
    sums[vs19] = s_s;
#line 47 "conformance/memory/half_kernels.vx"
    const long long vs20 = (long long)(r_2);
    maxes[vs20] = s_m;
#line 48 "conformance/memory/half_kernels.vx"
    const long long vs21 = (long long)(r_2);
    where_max[vs21] = s_k;
  }
}
#undef VX_NT
#undef VX_P2
#undef VX_ZERO_X
#undef VX_ZERO_Y
#undef VX_ZERO_Z
#ifdef VX_HOST_HARNESS
static void vx_region_0_L23_host(void** a) {
  vx_region_0_L23(*(vx_f16**)a[0], *(vx_bf16**)a[1], *(vx_f16**)a[2], *(vx_bf16**)a[3], *(float**)a[4], *(vx_f16**)a[5], *(vx_bf16**)a[6], *(int**)a[7], *(vx_f16*)a[8], *(int**)a[9]);
}
#endif
