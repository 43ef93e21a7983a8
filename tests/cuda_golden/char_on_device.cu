// $ vx emit-cuda conformance/semantics/char_on_device.vx

static __device__ unsigned int vx_fn_0(unsigned int v0, int* vx_err);
#ifndef VX_FN_0
#define VX_FN_0
static __device__ unsigned int vx_fn_0(unsigned int v0, int* vx_err) {
return ((unsigned int)(vx_add(vx_rem(vx_add(vx_sub(((unsigned char)(v0)), ((unsigned char)97ull)), ((unsigned char)3ull)), ((unsigned char)26ull), vx_err), ((unsigned char)97ull))));
}
#endif
// conformance/semantics/char_on_device.vx:13:5
#define VX_NT 64
#define VX_P2 64
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(64) vx_region_0_L13(unsigned int v0, unsigned int* __restrict__ t1, int* vx_err) {
const int vx_tid = (int)(threadIdx.x + 64 * (threadIdx.y + 1 * threadIdx.z));
const bool vx_leader = vx_tid == 0;
(void)vx_leader;
const int v2 = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
if (VX_ZERO_Y && VX_ZERO_Z && true) {
if (threadIdx.x < 64) {
const int lo0 = ((int)(0LL));
if (threadIdx.x < 64u) {
const int v3 = (int)(lo0 + (int)threadIdx.x);
unsigned int v4 = ((unsigned int)(((unsigned char)(vx_add(((int)(97LL)), vx_rem(vx_add(vx_mul(v2, ((int)(64LL))), v3), ((int)(26LL)), vx_err))))));
unsigned int v5 = vx_fn_0(v4, vx_err);
unsigned int v6 = ((unsigned int)(v5));
if ((v4 < ((unsigned int)110ull))) {
v6 = vx_add(v6, ((unsigned int)1000ull));
}
if (((v4 == v0) || (v5 == ((unsigned int)97ull)))) {
v6 = vx_add(v6, ((unsigned int)5000ull));
}
const long long vs1 = ((long long)(v2)) * 64LL + (long long)(v3);
t1[vs1] = v6;
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
