// expect: clean
// launch: grid=4 block=128 n=500
// 7-point 1-D stencil.  Each work-group stages its 128 elements plus a halo of 3 on each side
// in local memory (zero outside [0, n)), then every work-item combines 7 neighbours with the
// weights held in constant memory.
// Buffers: in and out hold n floats.

#define RADIUS 3
#define WG 128

__constant float weights[2 * RADIUS + 1] = {
    0.05f, 0.1f, 0.15f, 0.4f, 0.15f, 0.1f, 0.05f
};

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void stencil_1d(__global const float *in, __global float *out, const int n)
{
    __local float tile[WG + 2 * RADIUS];
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    int base = get_group_id(0) * WG - RADIUS;   /* global index of tile[0] */

    for (int j = lid; j < WG + 2 * RADIUS; j += WG) {
        int g = base + j;
        tile[j] = (g >= 0 && g < n) ? in[g] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    if (gid < n) {
        float sum = 0.0f;
        for (int o = 0; o <= 2 * RADIUS; ++o)
            sum += weights[o] * tile[lid + o];
        out[gid] = sum;
    }
}
