// expect: barrier-divergence line 37
// expect: race shared read-write lines 36,41
// launch: grid=2 block=256 n=512 radius=6 in=float32:512 out=float32:512
// Box filter of radius 1..MAXR (= 7) over a local tile; a radius outside that range makes the
// whole kernel return at once (uniformly).  Ends of the array are clamped.  Every launch
// preloads PRELOAD (= 4) halo cells per side, which covers radius 1..4.
// BUG (gated on radius 5..7): the wide-radius path loads the remaining radius - 4 halo cells
// per side with work-items lid < radius - PRELOAD and put the barrier for that load inside the
// same `if`.  The other work-items never reach it: barrier divergence (undefined behaviour).
// As a consequence the work-items that skipped it read the outer halo cells (e.g. lid 255
// reads tile[267]) unordered with their loads by lid 0..2: a read-write race.
// Radius 1..4 and out-of-range radii never take that branch.

#define WG 256
#define MAXR 7
#define PRELOAD 4

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void box_filter(__global const float *in, __global float *out, const int n, const int radius)
{
    __local float tile[WG + 2 * MAXR];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);
    const int base = get_group_id(0) * WG;
    if (radius < 1 || radius > MAXR || n <= 0)
        return;

    tile[MAXR + lid] = in[min(gid, n - 1)];
    if (lid < PRELOAD) {
        tile[MAXR - PRELOAD + lid] = in[clamp(base - PRELOAD + lid, 0, n - 1)];
        tile[MAXR + WG + lid] = in[min(base + WG + lid, n - 1)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (radius > PRELOAD && lid < radius - PRELOAD) {
        tile[MAXR - radius + lid] = in[clamp(base - radius + lid, 0, n - 1)];
        tile[MAXR + WG + PRELOAD + lid] = in[min(base + WG + PRELOAD + lid, n - 1)];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float acc = 0.0f;
    for (int j = -radius; j <= radius; ++j)
        acc += tile[MAXR + lid + j];
    if (gid < n)
        out[gid] = acc / (2 * radius + 1);
}
