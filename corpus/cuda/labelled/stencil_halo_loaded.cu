// expect: clean
// launch: grid=2 block=128 n=250 in=float32:250
// 5-point 1-D smoothing (radius 2) with the block's samples staged in shared memory.
// FIX of stencil_uninit_halo.cu: the first RADIUS threads also load the left halo and the
// right halo (zero outside [0, n)), so every cell the stencil reads is written before the
// barrier.
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
  if (tid < RADIUS) {
    const int left = gid - RADIUS, right = gid + BLOCK;
    tile[tid] = left >= 0 && left < n ? in[left] : 0.0f;
    tile[l + BLOCK] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();

  if (gid < n) {
    float acc = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) acc += weights[k + RADIUS] * tile[l + k];
    out[gid] = acc;
  }
}
