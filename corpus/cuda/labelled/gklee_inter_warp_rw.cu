// expect: race shared read-write lines 19,20
// launch: grid=2 block=128 n=256 d=float32:256
// Reverse every 128-element segment of d in place through shared memory.
// BUG (GKLEE: inter-warp read-write race): there is no __syncthreads() between the store of
// s[t] and the load of s[127 - t].  The element a thread reads was stored by a thread of
// another warp (t and 127 - t are never in the same warp), which may not have run yet.
// (gklee_inter_warp_rw_fixed.cu has the barrier.)
// Buffers: d holds n floats, n a multiple of 128.

#define SEG 128

__global__ void reverse_segments(float *d, int n) {
  __shared__ float s[SEG];
  const int t = threadIdx.x;
  const int base = blockIdx.x * SEG;
  if (base >= n) return;  // the same for every thread of the block: no divergence

  const int tr = SEG - 1 - t;
  s[t] = d[base + t];
  d[base + t] = s[tr];
}
