// expect: clean
// launch: grid=4 block=128
// Mirror-weighted product where the second phase already needs the first: w_tile[i] is
// computed from the mirrored key, so the barrier between the phases orders the k_tile stores
// before the mirrored k_tile reads (different sub-groups).  Both barriers are needed.
// Counterpart of redundant_disjoint_phases.cl.

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
    w_tile[lid] = w[gid] * k_tile[WG - 1 - lid];
    barrier(CLK_LOCAL_MEM_FENCE);

    const int j = (lid + WG / 2) % WG;
    out[gid] = k_tile[lid] * w_tile[j];
}
