// expect: race global read-write lines 32,37
// expect: race global read-write lines 33,37
// (independent model: warp-race global read-write line 37 is folded into the race on the same lines)
// launch: grid=4 block=128 scale=float32:1:zeros ready=int32:1:zeros
// Normalise the whole array by the peak magnitude of its first block.  Work-group 0 computes
// the peak and publishes it with a ready flag; instead of spinning, the other work-groups look
// at the flag once and fall back to a scale of 1 when it is not set yet.
// BUG: nothing orders the flag and the scale between work-groups (nor between work-item 0 of
// group 0 and the rest of its own group), so whether a group divides by the peak or by 1
// depends on the schedule.
// Fixed version: flag_within_group_fixed.cl.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void normalise_by_first_block(__global const float *in, __global float *out,
                              __global float *scale, __global volatile int *ready)
{
    __local float peak[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    if (get_group_id(0) == 0) {
        peak[lid] = fabs(in[gid]);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int s = WG / 2; s > 0; s >>= 1) {
            if (lid < s)
                peak[lid] = fmax(peak[lid], peak[lid + s]);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lid == 0) {
            *scale = peak[0];
            *ready = 1;
        }
    }

    const float s = *ready ? *scale : 1.0f;
    out[gid] = in[gid] / s;
}
