// expect: clean
// launch: grid=2,2 block=32,8 width=60 height=40 in=float32:2400 out=float32:2400
// constrain: block=32,8
// Matrix transpose through a 32x32 shared tile with 32x8 threads (each thread moves four
// elements).  The tile has one column of padding against bank conflicts; the barrier makes
// the whole tile visible before it is read back column-wise.  Edge tiles are guarded.
// Buffers: in is height x width floats (row-major), out is width x height floats.

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_tiled(const float *in, float *out, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;  // column of out = row of in
  y = blockIdx.x * TILE_DIM + threadIdx.y;  // row of out = column of in
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
