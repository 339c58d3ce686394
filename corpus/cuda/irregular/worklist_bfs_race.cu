// expect: race global read-write lines 26,27
// expect: race global write-write line 27
// launch: grid=1 block=64 n=128 in_len=64 row=int32:129:ramp col=int32:128:small in_wl=int32:64:small parent=int32:128:const=-1 out_wl=int32:128:zeros out_len=int32:1:zeros
// One level of a BFS with worklists (data-driven, one thread per worklist entry): the thread of
// entry i takes vertex v = in_wl[i] and, for every neighbour u of v not yet visited
// (parent[u] < 0), records v as u's parent and appends u to the output worklist through an
// atomicAdd counter.
// BUG: the visited check and the claim are a plain load and a plain store: two worklist vertices
// with a common unvisited neighbour u (any graph where a vertex has two in-edges from the frontier)
// race on parent[u] (read-write and write-write), and u is appended twice.
// (worklist_bfs_fixed.cu claims u with atomicCAS.)
// Buffers: row holds the CSR offsets (n + 1 of them, non-decreasing from 0), col the neighbour ids
// (row[n] of them, each in [0, n)); in_wl holds in_len vertex ids in [0, n); parent n ints
// (-1 = unvisited); out_wl n ints; out_len one int, 0 at the launch.
// Launch: row=ramp gives every vertex one edge, col=small and in_wl=small draw ids in [0, 100)
// (valid for n = 128), parent=const=-1 (nothing visited yet), out_len=zeros.

__global__ void bfs_expand(const int *row, const int *col, const int *in_wl, int in_len,
                           int *parent, int *out_wl, int *out_len, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= in_len) return;
  const int v = in_wl[i];
  const int beg = row[v], end = row[v + 1];
  for (int e = beg; e < end; ++e) {
    const int u = col[e];
    if (parent[u] < 0) {
      parent[u] = v;
      const int pos = atomicAdd(out_len, 1);
      out_wl[pos] = u;
    }
  }
}
