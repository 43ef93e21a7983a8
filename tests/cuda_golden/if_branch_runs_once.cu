// $ vx emit-cuda conformance/memory/if_branch_runs_once.vx

// conformance/memory/if_branch_runs_once.vx:16:5
#define VX_NT 32
#define VX_P2 32
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(32) vx_region_0_L16(int* __restrict__ t0, int* __restrict__ t1, int* __restrict__ t2, int* __restrict__ t3, int* vx_err) {
const int vx_tid = (int)(threadIdx.x + 32 * (threadIdx.y + 1 * threadIdx.z));
const bool vx_leader = vx_tid == 0;
(void)vx_leader;
const int v4 = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
if (VX_ZERO_Y && VX_ZERO_Z && true) {
if (threadIdx.x < 32) {
const int lo0 = ((int)(0LL));
if (threadIdx.x < 32u) {
const int v5 = (int)(lo0 + (int)threadIdx.x);
int vi1;
if ((v5 == ((int)(0LL)))) {
vi1 = ((int)(1LL));
} else {
int vi2;
if ((v5 == ((int)(1LL)))) {
vi2 = ((int)(2LL));
} else {
int va3 = vx_at_add((t0 + vx_ix((long long)(((int)(0LL))), ((1LL)), vx_err)), ((int)(1LL)));
vi2 = va3;
}
vi1 = vi2;
}
int v6 = vi1;
const long long vs4 = (long long)(v5);
t2[vs4] = vx_add(vx_sub(v6, v6), v5);
if ((v5 >= ((int)(0LL)))) {
const long long vs5 = (long long)(v5);
t3[vs5] = vx_mul(((int)(2LL)), v5);
{
int v7 = t3[(long long)(v5)];
int va6 = vx_at_add((t1 + vx_ix((long long)(((int)(0LL))), ((1LL)), vx_err)), v7);
int v8 = va6;
}
}
const long long vs7 = (long long)(v5);
int vb8;
{
int v9 = t3[(long long)(v5)];
vb8 = vx_add(v9, ((int)(1LL)));
}
t3[vs7] = vb8;
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
static void vx_region_0_L16_host(void** a) {
  vx_region_0_L16(*(int**)a[0], *(int**)a[1], *(int**)a[2], *(int**)a[3], *(int**)a[4]);
}
#endif
