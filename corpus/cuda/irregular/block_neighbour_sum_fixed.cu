// expect: clean
// launch: grid=4 block=128 n=4 row=int32:5:ramp col=int32:4:ramp w=float32:4 out=float32:4
// Sum of the neighbours' weights, one block per vertex: the threads of block v stride over v's
// edges (tid, tid + 128, ...), store their partial sums in shared memory and reduce them with a
// tree; thread 0 writes out[v].
// FIXED twin of block_neighbour_sum_race.cu: a __syncthreads() separates storing the partial sums
// from the tree, and every level of the tree ends with one; race-free for every valid graph.
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
  __syncthreads();
  for (int k = BLOCK / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0)
    out[v] = s[0];
}
