// expect: redundant-barrier line 20
// launch: grid=4 block=128
// Pairwise average with the next element of the block (wrapping inside the block).
// REDUNDANT: the second barrier comes after the last access to local memory; nothing after it
// touches the tile, so it orders nothing (a leftover from a version that looped over chunks).
// Needed counterpart: needed_trailing_barrier_loop.cl.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void pair_average(__global const float *in, __global float *out)
{
    __local float tile[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    tile[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    const float v = 0.5f * (tile[lid] + tile[(lid + 1) % WG]);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gid] = v;
}
