// $ vx emit-cuda tests/cuda_host/programs/tiles.vx

// tests/cuda_host/programs/tiles.vx:19:5
#define VX_NT 1024
#define VX_P2 1024
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y (threadIdx.y == 0)
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(1024) vx_region_0_L19(float* __restrict__ x, long long* __restrict__ sorted, long long* __restrict__ keys, float* __restrict__ smooth, int* vx_err) {
  __shared__ float s_tile[1024];
  __shared__ unsigned char s_tile_init[1024];
  __shared__ long long s_rows[1024];
  __shared__ unsigned char s_rows_init[1024];
  __shared__ long long s_k[128];
  __shared__ float s_a[64];
  const int vx_tid = (int)(threadIdx.x + 32 * (threadIdx.y + 32 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 20 "tests/cuda_host/programs/tiles.vx"
  const int b = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 21 "tests/cuda_host/programs/tiles.vx"
  for (int vx_e = vx_tid; vx_e < 1024; vx_e += VX_NT) s_tile_init[vx_e] = 0;
  __syncthreads();
#line 22 "tests/cuda_host/programs/tiles.vx"
  { // lanes::copy_async: cp.async on sm_80 and newer, else a cooperative copy (spec/offload.md)
    const long long vx_st0 = vx_start_s((long long)(vx_mul(b, ((int)(16LL)))));
    const long long vx_st1 = vx_start_s((long long)(vx_add(vx_mul(b, ((int)(20LL))), ((int)(5LL)))));
    for (long long vx_e = vx_tid; vx_e < 1024LL; vx_e += VX_NT) {
      long long vx_r = vx_e, vx_off = 0;
      bool vx_in = true;
      const long long vx_k1 = vx_r % 32LL; vx_r /= 32LL;
      const long long vx_k0 = vx_r % 32LL; vx_r /= 32LL;
      vx_in = vx_in && (vx_st0 + vx_k0) >= 0 && (vx_st0 + vx_k0) < 40LL;
      vx_off = vx_off * 40LL + (vx_in ? (vx_st0 + vx_k0) : 0);
      vx_in = vx_in && (vx_st1 + vx_k1) >= 0 && (vx_st1 + vx_k1) < 70LL;
      vx_off = vx_off * 70LL + (vx_in ? (vx_st1 + vx_k1) : 0);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
      asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"((unsigned)__cvta_generic_to_shared(&s_tile[vx_e])), "l"(__cvta_generic_to_global(x + (vx_in ? vx_off : 0))), "r"(vx_in ? 4 : 0) : "memory");
#else
      s_tile[vx_e] = vx_in ? x[vx_off] : vx_zero<float>();
#endif
      s_tile_init[vx_e] = 1;
    }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#else
    __syncthreads();
#endif
  }
#line 23 "tests/cuda_host/programs/tiles.vx"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
#endif
#line 24 "tests/cuda_host/programs/tiles.vx"
  for (int vx_e = vx_tid; vx_e < 1024; vx_e += VX_NT) s_rows_init[vx_e] = 0;
  __syncthreads();
#line 25 "tests/cuda_host/programs/tiles.vx"
  if (VX_ZERO_Z && true) {
    if (threadIdx.y < 32) {
      const int lo0 = ((int)(0LL));
      if (threadIdx.y < 32u) {
        const int i = (int)(lo0 + (int)threadIdx.y);
#line 26 "tests/cuda_host/programs/tiles.vx"
        if (threadIdx.x < 32) {
          const int lo1 = ((int)(0LL));
          if (threadIdx.x < 32u) {
            const int j = (int)(lo1 + (int)threadIdx.x);
#line 27 "tests/cuda_host/programs/tiles.vx"
            const long long vs2 = ((long long)(i)) * 32LL + (long long)(j);
            s_rows[vs2] = vx_sat_i64((double)((vx_ld_init(s_tile, s_tile_init, ((long long)(i)) * 32LL + (long long)(j), vx_err) * (0x1.f4p+9f))));
            s_rows_init[vs2] = 1;
          }
        }
      }
    }
  }
  __syncthreads();
#line 30 "tests/cuda_host/programs/tiles.vx"
  {
    const int lo3 = ((int)(0LL));
    const int hi4 = ((int)(32LL));
    bool go5 = lo3 < hi4;
    for (int r_2 = lo3; go5; go5 = (vx_add(r_2, (int)1) != hi4), r_2 = vx_add(r_2, (int)1)) {
      __syncthreads();
#line 31 "tests/cuda_host/programs/tiles.vx"
      { // lanes::sort: odd-even transposition (stable, NaN last)
        const long long vo6 = ((long long)(r_2)) * ((32LL));
        long long sn7 = (long long)(vx_sub(((int)(32LL)), r_2));
        if (sn7 < 1 || sn7 > 32LL) { vx_fail(vx_err, vx_kErrLanesN); sn7 = 1; }
        for (long long vx_e = vx_tid; vx_e < sn7; vx_e += VX_NT) (void)vx_ld_init((s_rows + vo6), (s_rows_init + vo6), vx_e, vx_err);
        for (long long vx_ph = 0; vx_ph < sn7; ++vx_ph) {
          for (long long vx_i = 2 * vx_tid + (vx_ph & 1); vx_i + 1 < sn7; vx_i += 2 * VX_NT) {
            long long vx_a = (s_rows + vo6)[vx_i], vx_b = (s_rows + vo6)[vx_i + 1];
            if (vx_sort_lt(vx_b, vx_a)) { (s_rows + vo6)[vx_i] = vx_b; (s_rows + vo6)[vx_i + 1] = vx_a; }
          }
          __syncthreads();
        }
      }
    }
  }
#line 33 "tests/cuda_host/programs/tiles.vx"
  if (VX_ZERO_Z && true) {
    if (threadIdx.y < 32) {
      const int lo8 = ((int)(0LL));
      if (threadIdx.y < 32u) {
        const int i_2 = (int)(lo8 + (int)threadIdx.y);
#line 34 "tests/cuda_host/programs/tiles.vx"
        if (threadIdx.x < 32) {
          const int lo9 = ((int)(0LL));
          if (threadIdx.x < 32u) {
            const int j_2 = (int)(lo9 + (int)threadIdx.x);
#line 35 "tests/cuda_host/programs/tiles.vx"
            const long long vs10 = (((long long)(b)) * 32LL + (long long)(i_2)) * 32LL + (long long)(j_2);
            sorted[vs10] = vx_ld_init(s_rows, s_rows_init, ((long long)(i_2)) * 32LL + (long long)(j_2), vx_err);
          }
        }
      }
    }
  }
  __syncthreads();
#line 38 "tests/cuda_host/programs/tiles.vx"
#line 39 "tests/cuda_host/programs/tiles.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 32) {
      const int lo11 = ((int)(0LL));
#pragma unroll
      for (int k12 = 0; k12 < 4; ++k12) {
        const int p16 = (int)threadIdx.x + k12 * 32;
        const int l = (int)((unsigned long long)lo11 + (unsigned long long)p16);
#line 40 "tests/cuda_host/programs/tiles.vx"
        const long long vs13 = (long long)(l);
        s_k[vs13] = vx_sub(((long long)(((unsigned int)(vx_mul(((unsigned int)(l)), ((unsigned int)2654435761ull)) ^ ((unsigned int)(b)))))), ((long long)(2000000000LL)));
      }
    }
  }
  __syncthreads();
#line 42 "tests/cuda_host/programs/tiles.vx"
  { // lanes::sort: odd-even transposition (stable, NaN last)
    long long sn17 = (long long)(vx_sub(((int)(128LL)), vx_mul(b, ((int)(50LL)))));
    if (sn17 < 1 || sn17 > 128LL) { vx_fail(vx_err, vx_kErrLanesN); sn17 = 1; }
    for (long long vx_ph = 0; vx_ph < sn17; ++vx_ph) {
      for (long long vx_i = 2 * vx_tid + (vx_ph & 1); vx_i + 1 < sn17; vx_i += 2 * VX_NT) {
        long long vx_a = s_k[vx_i], vx_b = s_k[vx_i + 1];
        if (vx_sort_lt(vx_b, vx_a)) { s_k[vx_i] = vx_b; s_k[vx_i + 1] = vx_a; }
      }
      __syncthreads();
    }
  }
#line 43 "tests/cuda_host/programs/tiles.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 32) {
      const int lo18 = ((int)(0LL));
#pragma unroll
      for (int k19 = 0; k19 < 4; ++k19) {
        const int p23 = (int)threadIdx.x + k19 * 32;
        const int l_2 = (int)((unsigned long long)lo18 + (unsigned long long)p23);
#line 44 "tests/cuda_host/programs/tiles.vx"
        const long long vs20 = ((long long)(b)) * 128LL + (long long)(l_2);
        keys[vs20] = s_k[(long long)(l_2)];
      }
    }
  }
  __syncthreads();
#line 46 "tests/cuda_host/programs/tiles.vx"
  {
    const float vx_fill = (0x0p+0f);
    for (int vx_e = vx_tid; vx_e < 64; vx_e += VX_NT) s_a[vx_e] = vx_fill;
  }
  __syncthreads();
#line 47 "tests/cuda_host/programs/tiles.vx"
  float r_c_2[2];
  {
    const float vx_fill = (0x0p+0f);
    for (int vx_e = 0; vx_e < 2; ++vx_e) r_c_2[vx_e] = vx_fill;
  }
#line 48 "tests/cuda_host/programs/tiles.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 32) {
      const int lo24 = ((int)(0LL));
#pragma unroll
      for (int k25 = 0; k25 < 2; ++k25) {
        const int p29 = (int)threadIdx.x + k25 * 32;
        const int l_3 = (int)((unsigned long long)lo24 + (unsigned long long)p29);
#line 49 "tests/cuda_host/programs/tiles.vx"
        const long long vs26 = (long long)(l_3);
        s_a[vs26] = vx_ld_init(s_tile, s_tile_init, (vx_ix((long long)(vx_rem(l_3, ((int)(32LL)), vx_err)), 32LL, vx_err)) * 32LL + vx_ix((long long)(vx_div(l_3, ((int)(2LL)), vx_err)), 32LL, vx_err), vx_err);
      }
    }
  }
  __syncthreads();
#line 51 "tests/cuda_host/programs/tiles.vx"
  {
    const int lo30 = ((int)(0LL));
    const int hi31 = ((int)(4LL));
    bool go32 = lo30 < hi31;
    for (int step = lo30; go32; go32 = (vx_add(step, (int)1) != hi31), step = vx_add(step, (int)1)) {
      __syncthreads();
#line 52 "tests/cuda_host/programs/tiles.vx"
      if (VX_ZERO_Y && VX_ZERO_Z && true) {
        if (threadIdx.x < 32) {
          const int lo33 = ((int)(0LL));
#pragma unroll
          for (int k34 = 0; k34 < 2; ++k34) {
            const int p37 = (int)threadIdx.x + k34 * 32;
            const int l_4 = (int)((unsigned long long)lo33 + (unsigned long long)p37);
#line 53 "tests/cuda_host/programs/tiles.vx"
            r_c_2[k34 + 0] = (((s_a[vx_ix((long long)(vx_rem(vx_add(l_4, ((int)(63LL))), ((int)(64LL)), vx_err)), 64LL, vx_err)] + (s_a[(long long)(l_4)] * (0x1p+1f))) + s_a[vx_ix((long long)(vx_rem(vx_add(l_4, ((int)(1LL))), ((int)(64LL)), vx_err)), 64LL, vx_err)]) * (0x1p-2f));
          }
        }
      }
      __syncthreads();
#line 55 "tests/cuda_host/programs/tiles.vx"
      if (VX_ZERO_Y && VX_ZERO_Z && true) {
        if (threadIdx.x < 32) {
          const int lo38 = ((int)(0LL));
#pragma unroll
          for (int k39 = 0; k39 < 2; ++k39) {
            const int p43 = (int)threadIdx.x + k39 * 32;
            const int l_5 = (int)((unsigned long long)lo38 + (unsigned long long)p43);
#line 56 "tests/cuda_host/programs/tiles.vx"
            const long long vs40 = (long long)(l_5);
            s_a[vs40] = (r_c_2[k39 + 0] + ((float)(step)));
          }
        }
      }
      __syncthreads();
    }
  }
#line 59 "tests/cuda_host/programs/tiles.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 32) {
      const int lo44 = ((int)(0LL));
#pragma unroll
      for (int k45 = 0; k45 < 2; ++k45) {
        const int p49 = (int)threadIdx.x + k45 * 32;
        const int l_6 = (int)((unsigned long long)lo44 + (unsigned long long)p49);
#line 60 "tests/cuda_host/programs/tiles.vx"
        const long long vs46 = ((long long)(b)) * 64LL + (long long)(l_6);
        smooth[vs46] = s_a[(long long)(l_6)];
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
  vx_region_0_L19(*(float**)a[0], *(long long**)a[1], *(long long**)a[2], *(float**)a[3], *(int**)a[4]);
}
#endif
