// $ vx emit-cuda conformance/book/blog_gelu_forward_exact.vx

// conformance/book/blog_gelu_forward_exact.vx:4:5
#define VX_NT 256
#define VX_P2 256
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(256) vx_region_0_L4(float* __restrict__ t0, long long t0_d0, float* __restrict__ t1, long long t1_d0, int v2, int* vx_err) {
const int vx_tid = (int)(threadIdx.x + 256 * (threadIdx.y + 1 * threadIdx.z));
const bool vx_leader = vx_tid == 0;
(void)vx_leader;
const int v3 = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
if (VX_ZERO_Y && VX_ZERO_Z && true) {
if (threadIdx.x < 256) {
const int lo0 = ((int)(0LL));
if (threadIdx.x < 256u) {
const int v4 = (int)(lo0 + (int)threadIdx.x);
int v5 = vx_add(vx_mul(v3, ((int)(256LL))), v4);
if ((v5 < v2)) {
float v6 = t1[vx_ix((long long)(v5), t1_d0, vx_err)];
float v7 = ((((0x1.6e4e26p-5f) * v6) * v6) * v6);
const long long vs1 = vx_ix((long long)(v5), t0_d0, vx_err);
t0[vs1] = (((0x1p-1f) * v6) * ((0x1p+0f) + vx_tanh_f32(((0x1.988454p-1f) * (v6 + v7)))));
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
