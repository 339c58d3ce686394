// expect: clean
// launch: grid=2 block=128 n=200 x=float32:200
// Per-block statistics (sum, sum of squares, number of valid samples) accumulated in one
// shared struct, then turned into mean and variance by thread 0.
// FIX of struct_shared_race.cu: every field is updated with atomicAdd; thread 0 reads the
// struct only after the barrier that follows all updates.
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
    atomicAdd(&stats.count, 1);
  }
  __syncthreads();

  if (threadIdx.x == 0) {
    const float c = stats.count > 0 ? (float)stats.count : 1.0f;
    const float m = stats.sum / c;
    mean[blockIdx.x] = m;
    var[blockIdx.x] = stats.sumsq / c - m * m;
  }
}
