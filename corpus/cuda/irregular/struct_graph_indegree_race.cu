// expect: race global read-write line 28
// expect: race global write-write line 28
// launch: grid=2 block=64 indeg=int32:128:zeros
// In-degree count over an ECL-style graph passed BY VALUE as a struct of pointers
// (struct Graph { int nodes, edges; int *nindex, *nlist; }): one thread per vertex in a
// grid-stride loop; every out-edge v -> u adds one to indeg[u].
// BUG: `indeg[u] += 1` is a plain read-modify-write: two vertices of different threads with a
// common out-neighbour u (any graph with a vertex of in-degree >= 2) race on indeg[u]
// (read-write and write-write) and lose counts.  (struct_graph_indegree_fixed.cu uses atomicAdd.)
// Buffers: g.nindex holds the CSR offsets (g.nodes + 1 of them, non-decreasing from 0 to
// g.edges), g.nlist the g.edges neighbour ids, each in [0, g.nodes); indeg holds g.nodes ints.
// Launch: a launch line cannot give a struct passed by value (neither its ints nor the buffers its
// pointers point to), so only indeg is given; the intended launch is g.nodes = 128,
// g.edges = 128, nindex = ramp (0..128), nlist in [0, 100).

struct Graph {
  int nodes, edges;
  int *nindex, *nlist;
};

__global__ void indegree(const Graph g, int *indeg) {
  const int stride = gridDim.x * blockDim.x;
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < g.nodes; v += stride) {
    const int beg = g.nindex[v];
    const int end = g.nindex[v + 1];
    for (int e = beg; e < end; ++e) {
      const int u = g.nlist[e];
      indeg[u] += 1;
    }
  }
}
