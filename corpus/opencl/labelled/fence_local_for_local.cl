// expect: clean
// launch: grid=4 block=128
// Reverse every block of 128 elements through a local tile.
// FIXED version of fence_global_for_local.cl: barrier(CLK_LOCAL_MEM_FENCE) orders the __local
// tile.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reverse_blocks(__global const float *in, __global float *out)
{
    __local float tile[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    tile[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gid] = tile[WG - 1 - lid];
}
