// expect: clean
// launch: grid=2 block=64 n=128 tol=0.01 b=float32:128
// Block-local Jacobi iteration for the tridiagonal system 3 x_i - x_{i-1} - x_{i+1} = b_i
// (x = 0 outside the block): each thread owns one unknown, the current iterate is exchanged
// through shared memory, and the block iterates until no update exceeds tol.
// FIX of loop_barrier_divergence.cu: the second barrier is __syncthreads_or(), which also
// tells every thread whether *any* thread of the block still moved by more than tol, so
// all threads take the same number of sweeps and meet at every barrier.
// Buffers: b and x hold n floats.

#define BLOCK 64
#define MAX_SWEEPS 50

__global__ void jacobi_tridiag(const float *b, float *x, int n, float tol) {
  __shared__ float s_x[BLOCK + 2];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;
  const float rhs = gid < n ? b[gid] : 0.0f;
  float xi = 0.0f;
  if (tid == 0) {
    s_x[0] = 0.0f;
    s_x[BLOCK + 1] = 0.0f;
  }

  float delta;
  int sweep = 0;
  bool again;
  do {
    s_x[tid + 1] = xi;
    __syncthreads();
    const float next = (rhs + s_x[tid] + s_x[tid + 2]) / 3.0f;
    delta = fabsf(next - xi);
    xi = next;
    ++sweep;
    again = __syncthreads_or(delta > tol) && sweep < MAX_SWEEPS;
  } while (again);

  if (gid < n) x[gid] = xi;
}
