// expect: race shared read-write lines 21,22
// launch: grid=4 block=64
// Each block of 64 values is brought into local memory by async_work_group_copy, every value is
// added to its right neighbour (cyclically) and written reversed to a second tile, which
// async_work_group_copy writes back to global memory.
// BUG: the tile is read without waiting for the copy (wait_group_events): a work-item reads its
// neighbour's element while the copy may still be writing it.  (simu attributes element i of a
// copy to work-item i % local size; the race shows where the neighbour belongs to another
// sub-group.)  Fixed version: async_copy_fixed.cl.

#define WG 64

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void neighbour_sum_async(__global const float *in, __global float *out)
{
    __local float tile[WG];
    __local float rev[WG];
    const int lid = get_local_id(0);
    const int base = get_group_id(0) * WG;

    event_t e = async_work_group_copy(tile, in + base, WG, 0);
    rev[WG - 1 - lid] = tile[lid] + tile[(lid + 1) % WG];
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_copy(out + base, rev, WG, 0);
    wait_group_events(1, &e);
}
