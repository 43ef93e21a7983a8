// $ vx emit-cuda conformance/book/book_gpu_histogram_with_atomics.vx

// conformance/book/book_gpu_histogram_with_atomics.vx:10:5
#define VX_NT 256
#define VX_P2 256
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(256) vx_region_0_L10(int* __restrict__ t2, unsigned int* __restrict__ t3, int* vx_err) {
const int vx_tid = (int)(threadIdx.x + 256 * (threadIdx.y + 1 * threadIdx.z));
const bool vx_leader = vx_tid == 0;
(void)vx_leader;
const int v4 = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
if (VX_ZERO_Y && VX_ZERO_Z && true) {
if (threadIdx.x < 256) {
const int lo0 = ((int)(0LL));
if (threadIdx.x < 256u) {
const int v5 = (int)(lo0 + (int)threadIdx.x);
int v6 = t2[(long long)(vx_add(vx_mul(v4, ((int)(256LL))), v5))];
unsigned int va1 = vx_at_add((t3 + vx_ix((long long)(v6), ((8LL)), vx_err)), ((unsigned int)1ull));
unsigned int v7 = va1;
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
  vx_region_0_L10(*(int**)a[0], *(unsigned int**)a[1], *(int**)a[2]);
}
#endif
