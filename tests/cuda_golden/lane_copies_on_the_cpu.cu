// $ vx emit-cuda conformance/book/lane_copies_on_the_cpu.vx

// conformance/book/lane_copies_on_the_cpu.vx:15:5
#define VX_NT 64
#define VX_P2 64
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(64) vx_region_0_L15(float* __restrict__ t3, float* __restrict__ t4, float* __restrict__ t5, int v6, int* vx_err) {
__shared__ float s_t8[8192];
__shared__ unsigned char s_t8_init[8192];
const int vx_tid = (int)(threadIdx.x + 64 * (threadIdx.y + 1 * threadIdx.z));
const bool vx_leader = vx_tid == 0;
(void)vx_leader;
const int v7 = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
for (int vx_e = vx_tid; vx_e < 8192; vx_e += VX_NT) s_t8_init[vx_e] = 0;
__syncthreads();
{
const int lo0 = ((int)(0LL));
const int hi1 = vx_div(v6, ((int)(2LL)), vx_err);
bool go2 = lo0 < hi1;
for (int v9 = lo0; go2; go2 = (vx_add(v9, (int)1) != hi1), v9 = vx_add(v9, (int)1)) {
__syncthreads();
{ // lanes::copy_async: cp.async on sm_80 and newer, else a cooperative copy (spec/offload.md)
const long long vo3 = ((long long)(((int)(0LL)))) * ((64LL) * (64LL));
const long long vx_st0 = vx_start_s((long long)(vx_mul(v7, ((int)(64LL)))));
const long long vx_st1 = vx_start_s((long long)(vx_mul(v9, ((int)(128LL)))));
for (long long vx_e = vx_tid; vx_e < 4096LL; vx_e += VX_NT) {
long long vx_r = vx_e, vx_off = 0;
bool vx_in = true;
const long long vx_k1 = vx_r % 64LL; vx_r /= 64LL;
const long long vx_k0 = vx_r % 64LL; vx_r /= 64LL;
vx_in = vx_in && (vx_st0 + vx_k0) >= 0 && (vx_st0 + vx_k0) < 128LL;
vx_off = vx_off * 128LL + (vx_in ? (vx_st0 + vx_k0) : 0);
vx_in = vx_in && (vx_st1 + vx_k1) >= 0 && (vx_st1 + vx_k1) < 256LL;
vx_off = vx_off * 256LL + (vx_in ? (vx_st1 + vx_k1) : 0);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"((unsigned)__cvta_generic_to_shared(&(s_t8 + vo3)[vx_e])), "l"(__cvta_generic_to_global(t3 + (vx_in ? vx_off : 0))), "r"(vx_in ? 4 : 0) : "memory");
#else
(s_t8 + vo3)[vx_e] = vx_in ? t3[vx_off] : vx_zero<float>();
#endif
(s_t8_init + vo3)[vx_e] = 1;
}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
asm volatile("cp.async.commit_group;" ::: "memory");
#else
__syncthreads();
#endif
}
{ // lanes::copy_async: cp.async on sm_80 and newer, else a cooperative copy (spec/offload.md)
const long long vo4 = ((long long)(((int)(1LL)))) * ((64LL) * (64LL));
const long long vx_st0 = vx_start_s((long long)(vx_mul(v7, ((int)(64LL)))));
const long long vx_st1 = vx_start_s((long long)(vx_add(vx_mul(v9, ((int)(128LL))), ((int)(64LL)))));
for (long long vx_e = vx_tid; vx_e < 4096LL; vx_e += VX_NT) {
long long vx_r = vx_e, vx_off = 0;
bool vx_in = true;
const long long vx_k1 = vx_r % 64LL; vx_r /= 64LL;
const long long vx_k0 = vx_r % 64LL; vx_r /= 64LL;
vx_in = vx_in && (vx_st0 + vx_k0) >= 0 && (vx_st0 + vx_k0) < 128LL;
vx_off = vx_off * 128LL + (vx_in ? (vx_st0 + vx_k0) : 0);
vx_in = vx_in && (vx_st1 + vx_k1) >= 0 && (vx_st1 + vx_k1) < 256LL;
vx_off = vx_off * 256LL + (vx_in ? (vx_st1 + vx_k1) : 0);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"((unsigned)__cvta_generic_to_shared(&(s_t8 + vo4)[vx_e])), "l"(__cvta_generic_to_global(t3 + (vx_in ? vx_off : 0))), "r"(vx_in ? 4 : 0) : "memory");
#else
(s_t8 + vo4)[vx_e] = vx_in ? t3[vx_off] : vx_zero<float>();
#endif
(s_t8_init + vo4)[vx_e] = 1;
}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
asm volatile("cp.async.commit_group;" ::: "memory");
#else
__syncthreads();
#endif
}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
asm volatile("cp.async.wait_all;" ::: "memory");
__syncthreads();
#endif
if (VX_ZERO_Y && VX_ZERO_Z && true) {
if (threadIdx.x < 64) {
const int lo5 = ((int)(0LL));
if (threadIdx.x < 64u) {
const int v12 = (int)(lo5 + (int)threadIdx.x);
float v13 = (0x0p+0f);
{
const int lo6 = ((int)(0LL));
const int hi7 = ((int)(64LL));
bool go8 = lo6 < hi7;
for (int v14 = lo6; go8; go8 = (vx_add(v14, (int)1) != hi7), v14 = vx_add(v14, (int)1)) {
v13 = (v13 + vx_ld_init(s_t8, s_t8_init, (((long long)(((int)(0LL)))) * 64LL + (long long)(v12)) * 64LL + (long long)(v14), vx_err));
}
}
const long long vs9 = ((long long)(vx_add(vx_mul(v7, ((int)(64LL))), v12))) * 2LL + vx_ix((long long)(v9), 2LL, vx_err);
t4[vs9] = v13;
}
}
}
__syncthreads();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
asm volatile("cp.async.wait_all;" ::: "memory");
__syncthreads();
#endif
if (VX_ZERO_Y && VX_ZERO_Z && true) {
if (threadIdx.x < 64) {
const int lo10 = ((int)(0LL));
if (threadIdx.x < 64u) {
const int v15 = (int)(lo10 + (int)threadIdx.x);
float v16 = (0x0p+0f);
{
const int lo11 = ((int)(0LL));
const int hi12 = ((int)(64LL));
bool go13 = lo11 < hi12;
for (int v17 = lo11; go13; go13 = (vx_add(v17, (int)1) != hi12), v17 = vx_add(v17, (int)1)) {
v16 = (v16 + vx_ld_init(s_t8, s_t8_init, (((long long)(((int)(1LL)))) * 64LL + (long long)(v15)) * 64LL + (long long)(v17), vx_err));
}
}
const long long vs14 = ((long long)(vx_add(vx_mul(v7, ((int)(64LL))), v15))) * 2LL + vx_ix((long long)(v9), 2LL, vx_err);
t5[vs14] = v16;
}
}
}
__syncthreads();
}
}
}
#undef VX_NT
#undef VX_P2
#undef VX_ZERO_X
#undef VX_ZERO_Y
#undef VX_ZERO_Z
#ifdef VX_HOST_HARNESS
static void vx_region_0_L15_host(void** a) {
  vx_region_0_L15(*(float**)a[0], *(float**)a[1], *(float**)a[2], *(int*)a[3], *(int**)a[4]);
}
#endif
