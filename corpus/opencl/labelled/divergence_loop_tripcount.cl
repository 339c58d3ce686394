// expect: barrier-divergence line 23
// expect: barrier-divergence line 25
// launch: grid=4 block=64 n=100 in=float32:400 out=float32:400
// Each work-group processes one row of n values in chunks of 64: out = value - first value of
// its chunk.
// BUG: the chunk loop is strided by the work-item (for i = lid; i < n; i += WG), so its trip
// count depends on the work-item when n is not a multiple of 64: work-items 0..35 run two
// iterations, 36..63 only one, and in the second iteration both barriers are reached by part
// of the group only.
// Fixed version: divergence_loop_tripcount_fixed.cl.

#define WG 64

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void subtract_chunk_base(__global const float *in, __global float *out, const int n)
{
    __local float chunk[WG];
    const int lid = get_local_id(0);
    const int row = get_group_id(0);

    for (int i = lid; i < n; i += WG) {
        chunk[lid] = in[row * n + i];
        barrier(CLK_LOCAL_MEM_FENCE);
        out[row * n + i] = chunk[lid] - chunk[0];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
