// expect: clean
// launch: grid=8 block=128 k=4 in=float32:1024 acc=float32:4
// The fixed version of grid_modulo_race.cu: blocks sharing an accumulator add into it atomically.

__global__ void bucket_sums(const float *in, float *acc, int k) {
  __shared__ float part[128];
  int t = threadIdx.x;
  part[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  for (int s = 64; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(&acc[blockIdx.x % k], part[0]);
}
