// expect: clean
// launch: grid=4 block=128 gain=1.5
// 1-2-1 smoothing inside each work-group, staged through a global scratch buffer (one slot
// per work-item).
// FIXED version of fence_local_for_global.cl: barrier(CLK_GLOBAL_MEM_FENCE) orders the
// __global scratch between the work-items of a group.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void smooth_via_scratch(__global const float *in, __global float *scratch, __global float *out,
                        const float gain)
{
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    scratch[gid] = gain * in[gid];
    barrier(CLK_GLOBAL_MEM_FENCE);
    const int l = lid > 0 ? gid - 1 : gid;
    const int r = lid < WG - 1 ? gid + 1 : gid;
    out[gid] = 0.25f * scratch[l] + 0.5f * scratch[gid] + 0.25f * scratch[r];
}
