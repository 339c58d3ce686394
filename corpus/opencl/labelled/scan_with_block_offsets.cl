// expect: clean
// launch: grid=4 block=64
// Second pass of a multi-block inclusive prefix sum: every work-group scans its block in local
// memory and adds the offset of its block, computed by an earlier pass (exclusive scan of the
// block totals).
// FIXED version of chained_scan_across_groups.cl: the carries come from a previous kernel
// launch, so no work-group reads what another work-group of the same launch writes.

#define WG 64

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan_add_offsets(__global const int *in, __global int *out, __global const int *block_offset)
{
    __local int buf[WG];
    const int lid = get_local_id(0);
    const int g = get_group_id(0);
    const int gid = get_global_id(0);

    buf[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int offset = 1; offset < WG; offset <<= 1) {
        const int add = lid >= offset ? buf[lid - offset] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        buf[lid] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    out[gid] = buf[lid] + block_offset[g];
}
