// expect: race shared read-write lines 22,26
// (intra-warp pairs of the same two lines: part of the race, no separate warp-race)
// launch: grid=2,2 block=32,8 width=64 height=64 in=float32:4096 out=float32:4096
// constrain: block=32,8
// Matrix transpose through a padded 32x32 shared tile with 32x8 threads (four rows each).
// BUG (missing barrier before reading the tile): the tile is read column-wise right after
// it is stored; the element a thread reads was stored by a thread of another row, usually
// in another warp, with no __syncthreads() in between.  Writer and reader are in the same
// warp for some elements (row index congruent to the column index mod 8): ordered by
// lockstep execution, but a warp-synchronous race under independent scheduling.
// (transpose_tiled_fixed.cu has the barrier.)
// Buffers: in is height x width floats (row-major), out width x height floats.

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose(const float *in, float *out, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  x = blockIdx.y * TILE_DIM + threadIdx.x;  // column of out = row of in
  y = blockIdx.x * TILE_DIM + threadIdx.y;  // row of out = column of in
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
