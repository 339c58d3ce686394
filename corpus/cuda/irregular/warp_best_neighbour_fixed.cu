// expect: clean
// launch: grid=2 block=256 n=16 row=int32:17:ramp col=int32:16:const=15 score=int32:16:ones best=int32:1:zeros
// Best score among higher-numbered neighbours, one warp per vertex: the lanes of warp v stride over
// v's edges (lane, lane + 32, ...), keep the best score of a neighbour u > v, reduce it across the
// warp with __shfl_xor_sync and lane 0 folds the warp's maximum into best[0] with atomicMax.
// FIXED twin of warp_best_neighbour_race.cu: lane 0 calls atomicMax without reading best[0]
// first (atomicMax of a smaller value is a no-op), so best is only accessed atomically;
// race-free for every valid graph.
// Buffers: row holds the CSR offsets (n + 1 of them, non-decreasing from 0), col the neighbour ids
// (row[n] of them, each in [0, n)); score holds n ints, best one int.
// Launch: 16 warps for n = 16 vertices; row=ramp gives every vertex one edge, col=const=15 makes
// vertex 15 everyone's neighbour (valid), score=ones.

__global__ void best_neighbour(const int *row, const int *col, int *best, const int *score, int n) {
  const int lane = threadIdx.x % 32;
  const int v = (threadIdx.x + blockIdx.x * blockDim.x) / 32;
  if (v < n) {
    int m = 0;
    for (int e = row[v] + lane; e < row[v + 1]; e += 32) {
      const int u = col[e];
      if (v < u)
        m = max(m, score[u]);
    }
    for (int d = 1; d < 32; d *= 2)
      m = max(m, __shfl_xor_sync(~0u, m, d));
    if (lane == 0 && m > 0)
      atomicMax(best, m);
  }
}
