// expect: clean
// launch: grid=4 block=256 n=5000 in=float32:5000
// Sum of n floats into *out.  Each thread sums a grid-stride slice, each warp reduces with
// __shfl_down_sync, lane 0 of every warp parks the warp's sum in shared memory, and after a
// barrier warp 0 reduces those sums and adds the block's total to *out with one atomicAdd.
// blockDim.x must be a multiple of 32 and at most 1024.
// Buffers: in holds n floats, out holds one float (zeroed by the host).

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_reduce_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

__global__ void warp_shuffle_reduce(const float *in, float *out, int n) {
  __shared__ float warp_sums[32];
  int lane = threadIdx.x % warpSize;
  int warp = threadIdx.x / warpSize;

  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += in[i];
  sum = warp_reduce_sum(sum);
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();

  if (warp == 0) {
    int num_warps = blockDim.x / warpSize;
    sum = lane < num_warps ? warp_sums[lane] : 0.0f;
    sum = warp_reduce_sum(sum);
    if (lane == 0) atomicAdd(out, sum);
  }
}
