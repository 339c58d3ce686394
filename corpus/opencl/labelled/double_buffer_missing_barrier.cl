// expect: race shared read-write lines 29,32
// expect: race shared read-write lines 31,32
// (independent model: warp-race shared read-write lines 29,32 is folded into the race on the same lines)
// (independent model: warp-race shared read-write lines 31,32 is folded into the race on the same lines)
// launch: grid=2 block=128 iters=4
// Repeated 1-2-1 smoothing of a block in local memory with two ping-pong buffers.
// BUG: the buffers are swapped without a barrier.  The next sweep reads the neighbours' new
// values before they are all written (read-after-write), and overwrites the buffer the
// neighbours are still reading (write-after-read); at sub-group boundaries the result depends
// on the schedule.
// Fixed version: double_buffer_fixed.cl.

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
        src = 1 - src;
    }

    out[gid] = buf[src][lid];
}
