// expect(independent): warp-race shared read-write line 38
// launch: grid=2 block=128 n=300 A=float32:90000
// constrain: len:A=n*n
// Trace of an n x n row-major matrix: each block sums a grid-stride share of the diagonal,
// reduces it in shared memory with barriers while more than one warp is involved, and
// finishes inside warp 0 warp-synchronously, without barriers.
// BUG (missing volatile): unlike trace_warp_sync.cu the final steps go through a plain
// `float *`.  The compiler may keep ssum[tid] in a register across the unrolled steps and
// drop or delay the intermediate stores, so a lane can read its neighbour's slot before the
// neighbour's partial sum is stored.
// Labels: at -O0 every step stays in memory, as with volatile: clean under lockstep, a
// warp-synchronous race under independent scheduling.  At -O1 clang keeps ssum[tid] in a
// register for the whole warp loop and stores it once at the end, so every lane reads its
// neighbours' slots *before* they are updated: a wrong sum, but under the lockstep rule
// (reads of one warp step precede the later store) no unordered conflict, hence no O1 label.
// Buffers: A holds n * n floats, trace one float (accumulated with atomicAdd).

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
    float *vs = ssum;
    for (int shift = warpSize / 2; shift > 0; shift >>= 1)
      vs[tid] += vs[tid + shift];
  }
  if (tid == 0) atomicAdd(trace, ssum[0]);
}
