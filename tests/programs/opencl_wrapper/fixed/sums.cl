// Per work-group sums staged in a __local array of 64 slots, `width` of them used.
// Fixed twin: the host stages its 64 work-items into all 64 slots (width = 64); a local size past 64, or a width
// other than the local size, would race or overflow: only the values the program passes are clean.
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
