// expect: clean
// launch: grid=4 block=64 rows=int32:256:ramp
// Gather-and-normalise: each work-group writes gathered values to a global staging buffer and
// their sum to local memory, then every work-item reads a mirrored slot of the staging buffer
// and the group total.  Both address spaces are exchanged across the barrier, so it names both
// fences: barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE).

#define WG 64

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void gather_normalise(__global const int *rows, __global const int *values, __global int *stage,
                      __global int *out)
{
    __local int total;
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);
    const int base = get_group_id(0) * WG;

    if (lid == 0)
        total = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    const int v = values[rows[gid] % get_global_size(0)];
    stage[gid] = v;
    atomic_add(&total, v);
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);

    out[gid] = stage[base + WG - 1 - lid] - total / WG;
}
