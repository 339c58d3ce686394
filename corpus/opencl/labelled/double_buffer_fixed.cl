// expect: clean
// launch: grid=2 block=128 iters=4
// Repeated 1-2-1 smoothing of a block in local memory with two ping-pong buffers.
// FIXED version of double_buffer_missing_barrier.cl: one barrier per sweep, after writing the
// destination buffer and before it becomes the source (with two buffers one barrier suffices:
// a buffer is rewritten only two sweeps after it was read).

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void smooth_iterate(__global const float *in, __global float *out, const int iters)
{
    __local float buf[2][WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);
    const int left = lid > 0 ? lid - 1 : lid;
    const int right = lid < WG - 1 ? lid + 1 : lid;

    buf[0][lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);

    int src = 0;
    for (int it = 0; it < iters; ++it) {
        const float l = buf[src][left];
        const float c = buf[src][lid];
        const float r = buf[src][right];
        buf[1 - src][lid] = 0.25f * l + 0.5f * c + 0.25f * r;
        barrier(CLK_LOCAL_MEM_FENCE);
        src = 1 - src;
    }

    out[gid] = buf[src][lid];
}
