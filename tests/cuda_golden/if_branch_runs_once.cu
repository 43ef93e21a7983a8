// $ vx emit-cuda conformance/memory/if_branch_runs_once.vx

// conformance/memory/if_branch_runs_once.vx:16:5
#define VX_NT 32
#define VX_P2 32
#define VX_ZERO_X (threadIdx.x == 0)
#define VX_ZERO_Y true
#define VX_ZERO_Z true
VX_KERNEL void __launch_bounds__(32) vx_region_0_L16(int* __restrict__ cnt, int* __restrict__ side, int* __restrict__ out, int* __restrict__ order, int* vx_err) {
  const int vx_tid = (int)(threadIdx.x + 32 * (threadIdx.y + 1 * threadIdx.z));
  const bool vx_leader = vx_tid == 0;
  (void)vx_leader;
#line 17 "conformance/memory/if_branch_runs_once.vx"
  const int b = (int)((unsigned long long)(((int)(0LL))) + (unsigned long long)blockIdx.x);
#line 18 "conformance/memory/if_branch_runs_once.vx"
  if (VX_ZERO_Y && VX_ZERO_Z && true) {
    if (threadIdx.x < 32) {
      const int lo0 = ((int)(0LL));
      if (threadIdx.x < 32u) {
        const int l = (int)(lo0 + (int)threadIdx.x);
#line 19 "conformance/memory/if_branch_runs_once.vx"
        int vi1;
        if ((l == ((int)(0LL)))) {
          vi1 = ((int)(1LL));
        } else {
          int vi2;
          if ((l == ((int)(1LL)))) {
            vi2 = ((int)(2LL));
          } else {
            int va3 = vx_at_add((cnt + vx_ix((long long)(((int)(0LL))), ((1LL)), vx_err)), ((int)(1LL)));
            vi2 = va3;
          }
          vi1 = vi2;
        }
        int v = vi1;
#line 20 "conformance/memory/if_branch_runs_once.vx"
        const long long vs4 = (long long)(l);
        out[vs4] = vx_add(vx_sub(v, v), l);
#line 21 "conformance/memory/if_branch_runs_once.vx"
        if ((l >= ((int)(0LL)))) {
#line 22 "conformance/memory/if_branch_runs_once.vx"
          const long long vs5 = (long long)(l);
          order[vs5] = vx_mul(((int)(2LL)), l);
#line 26 "conformance/memory/if_branch_runs_once.vx"
          {
#line 24 "conformance/memory/if_branch_runs_once.vx"
            int w = order[(long long)(l)];
#line 25 "conformance/memory/if_branch_runs_once.vx"
            int va6 = vx_at_add((side + vx_ix((long long)(((int)(0LL))), ((1LL)), vx_err)), w);
            int _q = va6;
          }
        }
#line 28 "conformance/memory/if_branch_runs_once.vx"
        const long long vs7 = (long long)(l);
        int vb8;
        {
#line 28 "conformance/memory/if_branch_runs_once.vx"
          int w_2 = order[(long long)(l)];
          vb8 = vx_add(w_2, ((int)(1LL)));
        }
        order[vs7] = vb8;
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
