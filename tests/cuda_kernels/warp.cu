// Warp-level primitives: shuffles, votes, warp reductions and scans.
// Launched by tests/test_interp_cuda.py; every kernel computes the linear thread id of its
// block itself, so 2-D / 3-D blocks map onto warps as on hardware (x fastest).

__device__ __forceinline__ int linear_tid() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ __forceinline__ int global_linear_id() {
  int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  return block * (blockDim.x * blockDim.y * blockDim.z) + linear_tid();
}

// All four shuffle modes for one element type, over segments of `width` lanes.
template <typename T>
__global__ void shfl_modes(const T *in, T *o_idx, T *o_up, T *o_down, T *o_xor, int width,
                           int src_mul, int delta, int lane_mask) {
  int g = global_linear_id();
  int lane = linear_tid() % 32;
  T v = in[g];
  o_idx[g] = __shfl_sync(0xffffffffu, v, (lane * src_mul + 1) % 32, width);
  o_up[g] = __shfl_up_sync(0xffffffffu, v, delta, width);
  o_down[g] = __shfl_down_sync(0xffffffffu, v, delta, width);
  o_xor[g] = __shfl_xor_sync(0xffffffffu, v, lane_mask, width);
}
template __global__ void shfl_modes<int>(const int *, int *, int *, int *, int *, int, int, int, int);
template __global__ void shfl_modes<float>(const float *, float *, float *, float *, float *, int, int,
                                           int, int);
template __global__ void shfl_modes<double>(const double *, double *, double *, double *, double *,
                                            int, int, int, int);
template __global__ void shfl_modes<long long>(const long long *, long long *, long long *,
                                               long long *, long long *, int, int, int, int);

// Votes over the whole warp and inside divergent branches.
__global__ void votes(const int *in, unsigned *bal, int *any_big, int *all_nonneg, unsigned *act,
                      unsigned *div_bal, int *div_all, int *div_any, unsigned *tail_act) {
  int g = global_linear_id();
  int lane = linear_tid() % 32;
  int p = in[g];
  bal[g] = __ballot_sync(0xffffffffu, p > 0);
  any_big[g] = __any_sync(0xffffffffu, p > 100);
  all_nonneg[g] = __all_sync(0xffffffffu, p >= 0);
  if (lane % 3 == 0) {
    unsigned m = __activemask();
    act[g] = m;
    div_bal[g] = __ballot_sync(m, p > 0);
    div_all[g] = __all_sync(m, p > 0);
    div_any[g] = __any_sync(m, p > 50);
  } else {
    unsigned m = __activemask();
    act[g] = m;
    div_bal[g] = __ballot_sync(m, p < 0);
    div_all[g] = __all_sync(m, p < 60);
    div_any[g] = __any_sync(m, p == 7);
  }
  if (p > 40) {  // data-dependent divergence
    tail_act[g] = __activemask();
  }
}

// __activemask() of a partial last warp names only the lanes that exist.
__global__ void active_partial(unsigned *act, int *lane_id) {
  int g = global_linear_id();
  act[g] = __activemask();
  lane_id[g] = __lanemask_lt() == 0 ? 0 : 32 - __clz(__lanemask_lt());
}

// Warp sum with width = warpSize, so the result follows the launch's warp size.
__global__ void warp_sum(const int *in, int *out, int *lane_out) {
  int g = global_linear_id();
  int v = in[g];
  for (int off = warpSize / 2; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off, warpSize);
  lane_out[g] = __shfl_sync(0xffffffffu, v, 0, warpSize);  // broadcast lane 0's total
  if (linear_tid() % warpSize == 0) out[g / warpSize] = v;
}

// Shuffles with the default width (32): a warp of fewer than 32 lanes must not reach into the
// next warp.
__global__ void shfl_default_width(const int *in, int *down8, int *xor1) {
  int g = global_linear_id();
  int v = in[g];
  down8[g] = __shfl_down_sync(0xffffffffu, v, 8);
  xor1[g] = __shfl_xor_sync(0xffffffffu, v, 1);
}

// Votes and ballots of a 64-lane warp (low 32 lanes' bits; any/all over the whole warp).
__global__ void votes_wide(int *all_out, int *any_out, unsigned *bal, unsigned *act) {
  int t = linear_tid();
  all_out[t] = __all_sync(0xffffffffu, t % 64 != 0);
  any_out[t] = __any_sync(0xffffffffu, t % 64 == 63);
  bal[t] = __ballot_sync(0xffffffffu, t % 2 == 0);
  act[t] = __activemask();
}

// Butterfly sum over 32-lane segments (explicit width 32).
__global__ void xor_sum32(const int *in, int *out) {
  int g = global_linear_id();
  int v = in[g];
  for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffffu, v, m, 32);
  out[g] = v;
}

// Block-wide inclusive scan: shuffle-up scan inside each warp, then a scan of the warp totals.
__global__ void warp_block_scan(const int *in, int *out) {
  __shared__ int warp_tot[32];
  int tid = linear_tid();
  int g = global_linear_id();
  int lane = tid % 32, wid = tid / 32;
  int nwarps = (blockDim.x * blockDim.y * blockDim.z + 31) / 32;
  int v = in[g];
  for (int off = 1; off < 32; off <<= 1) {
    int y = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += y;
  }
  if (lane == 31) warp_tot[wid] = v;
  __syncthreads();
  if (wid == 0) {
    int s = lane < nwarps ? warp_tot[lane] : 0;
    for (int off = 1; off < 32; off <<= 1) {
      int y = __shfl_up_sync(0xffffffffu, s, off);
      if (lane >= off) s += y;
    }
    warp_tot[lane] = s;
  }
  __syncthreads();
  if (wid > 0) v += warp_tot[wid - 1];
  out[g] = v;
}

// Source lanes outside [0, 32): CUDA takes srcLane modulo width (PTX uses its low 5 bits).
__global__ void shfl_far_src(const int *in, int *plus33, int *minus1, int *plus40_w16) {
  int g = global_linear_id();
  int lane = linear_tid() % 32;
  int v = in[g];
  plus33[g] = __shfl_sync(0xffffffffu, v, lane + 33);
  minus1[g] = __shfl_sync(0xffffffffu, v, lane - 1);
  plus40_w16[g] = __shfl_sync(0xffffffffu, v, lane + 40, 16);
}
