// expect: clean
// launch: grid=4 block=32
// A warp-synchronous sum written for exactly one warp per block (the host launches 32 threads):
// the upper half of the volatile buffer is zeroed so that the tree can read past the live values.
// At 64 threads s[t + 32] would index past the buffer: that launch is outside the kernel's contract
// and says nothing about races (one warp needs no block barrier, only __syncwarp).

__global__ void warp_sum(const float *in, float *out) {
  volatile __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 32 + t];
  s[t + 32] = 0.0f;
  __syncwarp();
  for (int d = 16; d > 0; d >>= 1) {
    float v = s[t] + s[t + d];
    __syncwarp();
    s[t] = v;
    __syncwarp();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
