// expect: barrier-divergence line 44
// launch: grid=3 block=128 nref=300 queries=float32:9 refs=float32:900
// constrain: len:queries=blocks*3 len:refs=nref*3
// Brute-force nearest neighbour in 3-D, one block per query: each thread scans a strided
// share of the reference points, then the block reduces (distance, index) pairs in shared
// memory and thread 0 writes the winner.
// BUG (barrier divergence): the __syncthreads() of the reduction loop sits inside
// `if (tid < s)`, so at every level the threads with tid >= s never arrive at it while the
// others wait there.  (Fixed in nearest_neighbor_fixed.cu.)
// Buffers: queries holds 3 floats per block, refs 3 * nref floats, nn_idx and nn_dist one
// entry per query.
#include <cfloat>

#define BLOCK 128

__global__ void nearest_neighbor(const float *queries, const float *refs, int nref, int *nn_idx,
                                 float *nn_dist) {
  __shared__ float s_dist[BLOCK];
  __shared__ int s_idx[BLOCK];
  const int tid = threadIdx.x;
  const int q = blockIdx.x;
  const float qx = queries[3 * q], qy = queries[3 * q + 1], qz = queries[3 * q + 2];

  float best = FLT_MAX;
  int best_i = -1;
  for (int r = tid; r < nref; r += blockDim.x) {
    float dx = refs[3 * r] - qx, dy = refs[3 * r + 1] - qy, dz = refs[3 * r + 2] - qz;
    float d = dx * dx + dy * dy + dz * dz;
    if (d < best) {
      best = d;
      best_i = r;
    }
  }
  s_dist[tid] = best;
  s_idx[tid] = best_i;
  __syncthreads();

  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      if (s_dist[tid + s] < s_dist[tid]) {
        s_dist[tid] = s_dist[tid + s];
        s_idx[tid] = s_idx[tid + s];
      }
      __syncthreads();
    }
  }
  if (tid == 0) {
    nn_idx[q] = s_idx[0];
    nn_dist[q] = s_dist[0];
  }
}
