// expect: clean
// launch: grid=4 block=128
// Reverse every block of 128 values through a local tile, with a helper that loads the tile
// and synchronises.
// Counterpart of redundant_double_barrier.cl: the caller relies on the helper's barrier.

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
    out[base + lid] = tile[WG - 1 - lid];
}
