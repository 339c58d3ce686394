// expect: clean
// kernel: scatter_edges
// launch: grid=2 block=128 m=256 slot=int32:256:ramp dst=int32:256:small adj=int32:256:zeros
// Two kernels building the CSR adjacency of an edge list (COO src/dst, m edges), launched one
// after the other on the same buffers: kernel 1 (edge_slots) gives every edge e a slot in the
// CSR neighbour array, kernel 2 (scatter_edges) stores dst[e] at adj[slot[e]].  The host has
// already computed row, the CSR offsets of the sources (exclusive prefix sum of the out-degrees).
// FIXED twin of two_kernel_csr_build_race.cu: edge_slots gives edge e the slot
// row[s] + atomicAdd(&cursor[s], 1) (s = src[e]): the edges of s get the distinct slots
// row[s] .. row[s + 1] - 1, so slot is a permutation of 0 .. m - 1 and scatter_edges, the same
// code as in the racy twin, stores every adj element once.  Race-free for every valid edge list
// (kernel 2 only for inputs kernel 1 produces: a permutation).
// Buffers: src and dst hold m vertex ids in [0, n); row the n + 1 CSR offsets of the sources;
// cursor n ints, 0 at the launch; slot m ints (kernel 1's output, kernel 2's input); adj m ints.
// Launch: the launch line runs each kernel on its own, so it cannot hand kernel 1's output to
// kernel 2: only scatter_edges is checked (kernel: line), with slot=ramp, one of the permutations
// edge_slots produces (edges sorted by source, cursor increments in edge order); dst=small.

// kernel 1: the slot of every edge in the CSR neighbour array
__global__ void edge_slots(const int *src, const int *row, int *cursor, int *slot, int m) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < m) {
    const int s = src[e];
    slot[e] = row[s] + atomicAdd(&cursor[s], 1);
  }
}

// kernel 2: scatter the destinations into their slots
__global__ void scatter_edges(const int *slot, const int *dst, int *adj, int m) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < m)
    adj[slot[e]] = dst[e];
}
