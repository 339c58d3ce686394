// expect: clean
// launch: grid=4,3 block=16,16 width=60 height=45
// Matrix transpose through a 16x16 local tile.  The tile has one column of padding so that
// the column-wise reads after the barrier do not all fall into the same local memory bank.
// Buffers: in is height x width floats (row-major), out is width x height floats.

#define TILE 16

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void transpose(__global const float *in, __global float *out, const int width, const int height)
{
    __local float tile[TILE][TILE + 1];
    int lx = get_local_id(0);
    int ly = get_local_id(1);

    int x = get_group_id(0) * TILE + lx;    /* column of in */
    int y = get_group_id(1) * TILE + ly;    /* row of in */
    if (x < width && y < height)
        tile[ly][lx] = in[y * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);

    x = get_group_id(1) * TILE + lx;        /* column of out = row of in */
    y = get_group_id(0) * TILE + ly;        /* row of out = column of in */
    if (x < height && y < width)
        out[y * height + x] = tile[lx][ly];
}
