// expect: clean
// launch: grid=2 block=128 n=256 tex=float32:256
// Each block fetches its 128 samples through a texture object (tex1Dfetch) into a shared
// tile and writes the sum of every sample and its right neighbour (cyclically in the block).
// FIX of texture_fetch_race.cu: a __syncthreads() between the stores of the tile and the
// reads of the neighbours' slots.
// Buffers: tex backs the texture object with n floats; out holds n floats.

#define BLOCK 128

__global__ void neighbour_sum(cudaTextureObject_t tex, float *out, int n) {
  __shared__ float tile[BLOCK];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;

  tile[tid] = gid < n ? tex1Dfetch<float>(tex, gid) : 0.0f;
  __syncthreads();
  const float right = tile[(tid + 1) % BLOCK];
  if (gid < n) out[gid] = tile[tid] + right;
}
