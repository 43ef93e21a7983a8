// $ vx emit-cuda tests/cuda_host/programs/grids_and_math.vx

// tests/cuda_host/programs/grids_and_math.vx:10:5
#define VX_NT 128
#define VX_P2 128
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(128) vx_region_0_L10(long long lo, long long hi, int rows, long long* __restrict__ ints, int* vx_err) {
  const int vx_tid = (int)(threadIdx.x + 128 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 11 "tests/cuda_host/programs/grids_and_math.vx"
  const long long z = (long long)((unsigned long long)(lo) + (unsigned long long)blockIdx.y);
#line 12 "tests/cuda_host/programs/grids_and_math.vx"
  const int y = (int)((unsigned long long)(((int)(1LL))) + (unsigned long long)blockIdx.x);
#line 13 "tests/cuda_host/programs/grids_and_math.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 128) {
      const int lo0 = ((int)(0LL));
#pragma unroll
      for (int k1 = 0; k1 < 3; ++k1) {
        const int p6 = (int)threadIdx.x + k1 * 128;
        if (p6 < 300) {
          const int x = (int)((unsigned long long)lo0 + (unsigned long long)p6);
#line 14 "tests/cuda_host/programs/grids_and_math.vx"
          long long xx = ((long long)(x));
#line 15 "tests/cuda_host/programs/grids_and_math.vx"
          long long a = vx_mul(vx_add(vx_add(vx_mul(z, ((long long)(1000003LL))), vx_mul(((long long)(y)), ((long long)(7919LL)))), xx), ((long long)(2654435761LL)));
#line 16 "tests/cuda_host/programs/grids_and_math.vx"
          long long b = ((long long)(vx_shr(a, (unsigned long long)(long long)(((int)(7LL))), vx_err) ^ vx_shl(a, (unsigned long long)(long long)(((int)(3LL))), vx_err)));
#line 17 "tests/cuda_host/programs/grids_and_math.vx"
          long long vi2;
          if ((x == ((int)(150LL)))) {
            vi2 = ((long long)(1LL));
          } else {
            vi2 = ((long long)(0LL));
          }
          long long q = vx_div(b, vx_add(vx_sub(xx, ((long long)(150LL))), vi2), vx_err);
#line 18 "tests/cuda_host/programs/grids_and_math.vx"
          long long r = vx_rem(b, vx_sub(((long long)(y)), ((long long)(7LL))), vx_err);
#line 19 "tests/cuda_host/programs/grids_and_math.vx"
          long long s = ((long long)(vx_shr(((unsigned int)(a)), (unsigned long long)(vx_rem(((unsigned int)(x)), ((unsigned int)32ull), vx_err)), vx_err)));
#line 20 "tests/cuda_host/programs/grids_and_math.vx"
          short c = vx_sat_i16((double)((((double)(a)) * (0x1.0c6f7a0b5ed8dp-20))));
#line 21 "tests/cuda_host/programs/grids_and_math.vx"
          const long long vs3 = ((vx_ix((long long)(vx_sub(z, lo)), 6LL, vx_err)) * 5LL + vx_ix((long long)(vx_sub(y, ((int)(1LL)))), 5LL, vx_err)) * 300LL + (long long)(x);
          ints[vs3] = vx_add(vx_add(vx_add(vx_add(q, r), s), ((long long)(c))), ((long long)(((signed char)(a)))));
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
static void vx_region_0_L10_host(void** a) {
  vx_region_0_L10(*(long long*)a[0], *(long long*)a[1], *(int*)a[2], *(long long**)a[3], *(int**)a[4]);
}
#endif

// tests/cuda_host/programs/grids_and_math.vx:28:5
#define VX_NT 384
#define VX_P2 256
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y (threadIdx.y == 0)
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(384) vx_region_1_L28(float* __restrict__ fl, double* __restrict__ db, int* vx_err) {
  const int vx_tid = (int)(threadIdx.x + 24 * (threadIdx.y + 16 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 29 "tests/cuda_host/programs/grids_and_math.vx"
  const int b_2 = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 30 "tests/cuda_host/programs/grids_and_math.vx"
  if (VX_ZERO_Z && true) {
    if (threadIdx.y < 16) {
      const int lo0 = ((int)(0LL));
      if (threadIdx.y < 16u) {
        const int i = (int)(lo0 + (int)threadIdx.y);
#line 31 "tests/cuda_host/programs/grids_and_math.vx"
        if (threadIdx.x < 24) {
          const int lo1 = ((int)(0LL));
          if (threadIdx.x < 24u) {
            const int j = (int)(lo1 + (int)threadIdx.x);
#line 32 "tests/cuda_host/programs/grids_and_math.vx"
            float x_2 = ((((float)(vx_add(vx_add(vx_mul(b_2, ((int)(384LL))), vx_mul(i, ((int)(24LL)))), j))) * (0x1.c0ebeep-7f)) - (0x1.4p+1f));
#line 33 "tests/cuda_host/programs/grids_and_math.vx"
            double y_2 = (((double)(x_2)) * (0x1.a666666666666p+1));
#line 34 "tests/cuda_host/programs/grids_and_math.vx"
            const long long vs2 = (((long long)(b_2)) * 16LL + (long long)(i)) * 24LL + (long long)(j);
            fl[vs2] = (((((((vx_sin_f32(x_2) + (vx_cos_f32(x_2) * vx_exp_f32(x_2))) - vx_tanh_f32(x_2)) + vx_log_f32(((x_2 * x_2) + (0x1p+0f)))) + vx_sqrt_f32((x_2 * x_2))) + vx_pow_f32(vx_abs(x_2), (0x1.b33334p+0f))) + vx_exp2_f32(x_2)) + vx_log2_f32((vx_abs(x_2) + (0x1p-1f))));
#line 36 "tests/cuda_host/programs/grids_and_math.vx"
            const long long vs3 = (((long long)(b_2)) * 16LL + (long long)(i)) * 24LL + (long long)(j);
            db[vs3] = ((((((vx_sin_f64(y_2) + (vx_cos_f64(y_2) * vx_exp_f64(y_2))) - vx_tanh_f64(y_2)) + vx_log_f64(((y_2 * y_2) + (0x1p+0)))) + vx_sqrt_f64((y_2 * y_2))) + vx_pow_f64(vx_abs(y_2), (0x1.3333333333333p-2))) + vx_log2_f64((vx_abs(y_2) + (0x1.999999999999ap-4))));
          }
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
static void vx_region_1_L28_host(void** a) {
  vx_region_1_L28(*(float**)a[0], *(double**)a[1], *(int**)a[2]);
}
#endif

// tests/cuda_host/programs/grids_and_math.vx:45:5
#define VX_NT 64
#define VX_P2 64
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(64) vx_region_2_L45(int* __restrict__ counts, unsigned long long* __restrict__ wide, float* __restrict__ fmax_, int* vx_err) {
  const int vx_tid = (int)(threadIdx.x + 64 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 46 "tests/cuda_host/programs/grids_and_math.vx"
  const int b_3 = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 47 "tests/cuda_host/programs/grids_and_math.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 64) {
      const int lo0 = ((int)(0LL));
#pragma unroll
      for (int k1 = 0; k1 < 4; ++k1) {
        const int p13 = (int)threadIdx.x + k1 * 64;
        if (p13 < 200) {
          const int l = (int)((unsigned long long)lo0 + (unsigned long long)p13);
#line 48 "tests/cuda_host/programs/grids_and_math.vx"
          int v = vx_add(vx_mul(b_3, ((int)(200LL))), l);
#line 49 "tests/cuda_host/programs/grids_and_math.vx"
          int va2 = vx_at_add((counts + vx_ix((long long)(((int)(0LL))), ((4LL)), vx_err)), v);
          int _a = va2;
#line 50 "tests/cuda_host/programs/grids_and_math.vx"
          int va3 = vx_at_max((counts + vx_ix((long long)(((int)(1LL))), ((4LL)), vx_err)), vx_rem(vx_mul(v, ((int)(7LL))), ((int)(1001LL)), vx_err));
          int _m = va3;
#line 51 "tests/cuda_host/programs/grids_and_math.vx"
          int va4 = vx_at_min((counts + vx_ix((long long)(((int)(2LL))), ((4LL)), vx_err)), vx_sub(((int)(500LL)), v));
          int _n = va4;
#line 52 "tests/cuda_host/programs/grids_and_math.vx"
          int va5 = vx_at_sub((counts + vx_ix((long long)(((int)(3LL))), ((4LL)), vx_err)), v);
          int _s = va5;
#line 53 "tests/cuda_host/programs/grids_and_math.vx"
          unsigned long long va6 = vx_at_add((wide + vx_ix((long long)(((int)(0LL))), ((3LL)), vx_err)), vx_shl(((unsigned long long)(v)), (unsigned long long)(long long)(((int)(33LL))), vx_err));
          unsigned long long _w = va6;
#line 54 "tests/cuda_host/programs/grids_and_math.vx"
          unsigned long long va7 = vx_at_max((wide + vx_ix((long long)(((int)(1LL))), ((3LL)), vx_err)), vx_mul(((unsigned long long)(v)), ((unsigned long long)12345ull)));
          unsigned long long _x = va7;
#line 55 "tests/cuda_host/programs/grids_and_math.vx"
          unsigned long long va8 = vx_at_sub((wide + vx_ix((long long)(((int)(2LL))), ((3LL)), vx_err)), ((unsigned long long)3ull));
          unsigned long long _y = va8;
#line 56 "tests/cuda_host/programs/grids_and_math.vx"
          float va9 = vx_at_max((fmax_ + vx_ix((long long)(((int)(0LL))), ((2LL)), vx_err)), (((float)(v)) * (0x1p-1f)));
          float _f = va9;
#line 57 "tests/cuda_host/programs/grids_and_math.vx"
          float va10 = vx_at_min((fmax_ + vx_ix((long long)(((int)(1LL))), ((2LL)), vx_err)), (-((float)(v))));
          float _g = va10;
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
static void vx_region_2_L45_host(void** a) {
  vx_region_2_L45(*(int**)a[0], *(unsigned long long**)a[1], *(float**)a[2], *(int**)a[3]);
}
#endif
