// $ vx emit-cuda conformance/semantics/arrays_on_device.vx

static __device__ vx_arr<float, 4> vx_fn_0_weights(float scale, int* vx_err);
static __device__ float vx_fn_1_dot(vx_arr<float, 4> a, vx_arr<float, 4> b, int* vx_err);
#ifndef VX_FN_0
#define VX_FN_0
static __device__ vx_arr<float, 4> vx_fn_0_weights(float scale, int* vx_err) {
  vx_arr<float, 4> varr14;
  varr14.v[0] = ((0x1p-1f) * scale);
  varr14.v[1] = ((0x1p-2f) * scale);
  varr14.v[2] = ((0x1p-3f) * scale);
  varr14.v[3] = ((0x1p-3f) * scale);
  return varr14;
}
#endif
#ifndef VX_FN_1
#define VX_FN_1
static __device__ float vx_fn_1_dot(vx_arr<float, 4> a, vx_arr<float, 4> b, int* vx_err) {
#line 22 "conformance/semantics/arrays_on_device.vx"
  float s = (0x0p+0f);
#line 23 "conformance/semantics/arrays_on_device.vx"
  {
    const int lo11 = ((int)(0LL));
    const int hi12 = ((int)(4LL));
    bool go13 = lo11 < hi12;
    for (int i = lo11; go13; go13 = (vx_add(i, (int)1) != hi12), i = vx_add(i, (int)1)) {
#line 24 "conformance/semantics/arrays_on_device.vx"
      s = (s + (a.v[(long long)(i)] * b.v[(long long)(i)]));
    }
  }
  return s;
}
#endif
// conformance/semantics/arrays_on_device.vx:33:5
#define VX_NT 32
#define VX_P2 32
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(32) vx_region_0_L33(vx_arr<int, 8> offsets, float* __restrict__ out, int* __restrict__ counts, int* vx_err) {
  __shared__ vx_arr<int, 3> s_base;
  const int vx_tid = (int)(threadIdx.x + 32 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 34 "conformance/semantics/arrays_on_device.vx"
  const int b = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
  if (vx_leader) {
#line 35 "conformance/semantics/arrays_on_device.vx"
    vx_arr<int, 3> varr0;
    varr0.v[0] = b;
    varr0.v[1] = vx_mul(b, ((int)(2LL)));
    varr0.v[2] = vx_mul(b, ((int)(3LL)));
    s_base = varr0;
  }
  __syncthreads();
#line 36 "conformance/semantics/arrays_on_device.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 32) {
      const int lo1 = ((int)(0LL));
#pragma unroll
      for (int k2 = 0; k2 < 2; ++k2) {
        const int p33 = (int)threadIdx.x + k2 * 32;
        const int x = (int)((unsigned long long)lo1 + (unsigned long long)p33);
#line 37 "conformance/semantics/arrays_on_device.vx"
        vx_arr<int, 4> varr3;
        varr3.v[0] = ((int)(0LL));
        for (int vx_k = 1; vx_k < 4; ++vx_k) varr3.v[vx_k] = varr3.v[vx_k - 1];
        vx_arr<int, 4> h = varr3;
#line 38 "conformance/semantics/arrays_on_device.vx"
        {
          const int lo4 = ((int)(0LL));
          const int hi5 = ((int)(4LL));
          bool go6 = lo4 < hi5;
          for (int i = lo4; go6; go6 = (vx_add(i, (int)1) != hi5), i = vx_add(i, (int)1)) {
#line 39 "conformance/semantics/arrays_on_device.vx"
            const long long vs7 = (long long)(i);
            h.v[vs7] = vx_rem(vx_add(x, vx_mul(i, offsets.v[vx_ix((long long)(vx_rem(vx_add(x, i), ((int)(8LL)), vx_err)), 8LL, vx_err)])), ((int)(7LL)), vx_err);
          }
        }
#line 41 "conformance/semantics/arrays_on_device.vx"
        const long long vs8 = vx_ix((long long)(vx_rem(x, ((int)(4LL)), vx_err)), 4LL, vx_err);
        h.v[vs8] = vx_add(h.v[vs8], s_base.v[vx_ix((long long)(vx_rem(x, ((int)(3LL)), vx_err)), 3LL, vx_err)]);
#line 42 "conformance/semantics/arrays_on_device.vx"
        vx_arr<float, 4> varr9;
        varr9.v[0] = ((float)(h.v[(long long)(((int)(0LL)))]));
        varr9.v[1] = ((float)(h.v[(long long)(((int)(1LL)))]));
        varr9.v[2] = ((float)(h.v[(long long)(((int)(2LL)))]));
        varr9.v[3] = ((float)(h.v[(long long)(((int)(3LL)))]));
        vx_arr<float, 4> v = varr9;
#line 43 "conformance/semantics/arrays_on_device.vx"
        const long long vs10 = ((long long)(b)) * 64LL + (long long)(x);
        out[vs10] = vx_fn_1_dot(v, vx_fn_0_weights(((float)(vx_add(b, ((int)(1LL))))), vx_err), vx_err);
#line 44 "conformance/semantics/arrays_on_device.vx"
        vx_arr<int, 4> varr15;
        vx_arr<int, 2> varr16;
        varr16.v[0] = x;
        varr16.v[1] = b;
        {
          const vx_arr<int, 2> vel17 = varr16;
          for (int vx_k = 0; vx_k < 2; ++vx_k) varr15.v[0 + vx_k] = vel17.v[vx_k];
        }
        vx_arr<int, 2> varr18;
        varr18.v[0] = b;
        varr18.v[1] = x;
        {
          const vx_arr<int, 2> vel19 = varr18;
          for (int vx_k = 0; vx_k < 2; ++vx_k) varr15.v[2 + vx_k] = vel19.v[vx_k];
        }
        vx_arr<int, 4> m = varr15;
#line 45 "conformance/semantics/arrays_on_device.vx"
        const vx_arr<int, 4> vea20 = m;
        vx_arr<int, 4> varr23;
        vx_arr<int, 2> varr24;
        varr24.v[0] = b;
        varr24.v[1] = x;
        {
          const vx_arr<int, 2> vel25 = varr24;
          for (int vx_k = 0; vx_k < 2; ++vx_k) varr23.v[0 + vx_k] = vel25.v[vx_k];
        }
        vx_arr<int, 2> varr26;
        varr26.v[0] = x;
        varr26.v[1] = b;
        {
          const vx_arr<int, 2> vel27 = varr26;
          for (int vx_k = 0; vx_k < 2; ++vx_k) varr23.v[2 + vx_k] = vel27.v[vx_k];
        }
        const vx_arr<int, 4> veb21 = varr23;
        bool veq22 = true;
        for (int vx_k = 0; vx_k < 4; ++vx_k) if (!(vea20.v[vx_k] == veb21.v[vx_k])) { veq22 = false; break; }
        bool same = veq22;
#line 46 "conformance/semantics/arrays_on_device.vx"
        const long long vs28 = ((long long)(b)) * 64LL + (long long)(x);
        int vi29;
        if (same) {
          vi29 = ((int)(100LL));
        } else {
          vi29 = ((int)(0LL));
        }
        int vb30;
        {
#line 46 "conformance/semantics/arrays_on_device.vx"
          (void)(m);
          vb30 = ((int)(2LL));
        }
        counts[vs28] = vx_add(vx_add(vx_add(vx_add(vx_add(h.v[(long long)(((int)(0LL)))], h.v[(long long)(((int)(1LL)))]), h.v[(long long)(((int)(2LL)))]), h.v[(long long)(((int)(3LL)))]), vi29), vb30);
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
static void vx_region_0_L33_host(void** a) {
  vx_region_0_L33(*(vx_arr<int, 8>*)a[0], *(float**)a[1], *(int**)a[2], *(int**)a[3]);
}
#endif
