// $ vx emit-cuda conformance/semantics/arrays_on_device.vx

static __device__ vx_arr<float, 4> vx_fn_0(float v0, int* vx_err);
static __device__ float vx_fn_1(vx_arr<float, 4> v0, vx_arr<float, 4> v1, int* vx_err);
#ifndef VX_FN_0
#define VX_FN_0
static __device__ vx_arr<float, 4> vx_fn_0(float v0, int* vx_err) {
vx_arr<float, 4> varr14;
varr14.v[0] = ((0x1p-1f) * v0);
varr14.v[1] = ((0x1p-2f) * v0);
varr14.v[2] = ((0x1p-3f) * v0);
varr14.v[3] = ((0x1p-3f) * v0);
return varr14;
}
#endif
#ifndef VX_FN_1
#define VX_FN_1
static __device__ float vx_fn_1(vx_arr<float, 4> v0, vx_arr<float, 4> v1, int* vx_err) {
float v2 = (0x0p+0f);
{
const int lo11 = ((int)(0LL));
const int hi12 = ((int)(4LL));
bool go13 = lo11 < hi12;
for (int v3 = lo11; go13; go13 = (vx_add(v3, (int)1) != hi12), v3 = vx_add(v3, (int)1)) {
v2 = (v2 + (v0.v[(long long)(v3)] * v1.v[(long long)(v3)]));
}
}
return v2;
}
#endif
// conformance/semantics/arrays_on_device.vx:33:5
#define VX_NT 32
#define VX_P2 32
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(32) vx_region_0_L33(vx_arr<int, 8> v0, float* __restrict__ t1, int* __restrict__ t2, int* vx_err) {
__shared__ vx_arr<int, 3> s_v4;
const int vx_tid = (int)(threadIdx.x + 32 * (threadIdx.y + 1 * threadIdx.z));
const bool vx_leader = vx_tid == 0;
(void)vx_leader;
const int v3 = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
if (vx_leader) {
vx_arr<int, 3> varr0;
varr0.v[0] = v3;
varr0.v[1] = vx_mul(v3, ((int)(2LL)));
varr0.v[2] = vx_mul(v3, ((int)(3LL)));
s_v4 = varr0;
}
__syncthreads();
if (VX_ZERO_Y && VX_ZERO_Z && true) {
if (threadIdx.x < 32) {
const int lo1 = ((int)(0LL));
#pragma unroll
for (int k2 = 0; k2 < 2; ++k2) {
const int p33 = (int)threadIdx.x + k2 * 32;
const int v5 = (int)((unsigned long long)lo1 + (unsigned long long)p33);
vx_arr<int, 4> varr3;
varr3.v[0] = ((int)(0LL));
for (int k = 1; k < 4; ++k) varr3.v[k] = varr3.v[k - 1];
vx_arr<int, 4> v6 = varr3;
{
const int lo4 = ((int)(0LL));
const int hi5 = ((int)(4LL));
bool go6 = lo4 < hi5;
for (int v7 = lo4; go6; go6 = (vx_add(v7, (int)1) != hi5), v7 = vx_add(v7, (int)1)) {
const long long vs7 = (long long)(v7);
v6.v[vs7] = vx_rem(vx_add(v5, vx_mul(v7, v0.v[vx_ix((long long)(vx_rem(vx_add(v5, v7), ((int)(8LL)), vx_err)), 8LL, vx_err)])), ((int)(7LL)), vx_err);
}
}
const long long vs8 = vx_ix((long long)(vx_rem(v5, ((int)(4LL)), vx_err)), 4LL, vx_err);
v6.v[vs8] = vx_add(v6.v[vs8], s_v4.v[vx_ix((long long)(vx_rem(v5, ((int)(3LL)), vx_err)), 3LL, vx_err)]);
vx_arr<float, 4> varr9;
varr9.v[0] = ((float)(v6.v[(long long)(((int)(0LL)))]));
varr9.v[1] = ((float)(v6.v[(long long)(((int)(1LL)))]));
varr9.v[2] = ((float)(v6.v[(long long)(((int)(2LL)))]));
varr9.v[3] = ((float)(v6.v[(long long)(((int)(3LL)))]));
vx_arr<float, 4> v8 = varr9;
const long long vs10 = ((long long)(v3)) * 64LL + (long long)(v5);
t1[vs10] = vx_fn_1(v8, vx_fn_0(((float)(vx_add(v3, ((int)(1LL))))), vx_err), vx_err);
vx_arr<int, 4> varr15;
vx_arr<int, 2> varr16;
varr16.v[0] = v5;
varr16.v[1] = v3;
{
const vx_arr<int, 2> vel17 = varr16;
for (int k = 0; k < 2; ++k) varr15.v[0 + k] = vel17.v[k];
}
vx_arr<int, 2> varr18;
varr18.v[0] = v3;
varr18.v[1] = v5;
{
const vx_arr<int, 2> vel19 = varr18;
for (int k = 0; k < 2; ++k) varr15.v[2 + k] = vel19.v[k];
}
vx_arr<int, 4> v9 = varr15;
const vx_arr<int, 4> vea20 = v9;
vx_arr<int, 4> varr23;
vx_arr<int, 2> varr24;
varr24.v[0] = v3;
varr24.v[1] = v5;
{
const vx_arr<int, 2> vel25 = varr24;
for (int k = 0; k < 2; ++k) varr23.v[0 + k] = vel25.v[k];
}
vx_arr<int, 2> varr26;
varr26.v[0] = v5;
varr26.v[1] = v3;
{
const vx_arr<int, 2> vel27 = varr26;
for (int k = 0; k < 2; ++k) varr23.v[2 + k] = vel27.v[k];
}
const vx_arr<int, 4> veb21 = varr23;
bool veq22 = true;
for (int k = 0; k < 4; ++k) if (!(vea20.v[k] == veb21.v[k])) { veq22 = false; break; }
bool v10 = veq22;
const long long vs28 = ((long long)(v3)) * 64LL + (long long)(v5);
int vi29;
if (v10) {
vi29 = ((int)(100LL));
} else {
vi29 = ((int)(0LL));
}
int vb30;
{
(void)(v9);
vb30 = ((int)(2LL));
}
t2[vs28] = vx_add(vx_add(vx_add(vx_add(vx_add(v6.v[(long long)(((int)(0LL)))], v6.v[(long long)(((int)(1LL)))]), v6.v[(long long)(((int)(2LL)))]), v6.v[(long long)(((int)(3LL)))]), vi29), vb30);
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
