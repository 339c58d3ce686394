// expect: uninitialized shared line 26
// launch: grid=2 block=128 n=256 in=float32:256
// 5-point 1-D smoothing (radius 2) with the block's samples staged in shared memory.
// BUG (uninitialized shared read): the tile has room for a halo of RADIUS cells on each side,
// but only the block's own samples are loaded.  The first and last RADIUS threads read halo
// cells that no thread of the block ever wrote (garbage from whatever ran before).
// (stencil_halo_loaded.cu loads the halo.)
// Buffers: in and out hold n floats.

#define RADIUS 2
#define BLOCK 128

__constant__ float weights[2 * RADIUS + 1] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};

__global__ void smooth5(const float *in, float *out, int n) {
  __shared__ float tile[BLOCK + 2 * RADIUS];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;
  const int l = tid + RADIUS;

  tile[l] = gid < n ? in[gid] : 0.0f;
  __syncthreads();

  if (gid < n) {
    float acc = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) acc += weights[k + RADIUS] * tile[l + k];
    out[gid] = acc;
  }
}
