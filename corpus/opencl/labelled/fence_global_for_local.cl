// expect: race shared read-write lines 20,22
// expect: redundant-barrier line 21
// launch: grid=4 block=128
// Reverse every block of 128 elements through a local tile.
// BUG: the barrier names the wrong address space.  barrier(CLK_GLOBAL_MEM_FENCE) orders only
// __global memory, but the data exchanged here is in the __local tile, so the reads of the
// mirrored slot are not ordered after the stores.  The barrier as written orders no access
// that needs it (it is redundant as it stands).
// Fixed version: fence_local_for_local.cl.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reverse_blocks(__global const float *in, __global float *out)
{
    __local float tile[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    tile[lid] = in[gid];
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[gid] = tile[WG - 1 - lid];
}
