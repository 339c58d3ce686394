// expect: race global read-write lines 23,27
// (independent model: warp-race global read-write lines 23,27 is folded into the race on the same lines)
// expect: redundant-barrier line 24
// launch: grid=4 block=128 gain=1.5
// 1-2-1 smoothing inside each work-group, staged through a global scratch buffer (one slot
// per work-item).
// BUG: the barrier names the wrong address space.  barrier(CLK_LOCAL_MEM_FENCE) orders only
// __local memory, but the neighbours' values are exchanged through __global scratch, so a
// work-item can read a neighbour's slot before the store is visible (across sub-groups on
// any model, within a sub-group under independent scheduling).  The barrier as written orders
// no access that needs it.
// Fixed version: fence_global_for_global.cl.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void smooth_via_scratch(__global const float *in, __global float *scratch, __global float *out,
                        const float gain)
{
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    scratch[gid] = gain * in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    const int l = lid > 0 ? gid - 1 : gid;
    const int r = lid < WG - 1 ? gid + 1 : gid;
    out[gid] = 0.25f * scratch[l] + 0.5f * scratch[gid] + 0.25f * scratch[r];
}
