// expect: race global read-write lines 21,24
// launch: grid=1 block=128 n=128 row=int32:129:ramp col=int32:128:small x=float32:128
// One smoothing step over a graph, pull style (vertex-parallel): every vertex replaces its value
// by the mean of its in-neighbours' values.
// BUG: the step is done in place: thread v stores x[v] while the threads of the vertices that have
// v as an in-neighbour may still be loading x[v] (read-write race; the result mixes old and new
// values and depends on the schedule).  It shows for any graph with an edge between vertices of
// different warps.  (pull_mean_fixed.cu reads x and writes a separate y.)
// Buffers: row holds the CSR offsets of the in-edges (n + 1 of them, non-decreasing from 0), col
// the in-neighbour ids (row[n] of them, each in [0, n)); x holds n floats.
// Launch: row=ramp gives every vertex exactly one in-edge, col=small draws the in-neighbours in
// [0, 100) (valid for n = 128).

__global__ void pull_mean(const int *row, const int *col, float *x, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  const int beg = row[v], end = row[v + 1];
  float sum = 0.0f;
  for (int e = beg; e < end; ++e) {
    const int u = col[e];
    sum += x[u];
  }
  if (end > beg)
    x[v] = sum / (end - beg);
}
