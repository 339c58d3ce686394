// expect: race shared read-write lines 20,22
// (intra-warp pairs of the same two lines: part of the race, no separate warp-race)
// launch: grid=2 block=128 n=256 tex=float32:256
// Each block fetches its 128 samples through a texture object (tex1Dfetch) into a shared
// tile and writes the sum of every sample and its right neighbour (cyclically in the block).
// BUG (missing barrier after the texture fetch): a thread reads its neighbour's slot of the
// tile right after storing its own, with no __syncthreads() in between; the neighbour of the
// last thread of a warp is in the next warp, which may not have fetched its sample yet.
// (A texture cannot alias a pointer parameter in simu's launch, so the race is the classic
// one on the data fetched from it.)  Fixed version: texture_fetch_fixed.cu.
// Buffers: tex backs the texture object with n floats; out holds n floats.

#define BLOCK 128

__global__ void neighbour_sum(cudaTextureObject_t tex, float *out, int n) {
  __shared__ float tile[BLOCK];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;

  tile[tid] = gid < n ? tex1Dfetch<float>(tex, gid) : 0.0f;
  // BUG: __syncthreads() missing here
  const float right = tile[(tid + 1) % BLOCK];
  if (gid < n) out[gid] = tile[tid] + right;
}
