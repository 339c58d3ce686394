// expect: clean
// launch: grid=2 block=128
// Maximum of each block of 128 values.
// FIXED version of divergence_barrier_in_if.cl: the condition guards only the update; every
// work-item of the group runs the loop and reaches the barrier the same number of times.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void block_max(__global const float *in, __global float *out)
{
    __local float m[WG];
    const int lid = get_local_id(0);

    m[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int s = WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            m[lid] = fmax(m[lid], m[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (lid == 0)
        out[get_group_id(0)] = m[0];
}
