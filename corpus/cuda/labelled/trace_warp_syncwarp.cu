// expect: clean
// launch: grid=2 block=128 n=300 A=float32:90000
// constrain: len:A=n*n
// Trace of an n x n row-major matrix: each block sums a grid-stride share of the diagonal,
// reduces it in shared memory with barriers while more than one warp is involved, and
// finishes inside warp 0.
// The Volta-safe version of trace_warp_sync.cu: every warp step reads into a register,
// __syncwarp() separates the reads of one step from the writes, and a second __syncwarp()
// separates those writes from the reads of the next step, so the warp part is correct
// under both the lockstep and the independent warp model.
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
    float w = ssum[tid];
    for (int shift = warpSize / 2; shift > 0; shift >>= 1) {
      w += ssum[tid + shift];
      __syncwarp();
      ssum[tid] = w;
      __syncwarp();
    }
  }
  if (tid == 0) atomicAdd(trace, ssum[0]);
}
