// expect: race shared line 32
// launch: grid=2 block=128 n=200 x=float32:200
// Per-block statistics (sum, sum of squares, number of valid samples) accumulated in one
// shared struct, then turned into mean and variance by thread 0.
// BUG (race through a struct field in shared memory): sum and sumsq are updated with
// atomicAdd, but the sample counter is a plain `stats.count += 1`, a load/add/store of the
// same field by every valid thread: lanes of one warp store the same value in one step
// and threads of different warps interleave, so counts are lost (read-write and
// write-write race on stats.count).  (struct_shared_fixed.cu uses atomicAdd for it too.)
// Buffers: x holds n floats, mean/var one float per block.

struct BlockStats {
  float sum;
  float sumsq;
  int count;
};

__global__ void block_stats(const float *x, int n, float *mean, float *var) {
  __shared__ BlockStats stats;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) {
    stats.sum = 0.0f;
    stats.sumsq = 0.0f;
    stats.count = 0;
  }
  __syncthreads();

  if (i < n) {
    const float v = x[i];
    atomicAdd(&stats.sum, v);
    atomicAdd(&stats.sumsq, v * v);
    stats.count += 1;
  }
  __syncthreads();

  if (threadIdx.x == 0) {
    const float c = stats.count > 0 ? (float)stats.count : 1.0f;
    const float m = stats.sum / c;
    mean[blockIdx.x] = m;
    var[blockIdx.x] = stats.sumsq / c - m * m;
  }
}
