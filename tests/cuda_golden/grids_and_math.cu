// $ vx emit-cuda tests/cuda_host/programs/grids_and_math.vx

// tests/cuda_host/programs/grids_and_math.vx:10:5
#define VX_NT 128
#define VX_P2 128
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(128) vx_region_0_L10(long long v0, long long v1, int v2, long long* __restrict__ t3, int* vx_err) {
const int vx_tid = (int)(threadIdx.x + 128 * (threadIdx.y + 1 * threadIdx.z));
const bool vx_leader = vx_tid == 0;
(void)vx_leader;
const long long v4 = (long long)((unsigned long long)(v0) + (unsigned long long)blockIdx.y);
const int v5 = (int)((unsigned long long)(((int)(1LL))) + (unsigned long long)blockIdx.x);
if (VX_ZERO_Y && VX_ZERO_Z && true) {
if (threadIdx.x < 128) {
const int lo0 = ((int)(0LL));
#pragma unroll
for (int k1 = 0; k1 < 3; ++k1) {
const int p6 = (int)threadIdx.x + k1 * 128;
if (p6 < 300) {
const int v6 = (int)((unsigned long long)lo0 + (unsigned long long)p6);
long long v7 = ((long long)(v6));
long long v8 = vx_mul(vx_add(vx_add(vx_mul(v4, ((long long)(1000003LL))), vx_mul(((long long)(v5)), ((long long)(7919LL)))), v7), ((long long)(2654435761LL)));
long long v9 = ((long long)(vx_shr(v8, (unsigned long long)(long long)(((int)(7LL))), vx_err) ^ vx_shl(v8, (unsigned long long)(long long)(((int)(3LL))), vx_err)));
long long vi2;
if ((v6 == ((int)(150LL)))) {
vi2 = ((long long)(1LL));
} else {
vi2 = ((long long)(0LL));
}
long long v10 = vx_div(v9, vx_add(vx_sub(v7, ((long long)(150LL))), vi2), vx_err);
long long v11 = vx_rem(v9, vx_sub(((long long)(v5)), ((long long)(7LL))), vx_err);
long long v12 = ((long long)(vx_shr(((unsigned int)(v8)), (unsigned long long)(vx_rem(((unsigned int)(v6)), ((unsigned int)32ull), vx_err)), vx_err)));
short v13 = vx_sat_i16((double)((((double)(v8)) * (0x1.0c6f7a0b5ed8dp-20))));
const long long vs3 = ((vx_ix((long long)(vx_sub(v4, v0)), 6LL, vx_err)) * 5LL + vx_ix((long long)(vx_sub(v5, ((int)(1LL)))), 5LL, vx_err)) * 300LL + (long long)(v6);
t3[vs3] = vx_add(vx_add(vx_add(vx_add(v10, v11), v12), ((long long)(v13))), ((long long)(((signed char)(v8)))));
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
static void vx_region_0_L10_host(void** a) {
  vx_region_0_L10(*(long long*)a[0], *(long long*)a[1], *(int*)a[2], *(long long**)a[3], *(int**)a[4]);
}
#endif

// tests/cuda_host/programs/grids_and_math.vx:28:5
#define VX_NT 384
#define VX_P2 256
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y (threadIdx.y == 0)
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(384) vx_region_1_L28(float* __restrict__ t14, double* __restrict__ t15, int* vx_err) {
const int vx_tid = (int)(threadIdx.x + 24 * (threadIdx.y + 16 * threadIdx.z));
const bool vx_leader = vx_tid == 0;
(void)vx_leader;
const int v16 = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
if (VX_ZERO_Z && true) {
if (threadIdx.y < 16) {
const int lo0 = ((int)(0LL));
if (threadIdx.y < 16u) {
const int v17 = (int)(lo0 + (int)threadIdx.y);
if (threadIdx.x < 24) {
const int lo1 = ((int)(0LL));
if (threadIdx.x < 24u) {
const int v18 = (int)(lo1 + (int)threadIdx.x);
float v19 = ((((float)(vx_add(vx_add(vx_mul(v16, ((int)(384LL))), vx_mul(v17, ((int)(24LL)))), v18))) * (0x1.c0ebeep-7f)) - (0x1.4p+1f));
double v20 = (((double)(v19)) * (0x1.a666666666666p+1));
const long long vs2 = (((long long)(v16)) * 16LL + (long long)(v17)) * 24LL + (long long)(v18);
t14[vs2] = (((((((vx_sin_f32(v19) + (vx_cos_f32(v19) * vx_exp_f32(v19))) - vx_tanh_f32(v19)) + vx_log_f32(((v19 * v19) + (0x1p+0f)))) + vx_sqrt_f32((v19 * v19))) + vx_pow_f32(vx_abs(v19), (0x1.b33334p+0f))) + vx_exp2_f32(v19)) + vx_log2_f32((vx_abs(v19) + (0x1p-1f))));
const long long vs3 = (((long long)(v16)) * 16LL + (long long)(v17)) * 24LL + (long long)(v18);
t15[vs3] = ((((((vx_sin_f64(v20) + (vx_cos_f64(v20) * vx_exp_f64(v20))) - vx_tanh_f64(v20)) + vx_log_f64(((v20 * v20) + (0x1p+0)))) + vx_sqrt_f64((v20 * v20))) + vx_pow_f64(vx_abs(v20), (0x1.3333333333333p-2))) + vx_log2_f64((vx_abs(v20) + (0x1.999999999999ap-4))));
}
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
static void vx_region_1_L28_host(void** a) {
  vx_region_1_L28(*(float**)a[0], *(double**)a[1], *(int**)a[2]);
}
#endif

// tests/cuda_host/programs/grids_and_math.vx:45:5
#define VX_NT 64
#define VX_P2 64
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(64) vx_region_2_L45(int* __restrict__ t21, unsigned long long* __restrict__ t22, float* __restrict__ t23, int* vx_err) {
const int vx_tid = (int)(threadIdx.x + 64 * (threadIdx.y + 1 * threadIdx.z));
const bool vx_leader = vx_tid == 0;
(void)vx_leader;
const int v24 = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
if (VX_ZERO_Y && VX_ZERO_Z && true) {
if (threadIdx.x < 64) {
const int lo0 = ((int)(0LL));
#pragma unroll
for (int k1 = 0; k1 < 4; ++k1) {
const int p13 = (int)threadIdx.x + k1 * 64;
if (p13 < 200) {
const int v25 = (int)((unsigned long long)lo0 + (unsigned long long)p13);
int v26 = vx_add(vx_mul(v24, ((int)(200LL))), v25);
int va2 = vx_at_add((t21 + vx_ix((long long)(((int)(0LL))), ((4LL)), vx_err)), v26);
int v27 = va2;
int va3 = vx_at_max((t21 + vx_ix((long long)(((int)(1LL))), ((4LL)), vx_err)), vx_rem(vx_mul(v26, ((int)(7LL))), ((int)(1001LL)), vx_err));
int v28 = va3;
int va4 = vx_at_min((t21 + vx_ix((long long)(((int)(2LL))), ((4LL)), vx_err)), vx_sub(((int)(500LL)), v26));
int v29 = va4;
int va5 = vx_at_sub((t21 + vx_ix((long long)(((int)(3LL))), ((4LL)), vx_err)), v26);
int v30 = va5;
unsigned long long va6 = vx_at_add((t22 + vx_ix((long long)(((int)(0LL))), ((3LL)), vx_err)), vx_shl(((unsigned long long)(v26)), (unsigned long long)(long long)(((int)(33LL))), vx_err));
unsigned long long v31 = va6;
unsigned long long va7 = vx_at_max((t22 + vx_ix((long long)(((int)(1LL))), ((3LL)), vx_err)), vx_mul(((unsigned long long)(v26)), ((unsigned long long)12345ull)));
unsigned long long v32 = va7;
unsigned long long va8 = vx_at_sub((t22 + vx_ix((long long)(((int)(2LL))), ((3LL)), vx_err)), ((unsigned long long)3ull));
unsigned long long v33 = va8;
float va9 = vx_at_max((t23 + vx_ix((long long)(((int)(0LL))), ((2LL)), vx_err)), (((float)(v26)) * (0x1p-1f)));
float v34 = va9;
float va10 = vx_at_min((t23 + vx_ix((long long)(((int)(1LL))), ((2LL)), vx_err)), (-((float)(v26))));
float v35 = va10;
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
static void vx_region_2_L45_host(void** a) {
  vx_region_2_L45(*(int**)a[0], *(unsigned long long**)a[1], *(float**)a[2], *(int**)a[3]);
}
#endif
