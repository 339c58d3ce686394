// expect(independent): warp-race shared read-write line 35
// launch: grid=2 block=128 n=300 A=float32:90000
// constrain: len:A=n*n
// Trace of an n x n row-major matrix: each block sums a grid-stride share of the diagonal,
// reduces it in shared memory with barriers while more than one warp is involved, and
// finishes inside warp 0 the pre-Volta way: warp-synchronous, no barrier, relying on the
// 32 lanes executing `ssum[tid] += ssum[tid + shift]` in lockstep.  `volatile` keeps every
// step in shared memory.
// Correct under the lockstep (pre-Volta) warp model.  With independent thread scheduling
// (Volta+) the lanes of warp 0 are not guaranteed to stay together, so the read of
// ssum[tid + shift] and its write by lane tid + shift form a warp-synchronous race
// (see trace_warp_syncwarp.cu for the __syncwarp version).
// Buffers: A holds n * n floats (n = 300 -> 90000), trace one float (accumulated with atomicAdd).

#define BLOCK 128

__global__ void matrix_trace(const float *A, int n, float *trace) {
  __shared__ float ssum[BLOCK];
  const int tid = threadIdx.x;

  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
    v += A[(size_t)i * n + i];
  ssum[tid] = v;
  __syncthreads();

  for (int shift = blockDim.x / 2; shift >= warpSize; shift >>= 1) {
    if (tid < shift) ssum[tid] += ssum[tid + shift];
    __syncthreads();
  }

  if (tid < warpSize) {
    volatile float *vs = ssum;
    for (int shift = warpSize / 2; shift > 0; shift >>= 1)
      vs[tid] += vs[tid + shift];
  }
  if (tid == 0) atomicAdd(trace, ssum[0]);
}
