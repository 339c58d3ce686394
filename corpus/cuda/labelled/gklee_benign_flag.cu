// expect: benign-race shared write-write line 18
// launch: grid=2 block=128 n=256 tol=0.5 residual=float32:256
// Convergence test of an iterative solver: a block reports whether any of its residuals
// exceeds tol.  Thread 0 clears a shared flag, every thread whose residual is too large sets
// it, and thread 0 publishes it after the barrier.
// BENIGN RACE (GKLEE: benign write-write): many threads store to s_not_converged with no
// ordering between them, but every one of them stores the same value 1 and nobody reads the
// flag until after the barrier, so the outcome does not depend on the order.  Formally
// still a data race (info).  (gklee_benign_flag_fixed.cu uses __syncthreads_or.)
// Buffers: residual holds n floats, not_converged one int per block.

__global__ void check_converged(const float *residual, int n, float tol, int *not_converged) {
  __shared__ int s_not_converged;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) s_not_converged = 0;
  __syncthreads();

  if (i < n && fabsf(residual[i]) > tol) s_not_converged = 1;
  __syncthreads();

  if (threadIdx.x == 0) not_converged[blockIdx.x] = s_not_converged;
}
