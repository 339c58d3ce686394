// expect: race shared read-write lines 26,29
// launch: grid=4 block=128 n=4 row=int32:5:ramp col=int32:4:ramp w=float32:4 out=float32:4
// Sum of the neighbours' weights, one block per vertex: the threads of block v stride over v's
// edges (tid, tid + 128, ...), store their partial sums in shared memory and reduce them with a
// tree; thread 0 writes out[v].
// BUG: no __syncthreads() between storing the partial sums and the first level of the tree: thread
// t reads s[t + 64], which thread t + 64 (another warp) may not have stored yet (shared read-write
// race).  It shows for every graph, whatever the degrees (a vertex of degree 0 still stores its
// zeros).  (block_neighbour_sum_fixed.cu has the barrier.)
// Buffers: row holds the CSR offsets (n + 1 of them, non-decreasing from 0), col the neighbour ids
// (row[n] of them, each in [0, n)); w holds n weights, out n sums.  The kernel is written for
// 128-thread blocks and a grid of n blocks.
// Launch: row=ramp gives every vertex one edge, col=ramp makes it a self-loop (valid).

#define BLOCK 128

__global__ void neighbour_sum(const int *row, const int *col, const float *w, float *out, int n) {
  __shared__ float s[BLOCK];
  const int v = blockIdx.x;
  const int tid = threadIdx.x;
  if (v >= n) return;
  const int beg = row[v], end = row[v + 1];
  float acc = 0.0f;
  for (int e = beg + tid; e < end; e += BLOCK)
    acc += w[col[e]];
  s[tid] = acc;
  for (int k = BLOCK / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0)
    out[v] = s[0];
}
