// $ vx emit-cuda conformance/book/blog_gelu_forward_exact.vx

// conformance/book/blog_gelu_forward_exact.vx:4:5
#define VX_NT 256
#define VX_P2 256
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(256) vx_region_0_L4(float* __restrict__ out, long long out_d0, float* __restrict__ inp, long long inp_d0, int n, int* vx_err) {
  const int vx_tid = (int)(threadIdx.x + 256 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 5 "conformance/book/blog_gelu_forward_exact.vx"
  const int b = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 6 "conformance/book/blog_gelu_forward_exact.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 256) {
      const int lo0 = ((int)(0LL));
      if (threadIdx.x < 256u) {
        const int l = (int)(lo0 + (int)threadIdx.x);
#line 7 "conformance/book/blog_gelu_forward_exact.vx"
        int i = vx_add(vx_mul(b, ((int)(256LL))), l);
#line 8 "conformance/book/blog_gelu_forward_exact.vx"
        if ((i < n)) {
#line 9 "conformance/book/blog_gelu_forward_exact.vx"
          float x = inp[vx_ix((long long)(i), inp_d0, vx_err)];
#line 10 "conformance/book/blog_gelu_forward_exact.vx"
          float cube = ((((0x1.6e4e26p-5f) * x) * x) * x);
#line 11 "conformance/book/blog_gelu_forward_exact.vx"
          const long long vs1 = vx_ix((long long)(i), out_d0, vx_err);
          out[vs1] = (((0x1p-1f) * x) * ((0x1p+0f) + vx_tanh_f32(((0x1.988454p-1f) * (x + cube)))));
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
static void vx_region_0_L4_host(void** a) {
  vx_region_0_L4(*(float**)a[0], *(long long*)a[1], *(float**)a[2], *(long long*)a[3], *(int*)a[4], *(int**)a[5]);
}
#endif
