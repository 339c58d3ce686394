// expect: barrier-divergence line 31
// expect: barrier-divergence line 36
// launch: grid=2 block=64 n=128 tol=0.01 b=float32:128
// Block-local Jacobi iteration for the tridiagonal system 3 x_i - x_{i-1} - x_{i+1} = b_i
// (x = 0 outside the block): each thread owns one unknown, the current iterate is exchanged
// through shared memory, and a thread iterates until its own update is below tol.
// BUG (barrier in a loop with a thread-dependent trip count): the loop condition depends on
// the thread's own update, so threads leave the loop (and the kernel) after different numbers
// of sweeps while the others still wait at the barriers inside it.
// (loop_barrier_syncthreads_or.cu decides with a block-wide vote.)
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
  do {
    s_x[tid + 1] = xi;
    __syncthreads();
    const float next = (rhs + s_x[tid] + s_x[tid + 2]) / 3.0f;
    delta = fabsf(next - xi);
    xi = next;
    ++sweep;
    __syncthreads();
  } while (delta > tol && sweep < MAX_SWEEPS);

  if (gid < n) x[gid] = xi;
}
