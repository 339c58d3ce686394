// expect: race shared write-write line 23
// launch: grid=4 block=128 threshold=50
// For every work-group, the global index of the first value above a threshold (-1 if none).
// BUG: every matching work-item stores its own index into the one local slot; which store
// lands last (and so which index is reported) depends on the schedule, and it is usually not
// the first match.
// Fixed version: first_match_atomic_min.cl.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void first_above(__global const int *values, const int threshold, __global int *first)
{
    __local int found;
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    if (lid == 0)
        found = -1;
    barrier(CLK_LOCAL_MEM_FENCE);

    if (values[gid] > threshold)
        found = gid;
    barrier(CLK_LOCAL_MEM_FENCE);

    if (lid == 0)
        first[get_group_id(0)] = found;
}
