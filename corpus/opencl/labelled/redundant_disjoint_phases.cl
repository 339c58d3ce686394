// expect: redundant-barrier line 21
// launch: grid=4 block=128
// Mirror-weighted product: out[i] = key[j] * w[j]^2 with j the mirrored position in the block.
// Two local tiles are filled in two phases.
// REDUNDANT: the barrier between the two load phases orders nothing; the second phase touches
// only w_tile, which the first never accesses.  The second barrier (before the mirrored reads)
// orders both tiles and is needed.
// Needed counterpart: needed_barrier_between_phases.cl.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void mirror_weighted(__global const float *keys, __global const float *w, __global float *out)
{
    __local float k_tile[WG];
    __local float w_tile[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    k_tile[lid] = keys[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    w_tile[lid] = w[gid] * w[gid];
    barrier(CLK_LOCAL_MEM_FENCE);

    const int j = WG - 1 - lid;
    out[gid] = k_tile[j] * w_tile[j];
}
