// expect: barrier-divergence line 24
// launch: grid=2 block=128
// Maximum of each block of 128 values.  Only the first half of the work-group takes part in
// the tree, so the tree (and its barrier) was put inside if (lid < WG / 2).
// BUG: the barrier sits in a branch that work-items 64..127 never enter; they run to the end
// of the kernel while the others wait.  Undefined behaviour (hangs or corrupts on real devices).
// Fixed version: divergence_barrier_in_if_fixed.cl.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void block_max(__global const float *in, __global float *out)
{
    __local float m[WG];
    const int lid = get_local_id(0);

    m[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);

    if (lid < WG / 2) {
        for (int s = WG / 2; s > 0; s >>= 1) {
            if (lid < s)
                m[lid] = fmax(m[lid], m[lid + s]);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }

    if (lid == 0)
        out[get_group_id(0)] = m[0];
}
