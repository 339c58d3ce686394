// expect: race shared read-write lines 20,21
// launch: grid=8 block=32
// A work-group of exactly one warp (32 work-items) stages its slice of the input in local memory
// with async_work_group_copy and smooths it with the neighbours on both sides.
// BUG: the tile is read before wait_group_events: the copy runs beside the work-items, so even
// inside one warp that executes in lockstep nothing orders the copy's writes before the reads.
// Fixed version: async_copy_one_warp_fixed.cl.

#define WG 32

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void smooth_async(__global const float *in, __global float *out)
{
    __local float tile[WG];
    const int lid = get_local_id(0);
    const int base = get_group_id(0) * WG;
    const int left = lid == 0 ? 0 : lid - 1;
    const int right = lid == WG - 1 ? WG - 1 : lid + 1;

    event_t e = async_work_group_copy(tile, in + base, WG, 0);
    out[base + lid] = (tile[left] + tile[lid] + tile[right]) / 3.0f;
    wait_group_events(1, &e);
}
