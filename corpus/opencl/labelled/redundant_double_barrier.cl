// expect: redundant-barrier line 14
// launch: grid=4 block=128
// Reverse every block of 128 values through a local tile, with a helper that loads the tile.
// REDUNDANT: load_tile() already ends with a barrier, and the caller adds another one right
// after it.  Either of the two could go (not both).  simu's rule: the last barrier before the
// later access is the needed one, so the helper's barrier (line 14) is reported redundant.
// Counterpart: single_barrier_helper.cl.

#define WG 128

static void load_tile(__local float *tile, __global const float *src, const int lid)
{
    tile[lid] = src[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reverse_blocks(__global const float *in, __global float *out)
{
    __local float tile[WG];
    const int lid = get_local_id(0);
    const int base = get_group_id(0) * WG;

    load_tile(tile, in + base, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[base + lid] = tile[WG - 1 - lid];
}
