// expect: race global read-write lines 16,19
// expect: race global read-write lines 18,19
// (independent model: warp-race global read-write lines 16,19 is folded into the race on the same lines)
// (independent model: warp-race global read-write lines 18,19 is folded into the race on the same lines)
// launch: grid=4 block=64 n=256
// 1-2-1 smoothing of a signal, written in place to save a buffer.
// BUG: x[i - 1] and x[i + 1] are updated by other work-items (other sub-groups and, at block
// edges, other work-groups) while this one reads them, so each output mixes smoothed and raw
// neighbours depending on the schedule.
// Fixed version: smooth_out_of_place.cl.

__kernel void smooth_inplace(__global float *x, const int n)
{
    const int i = get_global_id(0);
    if (i > 0 && i < n - 1) {
        const float left = x[i - 1];
        const float mid = x[i];
        const float right = x[i + 1];
        x[i] = 0.25f * left + 0.5f * mid + 0.25f * right;
    }
}
