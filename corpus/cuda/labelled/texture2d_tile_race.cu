// expect: race shared read-write lines 22,24
// launch: grid=4,4 block=16,16 w=64 h=64 tex=float32:64x64:random:norm,linear out=float32:4096
// constrain: block=16,16
// Discrete Laplacian of an image sampled through a 2-D texture object: every 16x16 block
// samples its pixels with tex2D (normalised coordinates, bilinear filtering at the pixel
// centres) into a shared tile, then combines each sample with its right and lower neighbours
// in the tile (cyclically inside the tile).
// BUG (missing barrier after the texture fetch): a thread reads the tile slots of its
// neighbours right after storing its own sample, with no __syncthreads() in between; the
// lower neighbour of the second row of a warp is in the next warp, which may not have
// sampled yet.  (texture2d_tile_fixed.cu adds the barrier.)
// Buffers: tex backs the texture object with an h x w image; out holds w * h floats.

#define TILE 16

__global__ void tile_laplacian(cudaTextureObject_t tex, float *out, int w, int h) {
  __shared__ float tile[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;

  // bilinear sample at the pixel centre, in normalised coordinates
  tile[ty][tx] = tex2D<float>(tex, (x + 0.5f) / w, (y + 0.5f) / h);
  // BUG: __syncthreads() missing here
  const float right = tile[ty][(tx + 1) % TILE], below = tile[(ty + 1) % TILE][tx];
  if (x < w && y < h) out[y * w + x] = right + below - 2.0f * tile[ty][tx];
}
