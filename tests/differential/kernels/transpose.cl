// out (width x height) = transpose of in (height x width), row-major.
// Dimension 0 runs along a row of the input (x), dimension 1 down its columns (y).

__kernel void transpose_naive_f32(__global const float* in, __global float* out,
                                  const int width, const int height)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x < width && y < height)
        out[x * height + y] = in[y * width + x];
}

#define TT 16

// Through a 16 x 16 local tile without padding (local size 16 x 16).
__kernel void transpose_tiled_f32(__global const float* in, __global float* out,
                                  const int width, const int height)
{
    __local float tile[TT][TT];
    const int tx = get_local_id(0), ty = get_local_id(1);
    int x = get_group_id(0) * TT + tx;
    int y = get_group_id(1) * TT + ty;
    if (x < width && y < height)
        tile[ty][tx] = in[y * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    x = get_group_id(1) * TT + tx;   // column of out = row of in
    y = get_group_id(0) * TT + ty;   // row of out = column of in
    if (x < height && y < width)
        out[y * height + x] = tile[tx][ty];
}

// Same with one column of padding (no bank conflicts on a GPU).
__kernel void transpose_tiled_padded_f32(__global const float* in, __global float* out,
                                         const int width, const int height)
{
    __local float tile[TT][TT + 1];
    const int tx = get_local_id(0), ty = get_local_id(1);
    int x = get_group_id(0) * TT + tx;
    int y = get_group_id(1) * TT + ty;
    if (x < width && y < height)
        tile[ty][tx] = in[y * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    x = get_group_id(1) * TT + tx;
    y = get_group_id(0) * TT + ty;
    if (x < height && y < width)
        out[y * height + x] = tile[tx][ty];
}

#define TDIM 32
#define BROWS 8

// 32 x 32 tile with a 32 x 8 local size: each item moves four rows.
__kernel void transpose_rect_f32(__global const float* in, __global float* out,
                                 const int width, const int height)
{
    __local float tile[TDIM][TDIM + 1];
    const int tx = get_local_id(0), ty = get_local_id(1);
    int x = get_group_id(0) * TDIM + tx;
    int y = get_group_id(1) * TDIM + ty;
    for (int j = 0; j < TDIM; j += BROWS) {
        if (x < width && y + j < height)
            tile[ty + j][tx] = in[(y + j) * width + x];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    x = get_group_id(1) * TDIM + tx;
    y = get_group_id(0) * TDIM + ty;
    for (int j = 0; j < TDIM; j += BROWS) {
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[tx][ty + j];
    }
}

// A batch of int matrices: dimension 2 picks the matrix.  The square tile is the local
// size (T x T, any T) with one padding column: tile holds T * (T + 1) ints.
__kernel void transpose_batched_i32(__global const int* in, __global int* out,
                                    __local int* tile, const int width, const int height)
{
    const int T = get_local_size(0);
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int b = get_global_id(2);
    const int plane = width * height;
    __global const int* src = in + b * plane;
    __global int* dst = out + b * plane;

    int x = get_group_id(0) * T + tx;
    int y = get_group_id(1) * T + ty;
    if (x < width && y < height)
        tile[ty * (T + 1) + tx] = src[y * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    x = get_group_id(1) * T + tx;
    y = get_group_id(0) * T + ty;
    if (x < height && y < width)
        dst[y * height + x] = tile[tx * (T + 1) + ty];
}
