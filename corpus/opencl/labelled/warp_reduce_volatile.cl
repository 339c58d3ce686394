// expect(independent): warp-race shared read-write line 36
// expect(independent): warp-race shared read-write line 37
// expect(independent): warp-race shared read-write line 38
// expect(independent): warp-race shared read-write line 39
// expect(independent): warp-race shared read-write line 40
// expect(independent): warp-race shared read-write line 41
// launch: grid=4 block=256 n=1000
// Work-group sum with the classic warp-synchronous tail: barriers down to 64 partial sums,
// then the first sub-group of 32 finishes through a volatile pointer without barriers.
// Correct where a sub-group of 32 executes in lockstep (the lockstep model: clean in -O0 and
// -O1, volatile keeps every access).  Under independent scheduling of the work-items of a
// sub-group, each step reads slots that other work-items of the same sub-group update in the
// previous or the same step: warp-synchronous races on every line of the tail.
// See warp_reduce_subgroup.cl for a version that needs no lockstep assumption.

#define WG 256

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void block_sum_warpsync(__global const int *in, __global int *partial, const int n)
{
    __local int scratch[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    scratch[lid] = gid < n ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int s = WG / 2; s > 32; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (lid < 32) {
        volatile __local int *v = scratch;
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
