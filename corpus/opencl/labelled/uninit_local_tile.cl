// expect: uninitialized shared line 26
// expect(lockstep): redundant-barrier line 23
// launch: grid=4 block=64 n=253
// Pairwise maximum: out[i] = max(in[i], in[i ^ 1]) through a local tile.
// BUG: only in-range work-items fill their tile slot.  With an odd n the last in-range
// work-item (gid 252, local slot 60) reads its partner's slot 61, which nobody wrote.
// Fixed version: uninit_local_tile_fixed.cl.
// The partner slot lid ^ 1 is always in the same sub-group of 32, so under the lockstep
// model the barrier only orders intra-sub-group accesses (a sub-group barrier would do):
// reported as redundant there, needed under independent scheduling.

#define WG 64

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void pair_max(__global const float *in, __global float *out, const int n)
{
    __local float tile[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    if (gid < n)
        tile[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);

    if (gid < n)
        out[gid] = fmax(tile[lid], tile[lid ^ 1]);
}
