// expect: clean
// launch: grid=2 block=128 n=256 tol=0.5 residual=float32:256
// Convergence test of an iterative solver: a block reports whether any of its residuals
// exceeds tol.
// Race-free version of gklee_benign_flag.cu: the block-wide OR is computed by the barrier
// itself with __syncthreads_or(), so no shared flag is written by several threads.
// Buffers: residual holds n floats, not_converged one int per block.

__global__ void check_converged(const float *residual, int n, float tol, int *not_converged) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int too_large = i < n && fabsf(residual[i]) > tol;
  const int any = __syncthreads_or(too_large);
  if (threadIdx.x == 0) not_converged[blockIdx.x] = any;
}
