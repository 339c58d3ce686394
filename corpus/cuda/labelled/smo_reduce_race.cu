// expect: race shared write-write lines 39,56
// expect: race shared write-write lines 40,57
// launch: grid=2 block=256 n=600 C=1.0 grad=float32:600 alpha=float32:600 y=int32:600
// constrain: block=256
// SMO (SVM training) working-set selection, first index: every block finds the
// i in I_up = {i : (y_i = +1, alpha_i < C) or (y_i = -1, alpha_i > 0)} that minimises
// -y_i * grad_i over its slice and writes (value, index) to block_val/block_idx.
// The per-warp results meet in s_val/s_idx; the `if` pads the 32 slots with +inf so
// that warp 0 can reduce a full warp whatever the block size.
// BUG: block_min() stores the per-warp minima (lane 0 of warp w writes slot w) right after
// the padding, with no barrier between: the padding store of thread w (warp 0) and the
// store of lane 0 of warp w race (write-write), and the result depends on the order.
// Buffers: grad, alpha hold n floats, y holds n labels (sign taken), block_val/block_idx
// hold one entry per block.
#include <cfloat>

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ void warp_argmin(float &v, int &idx) {
  for (int off = 16; off > 0; off >>= 1) {
    float ov = __shfl_down_sync(FULL_MASK, v, off);
    int oi = __shfl_down_sync(FULL_MASK, idx, off);
    if (ov < v) {
      v = ov;
      idx = oi;
    }
  }
}

__device__ __forceinline__ bool in_up(float alpha, int y, float C) {
  return (y > 0 && alpha < C) || (y < 0 && alpha > 0.0f);
}

// Block-wide argmin; the result is valid in thread 0.
__device__ void block_min(float &v, int &idx, float *s_val, int *s_idx) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  warp_argmin(v, idx);
  if (lane == 0) {
    s_val[warp] = v;
    s_idx[warp] = idx;
  }
  __syncthreads();
  if (warp == 0) {
    v = s_val[lane];
    idx = s_idx[lane];
    warp_argmin(v, idx);
  }
}

__global__ void smo_select_up(const float *grad, const float *alpha, const int *y, float C, int n,
                              float *block_val, int *block_idx) {
  __shared__ float s_val[32];
  __shared__ int s_idx[32];
  int tid = threadIdx.x;
  if (tid < 32) {
    s_val[tid] = FLT_MAX;
    s_idx[tid] = -1;
  }
  float best = FLT_MAX;
  int best_i = -1;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) {
    int yi = y[i] >= 0 ? 1 : -1;
    float g = -yi * grad[i];
    if (in_up(alpha[i], yi, C) && g < best) {
      best = g;
      best_i = i;
    }
  }
  block_min(best, best_i, s_val, s_idx);
  if (tid == 0) {
    block_val[blockIdx.x] = best;
    block_idx[blockIdx.x] = best_i;
  }
}
