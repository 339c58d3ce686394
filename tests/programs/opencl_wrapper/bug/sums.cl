// Per work-group sums staged in a __local array of 64 slots, `width` of them used.
// Bug: the host stages 64 work-items into 32 slots (width = 32), so work-items t and t + 32 write one slot.
__kernel void partial_sums(__global const float *in, __global float *out, int count, int width) {
    __local float stage[64];
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    stage[lid % width] = gid < count ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        float s = 0.0f;
        for (int i = 0; i < width; i++)
            s += stage[i];
        out[get_group_id(0)] = s;
    }
}
