// expect: barrier-divergence line 35
// launch: grid=2 block=256 n=512 op=6 in=float32:512 out=float32:2 where=int32:2
// Block reduction whose operation is chosen by an opcode: OP_SUM (0), OP_MAX (1), OP_MIN (2)
// and OP_ARGMAX (6: the maximum and the global index where it occurs).  Unknown opcodes sum.
// The generic tree keeps the barrier outside the `tid < s` test: every thread reaches it.
// BUG (gated on op == 6): the argmax tree, written separately because it carries an index
// along with the value, has its __syncthreads() inside `if (tid < s)`.  Threads s..blockDim-1
// skip it in every step while the others wait: barrier divergence (undefined behaviour; it
// hangs or silently corrupts on real GPUs).  Every other opcode is fine.
// Buffers: in holds n floats; out and where one value per block.
#include <cfloat>

#define BLOCK 256
#define OP_MAX 1
#define OP_MIN 2
#define OP_ARGMAX 6

__global__ void __launch_bounds__(BLOCK)
block_reduce(const float *in, float *out, int *where, int n, int op) {
  __shared__ float val[BLOCK];
  __shared__ int idx[BLOCK];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * blockDim.x + tid;
  const float pad = op == OP_MIN ? FLT_MAX : (op == OP_MAX || op == OP_ARGMAX) ? -FLT_MAX : 0.0f;
  val[tid] = gid < n ? in[gid] : pad;
  idx[tid] = gid;
  __syncthreads();
  if (op == OP_ARGMAX) {
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
      if (tid < s) {
        if (val[tid + s] > val[tid]) {
          val[tid] = val[tid + s];
          idx[tid] = idx[tid + s];
        }
        __syncthreads();
      }
    }
  } else {
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
      if (tid < s) {
        const float a = val[tid], b = val[tid + s];
        val[tid] = op == OP_MAX ? fmaxf(a, b) : op == OP_MIN ? fminf(a, b) : a + b;
      }
      __syncthreads();
    }
  }
  if (tid == 0) out[blockIdx.x] = val[0];
  if (tid == 0 && op == OP_ARGMAX) where[blockIdx.x] = idx[0];
}
