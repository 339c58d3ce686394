// expect: race global write-write line 31
// kernel: scatter_edges
// launch: grid=2 block=128 m=256 slot=int32:256:zeros dst=int32:256:small adj=int32:256:zeros
// Two kernels building the CSR adjacency of an edge list (COO src/dst, m edges), launched one
// after the other on the same buffers: kernel 1 (edge_slots) gives every edge e a slot in the
// CSR neighbour array, kernel 2 (scatter_edges) stores dst[e] at adj[slot[e]].  The host has
// already computed row, the CSR offsets of the sources (exclusive prefix sum of the out-degrees).
// BUG (kernel 1 produces duplicates, kernel 2 races on them): edge_slots gives edge e the slot
// row[src[e]], the first slot of its source, forgetting the per-source cursor, so all edges of
// one source get the same slot; scatter_edges then has several threads store different
// neighbours into the same adj[slot] (write-write race).  Kernel 2 is correct code: it races only
// on what kernel 1 hands it, for any graph with a vertex of out-degree >= 2.
// (two_kernel_csr_build_fixed.cu adds atomicAdd(&cursor[s], 1) to the slot: a permutation.)
// Buffers: src and dst hold m vertex ids in [0, n); row the n + 1 CSR offsets of the sources;
// cursor n ints, 0 at the launch; slot m ints (kernel 1's output, kernel 2's input); adj m ints.
// Launch: the launch line runs each kernel on its own, so it cannot hand kernel 1's output to
// kernel 2: only scatter_edges is checked (kernel: line), with slot=zeros, exactly what
// edge_slots produces for a star graph (every edge leaving vertex 0, row[0] = 0); dst=small.

// kernel 1: the slot of every edge in the CSR neighbour array
__global__ void edge_slots(const int *src, const int *row, int *cursor, int *slot, int m) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < m)
    slot[e] = row[src[e]];
}

// kernel 2: scatter the destinations into their slots
__global__ void scatter_edges(const int *slot, const int *dst, int *adj, int m) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < m)
    adj[slot[e]] = dst[e];
}
