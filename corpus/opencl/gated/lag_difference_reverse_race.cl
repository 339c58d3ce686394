// expect: race shared read-write lines 34,35
// launch: grid=2 block=256 n=512 shift=-3 x=float32:512 out=float32:512
// Lagged differences inside each work-group of 256 values.  shift >= 0: backward difference
// out[i] = x[i] - x[i - shift]; shift < 0: forward difference out[i] = x[i] - x[i + |shift|];
// 0 where the partner falls outside the group, and everywhere for a lag of 0 (mod 256).
// The forward direction reuses the backward code on the reversed tile and stores the result
// at the mirrored position.
// BUG (gated on shift < 0): the in-place reversal reads t[WG - 1 - lid] and stores into t[lid]
// with no barrier between the read and the write.  Work-item 255 - lid stores into the slot
// work-item lid is reading (e.g. lid 0 reads t[255] while lid 255 overwrites it, in another
// sub-group): read-write race.  Non-negative shifts never reverse the tile.
// (lag_difference_reverse_fixed.cl adds the barrier.)

#define WG 256

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void lag_diff(__global const float *x, __global float *out, const int n, const int shift)
{
    __local float t[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);
    const int lag = (int)(abs(shift) % WG);
    const int group_base = get_group_id(0) * WG;
    if (lag == 0) {  // same value minus itself: nothing to exchange
        if (gid < n)
            out[gid] = 0.0f;
        return;
    }
    t[lid] = gid < n ? x[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    int pos = lid;
    if (shift < 0) {
        // forward difference = backward difference on the reversed tile
        const float mine = t[WG - 1 - lid];
        t[lid] = mine;
        barrier(CLK_LOCAL_MEM_FENCE);
        pos = WG - 1 - lid;
    }
    const float d = lid >= lag ? t[lid] - t[lid - lag] : 0.0f;
    if (group_base + pos < n)
        out[group_base + pos] = d;
}
