// expect: clean
// launch: grid=4 block=128 n=500
// Sum reduction: each work-group reduces its 128 elements in local memory (tree reduction,
// one barrier per level) and writes one partial sum per group.
// Buffers: in holds n floats, partial holds one float per work-group.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduce_sum(__global const float *in, __global float *partial, const int n)
{
    __local float scratch[WG];
    int lid = get_local_id(0);
    int gid = get_global_id(0);

    scratch[lid] = (gid < n) ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int s = WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
