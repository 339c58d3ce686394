// expect: clean
// launch: grid=2 block=64 n=128 alpha=0.85 row=int32:129:ramp col=int32:128:small res=float32:128:ones rank=float32:128:zeros
// Push-style PageRank step (residual push, vertex-parallel, atomics on the neighbours): vertex v
// takes its residual r, adds (1 - alpha) r to its rank and pushes alpha r / deg(v) into the
// residual of every out-neighbour with atomicAdd.
// FIXED twin of push_residual_race.cu: the residual is taken with atomicExch(&res[v], 0), so every
// access to res is atomic; rank[v] is only touched by the thread of v.  Race-free for every valid
// graph.
// Buffers: row holds the CSR offsets (n + 1 of them, non-decreasing from 0), col the out-neighbour
// ids (row[n] of them, each in [0, n)); res and rank hold n floats.
// Launch: row=ramp gives every vertex exactly one out-edge (row[v] = v), col=small draws the
// neighbours in [0, 100) (valid for n = 128), res=ones gives every vertex a residual to push.

__global__ void push_residual(const int *row, const int *col, float *res, float *rank, int n,
                              float alpha) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  const float r = atomicExch(&res[v], 0.0f);
  if (r == 0.0f) return;
  rank[v] += (1.0f - alpha) * r;
  const int beg = row[v], end = row[v + 1];
  if (end == beg) return;
  const float share = alpha * r / (end - beg);
  for (int e = beg; e < end; ++e)
    atomicAdd(&res[col[e]], share);
}
