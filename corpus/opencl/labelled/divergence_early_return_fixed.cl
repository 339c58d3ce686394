// expect: clean
// launch: grid=4 block=64 n=200
// Delta encoding of each block: out[i] = in[i] - in[i - 1] within the block (the first element
// of a block is kept as is).
// FIXED version of divergence_early_return.cl: out-of-range work-items stay until the barrier
// (they load a dummy value) and only skip the store.

#define WG 64

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void delta_encode(__global const int *in, __global int *out, const int n)
{
    __local int tile[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    tile[lid] = gid < n ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (gid < n)
        out[gid] = lid > 0 ? tile[lid] - tile[lid - 1] : tile[lid];
}
