// expect: clean
// launch: grid=2 block=128 n=256 d=float32:256
// Reverse every 128-element segment of d in place through shared memory.
// FIX of gklee_inter_warp_rw.cu: __syncthreads() between the store of s[t] and the load of
// s[127 - t], which another warp stored.
// Buffers: d holds n floats, n a multiple of 128.

#define SEG 128

__global__ void reverse_segments(float *d, int n) {
  __shared__ float s[SEG];
  const int t = threadIdx.x;
  const int base = blockIdx.x * SEG;
  if (base >= n) return;  // the same for every thread of the block: no divergence

  const int tr = SEG - 1 - t;
  s[t] = d[base + t];
  __syncthreads();
  d[base + t] = s[tr];
}
