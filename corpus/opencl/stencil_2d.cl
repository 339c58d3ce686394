// expect: clean
// launch: grid=3,4 block=16,8 width=40 height=30
// One Jacobi step of the 5-point Laplace stencil on a width x height grid.  Each 16x8
// work-group stages an 18x10 tile (its points plus a one-point halo) in local memory; the
// boundary of the grid keeps its value.
// Buffers: in and out hold width * height floats (row-major).

#define BX 16
#define BY 8
#define TW (BX + 2)
#define TH (BY + 2)

__kernel __attribute__((reqd_work_group_size(BX, BY, 1)))
void jacobi_2d(__global const float *in, __global float *out, const int width, const int height)
{
    __local float tile[TH][TW];
    int lx = get_local_id(0);
    int ly = get_local_id(1);
    int x = get_global_id(0);
    int y = get_global_id(1);
    int x0 = get_group_id(0) * BX - 1;      /* grid column of tile[.][0] */
    int y0 = get_group_id(1) * BY - 1;      /* grid row of tile[0][.] */

    /* Cooperative load: the 128 work-items cover the 180 tile points in two rounds. */
    for (int t = ly * BX + lx; t < TW * TH; t += BX * BY) {
        int tx = t % TW;
        int ty = t / TW;
        int gx = x0 + tx;
        int gy = y0 + ty;
        tile[ty][tx] = (gx >= 0 && gx < width && gy >= 0 && gy < height)
                           ? in[gy * width + gx] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    if (x < width && y < height) {
        float c = tile[ly + 1][lx + 1];
        float v = c;
        if (x > 0 && x < width - 1 && y > 0 && y < height - 1)
            v = 0.25f * (tile[ly][lx + 1] + tile[ly + 2][lx + 1] +
                         tile[ly + 1][lx] + tile[ly + 1][lx + 2]);
        out[y * width + x] = v;
    }
}
