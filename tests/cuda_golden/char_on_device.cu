// $ vx emit-cuda conformance/semantics/char_on_device.vx

static __device__ unsigned int vx_fn_0_shift(unsigned int c, int* vx_err);
#ifndef VX_FN_0
#define VX_FN_0
static __device__ unsigned int vx_fn_0_shift(unsigned int c, int* vx_err) {
  return ((unsigned int)(vx_add(vx_rem(vx_add(vx_sub(((unsigned char)(c)), ((unsigned char)97ull)), ((unsigned char)3ull)), ((unsigned char)26ull), vx_err), ((unsigned char)97ull))));
}
#endif
// conformance/semantics/char_on_device.vx:13:5
#define VX_NT 64
#define VX_P2 64
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(64) vx_region_0_L13(unsigned int base, unsigned int* __restrict__ out, int* vx_err) {
  const int vx_tid = (int)(threadIdx.x + 64 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 14 "conformance/semantics/char_on_device.vx"
  const int b = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 15 "conformance/semantics/char_on_device.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 64) {
      const int lo0 = ((int)(0LL));
      if (threadIdx.x < 64u) {
        const int x = (int)(lo0 + (int)threadIdx.x);
#line 16 "conformance/semantics/char_on_device.vx"
        unsigned int c = ((unsigned int)(((unsigned char)(vx_add(((int)(97LL)), vx_rem(vx_add(vx_mul(b, ((int)(64LL))), x), ((int)(26LL)), vx_err))))));
#line 17 "conformance/semantics/char_on_device.vx"
        unsigned int s = vx_fn_0_shift(c, vx_err);
#line 18 "conformance/semantics/char_on_device.vx"
        unsigned int v = ((unsigned int)(s));
#line 19 "conformance/semantics/char_on_device.vx"
        if ((c < ((unsigned int)110ull))) {
#line 20 "conformance/semantics/char_on_device.vx"
          v = vx_add(v, ((unsigned int)1000ull));
        }
#line 22 "conformance/semantics/char_on_device.vx"
        if (((c == base) || (s == ((unsigned int)97ull)))) {
#line 23 "conformance/semantics/char_on_device.vx"
          v = vx_add(v, ((unsigned int)5000ull));
        }
#line 25 "conformance/semantics/char_on_device.vx"
        const long long vs1 = ((long long)(b)) * 64LL + (long long)(x);
        out[vs1] = v;
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
static void vx_region_0_L13_host(void** a) {
  vx_region_0_L13(*(unsigned int*)a[0], *(unsigned int**)a[1], *(int**)a[2]);
}
#endif
