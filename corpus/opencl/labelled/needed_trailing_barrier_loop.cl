// expect: clean
// launch: grid=4 block=128 n=512 in=float32:2048 out=float32:2048
// Pairwise average with the next element of the chunk, for one row of n values per
// work-group, processed in chunks of 128.
// The barrier at the end of the loop body is needed: the next chunk overwrites the tile while
// other sub-groups may still read the current one (work-item 127 reads tile[0]).
// Counterpart of redundant_trailing_barrier.cl.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void pair_average_rows(__global const float *in, __global float *out, const int n)
{
    __local float tile[WG];
    const int lid = get_local_id(0);
    __global const float *row_in = in + get_group_id(0) * n;
    __global float *row_out = out + get_group_id(0) * n;

    for (int base = 0; base < n; base += WG) {
        const int i = base + lid;
        tile[lid] = i < n ? row_in[i] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (i < n)
            row_out[i] = 0.5f * (tile[lid] + tile[(lid + 1) % WG]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
