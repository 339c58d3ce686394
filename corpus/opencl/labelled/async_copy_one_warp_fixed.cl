// expect: clean
// launch: grid=8 block=32
// The fixed version of async_copy_one_warp_missing_wait.cl: the work-group waits for its copy
// (wait_group_events) before any work-item reads the tile.

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
    wait_group_events(1, &e);
    out[base + lid] = (tile[left] + tile[lid] + tile[right]) / 3.0f;
}
