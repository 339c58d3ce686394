// expect: clean
// launch: grid=4 block=128
// Normalise every block by its own peak magnitude.  Work-item 0 of each work-group turns the
// reduced peak into a scale and publishes it to the rest of its group in local memory.
// FIXED version of flag_across_groups.cl: the hand-off stays inside one work-group, where a
// barrier orders it; no work-group depends on another.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void normalise_by_block_peak(__global const float *in, __global float *out)
{
    __local float peak[WG];
    __local float scale;
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    peak[lid] = fabs(in[gid]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            peak[lid] = fmax(peak[lid], peak[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        scale = peak[0] > 0.0f ? peak[0] : 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);

    out[gid] = in[gid] / scale;
}
