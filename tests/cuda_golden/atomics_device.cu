// $ vx emit-cuda conformance/builtins/atomics_device.vx

// conformance/builtins/atomics_device.vx:8:5
#define VX_NT 64
#define VX_P2 64
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(64) vx_region_0_L8(long long* __restrict__ t0, float* __restrict__ t1, int* __restrict__ t2, unsigned int* __restrict__ t3, int* vx_err) {
__shared__ unsigned int s_v16;
__shared__ unsigned int s_t5[1];
const int vx_tid = (int)(threadIdx.x + 64 * (threadIdx.y + 1 * threadIdx.z));
const bool vx_leader = vx_tid == 0;
(void)vx_leader;
const int v4 = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
{
const unsigned int vx_fill = ((unsigned int)0ull);
for (int vx_e = vx_tid; vx_e < 1; vx_e += VX_NT) s_t5[vx_e] = vx_fill;
}
__syncthreads();
if (VX_ZERO_Y && VX_ZERO_Z && true) {
if (threadIdx.x < 64) {
const int lo0 = ((int)(0LL));
if (threadIdx.x < 64u) {
const int v6 = (int)(lo0 + (int)threadIdx.x);
long long v7 = ((long long)(vx_add(vx_mul(v4, ((int)(64LL))), v6)));
long long va1 = vx_at_add((t0 + vx_ix((long long)(((int)(0LL))), ((4LL)), vx_err)), ((long long)(1LL)));
long long v8 = va1;
__threadfence();
long long va2 = vx_at_max((t0 + vx_ix((long long)(((int)(1LL))), ((4LL)), vx_err)), v7);
__threadfence();
long long v9 = va2;
long long va3 = vx_at_min((t0 + vx_ix((long long)(((int)(2LL))), ((4LL)), vx_err)), vx_neg(v7));
__threadfence();
long long v10 = va3;
__threadfence();
long long va4 = vx_at_sub((t0 + vx_ix((long long)(((int)(3LL))), ((4LL)), vx_err)), ((long long)(2LL)));
long long v11 = va4;
float va5 = vx_at_add((t1 + vx_ix((long long)(((int)(0LL))), ((1LL)), vx_err)), (0x1p-1f));
float v12 = va5;
__threadfence();
int va6 = vx_at_cas((t2 + vx_ix((long long)(((int)(0LL))), ((3LL)), vx_err)), ((int)(0LL)), ((int)(1LL)));
__threadfence();
int v13 = va6;
__threadfence();
int va7 = vx_at_swap((t2 + vx_ix((long long)(((int)(1LL))), ((3LL)), vx_err)), ((int)(7LL)));
__threadfence();
int v14 = va7;
__threadfence();
vx_at_store((t2 + vx_ix((long long)(((int)(2LL))), ((3LL)), vx_err)), ((int)(9LL)));
__threadfence();
unsigned int va8 = vx_at_add((s_t5 + vx_ix((long long)(((int)(0LL))), ((1LL)), vx_err)), ((unsigned int)1ull));
unsigned int v15 = va8;
__threadfence_block();
}
}
}
__syncthreads();
if (vx_leader) {
__threadfence();
unsigned int va9 = vx_at_load((s_t5 + vx_ix((long long)(((int)(0LL))), ((1LL)), vx_err)));
__threadfence_block();
s_v16 = va9;
const long long vs10 = (long long)(v4);
t3[vs10] = s_v16;
}
}
#undef VX_NT
#undef VX_P2
#undef VX_ZERO_X
#undef VX_ZERO_Y
#undef VX_ZERO_Z
#ifdef VX_HOST_HARNESS
static void vx_region_0_L8_host(void** a) {
  vx_region_0_L8(*(long long**)a[0], *(float**)a[1], *(int**)a[2], *(unsigned int**)a[3], *(int**)a[4]);
}
#endif
