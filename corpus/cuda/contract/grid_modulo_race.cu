// expect: race global read-write line 18
// expect: race global write-write line 18
// launch: grid=8 block=128 k=4 in=float32:1024 acc=float32:4
// Each block sums its 128 values and adds the sum into one of k accumulators.
// BUG: accumulator blockIdx.x % k is shared by every k-th block, and the += is not atomic: with
// more blocks than accumulators (grid > k, as the host launches: 8 blocks, 4 accumulators) two
// blocks read and write one accumulator unordered. Fixed version: grid_modulo_atomic.cu.

__global__ void bucket_sums(const float *in, float *acc, int k) {
  __shared__ float part[128];
  int t = threadIdx.x;
  part[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  for (int s = 64; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0) acc[blockIdx.x % k] += part[0];
}
