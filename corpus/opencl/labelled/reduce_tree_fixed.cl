// expect: clean
// launch: grid=4 block=128 n=500
// Work-group sum reduction in local memory (first pass of a two-pass reduction).
// FIXED version of reduce_missing_barrier.cl: one barrier after every level of the tree, so
// each level reads only values completed by the previous one.  Integer data keeps the result
// independent of the order of the additions.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void block_sum(__global const int *in, __global int *partial, const int n)
{
    __local int scratch[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    scratch[lid] = gid < n ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int s = WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
