// expect: clean
// launch: grid=4 block=128 threshold=50
// For every work-group, the global index of the first value above a threshold (-1 if none).
// FIXED version of first_match_last_writer.cl: the matches are combined with atomic_min, so
// the smallest index wins whatever the schedule.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void first_above(__global const int *values, const int threshold, __global int *first)
{
    __local int found;
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    if (lid == 0)
        found = INT_MAX;
    barrier(CLK_LOCAL_MEM_FENCE);

    if (values[gid] > threshold)
        atomic_min(&found, gid);
    barrier(CLK_LOCAL_MEM_FENCE);

    if (lid == 0)
        first[get_group_id(0)] = found == INT_MAX ? -1 : found;
}
