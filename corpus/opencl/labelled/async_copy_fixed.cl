// expect: clean
// launch: grid=4 block=64
// Each block of 64 values is brought into local memory by async_work_group_copy, every value is
// added to its right neighbour (cyclically) and written reversed to a second tile, which
// async_work_group_copy writes back to global memory.
// FIXED version of async_copy_missing_wait.cl: wait_group_events completes the copy for the whole
// work-group before the tile is read (no barrier is needed after it), a barrier orders the writes
// of `rev` before the copy that reads them, and the last wait completes the copy out.

#define WG 64

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void neighbour_sum_async(__global const float *in, __global float *out)
{
    __local float tile[WG];
    __local float rev[WG];
    const int lid = get_local_id(0);
    const int base = get_group_id(0) * WG;

    event_t e = async_work_group_copy(tile, in + base, WG, 0);
    wait_group_events(1, &e);
    rev[WG - 1 - lid] = tile[lid] + tile[(lid + 1) % WG];
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_copy(out + base, rev, WG, 0);
    wait_group_events(1, &e);
}
