// expect: race shared read-write line 46
// expect: race shared read-write line 47
// expect: race shared read-write line 48
// expect: race shared read-write line 49
// expect: race shared read-write line 50
// expect: race shared read-write line 51
// expect: race shared read-write line 52
// (independent model: warp-race shared read-write line 46 is folded into the race on the same lines)
// (independent model: warp-race shared read-write line 47 is folded into the race on the same lines)
// (independent model: warp-race shared read-write line 48 is folded into the race on the same lines)
// (independent model: warp-race shared read-write line 49 is folded into the race on the same lines)
// (independent model: warp-race shared read-write line 50 is folded into the race on the same lines)
// (independent model: warp-race shared read-write line 51 is folded into the race on the same lines)
// (independent model: warp-race shared read-write line 52 is folded into the race on the same lines)
// launch: grid=4 block=256 n=1000
// Work-group sum with a warp-synchronous tail written for 64-wide wavefronts: barriers down to
// 128 partial sums, then work-items 0..63 finish without barriers.
// BUG: with sub-groups of 32 work-items (NVIDIA, most Intel configurations, simu's model)
// work-items 0..63 are two sub-groups that do not run in lockstep with each other.  In the
// steps after the first, work-items 0..31 read slots of v[32..63], which the second sub-group
// stores in every step of the tail, so the sum depends on how far that sub-group has got (a
// race on every line of the tail).  Under independent
// scheduling every step also races inside each sub-group.
// Fixed version for sub-groups of 32: warp_reduce_volatile.cl.

#define WG 256

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void block_sum_wave64(__global const int *in, __global int *partial, const int n)
{
    __local int scratch[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    scratch[lid] = gid < n ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int s = WG / 2; s > 64; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (lid < 64) {
        volatile __local int *v = scratch;
        v[lid] += v[lid + 64];
        v[lid] += v[lid + 32];
        v[lid] += v[lid + 16];
        v[lid] += v[lid + 8];
        v[lid] += v[lid + 4];
        v[lid] += v[lid + 2];
        v[lid] += v[lid + 1];
    }

    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
