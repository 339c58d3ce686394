// expect: clean
// launch: grid=1 block=128 n=128 row=int32:129:ramp col=int32:128:small x=float32:128 y=float32:128
// One smoothing step over a graph, pull style (vertex-parallel): every vertex's new value is the
// mean of its in-neighbours' values (its old value when it has none).
// FIXED twin of pull_mean_race.cu: the step reads x and writes a separate y (Jacobi style), so
// no thread writes what another reads; race-free for every valid graph.
// Buffers: row holds the CSR offsets of the in-edges (n + 1 of them, non-decreasing from 0), col
// the in-neighbour ids (row[n] of them, each in [0, n)); x and y hold n floats each.
// Launch: row=ramp gives every vertex exactly one in-edge, col=small draws the in-neighbours in
// [0, 100) (valid for n = 128).

__global__ void pull_mean(const int *row, const int *col, const float *x, float *y, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  const int beg = row[v], end = row[v + 1];
  float sum = 0.0f;
  for (int e = beg; e < end; ++e) {
    const int u = col[e];
    sum += x[u];
  }
  y[v] = end > beg ? sum / (end - beg) : x[v];
}
