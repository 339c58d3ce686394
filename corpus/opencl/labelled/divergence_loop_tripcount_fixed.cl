// expect: clean
// launch: grid=4 block=64 n=100 in=float32:400 out=float32:400
// Each work-group processes one row of n values in chunks of 64: out = value - first value of
// its chunk.
// FIXED version of divergence_loop_tripcount.cl: the loop runs over chunk bases, the same
// number of times for every work-item; only the load and the store are guarded.

#define WG 64

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void subtract_chunk_base(__global const float *in, __global float *out, const int n)
{
    __local float chunk[WG];
    const int lid = get_local_id(0);
    const int row = get_group_id(0);

    for (int base = 0; base < n; base += WG) {
        const int i = base + lid;
        chunk[lid] = i < n ? in[row * n + i] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (i < n)
            out[row * n + i] = chunk[lid] - chunk[0];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
