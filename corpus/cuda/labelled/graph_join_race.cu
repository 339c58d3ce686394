// expect: barrier-divergence line 23
// expect: barrier-divergence line 30
// expect: race global line 31
// launch: grid=3 block=64 num_edges=150 src=uint32:150 dst=uint32:150 part=int32:256:ones
// Partition join of an edge list: an edge (u, v) joins when both end points lie in the same
// partition.  Every block counts its joining edges in shared memory (shared atomics), writes
// their ids to its own segment of `joined`, and adds its count to the global total.
// BUG 1 (barrier divergence): threads past num_edges return before the first barrier, so in
//   the last block (edges 128..191, only 22 valid) the barriers wait for threads that have
//   exited.
// BUG 2 (inter-block race): `*total += s_count` is a plain read-modify-write of one global
//   word done by thread 0 of every block; the blocks race on it (read-write and write-write)
//   and lose counts.  (Both fixed in graph_join_fixed.cu.)
// Buffers: src/dst hold num_edges vertex ids (< 100), part one partition id per vertex,
// joined one slot per thread of the grid, total one int.

__global__ void graph_join(const unsigned int *src, const unsigned int *dst, const int *part,
                           int num_edges, int *joined, int *total) {
  __shared__ int s_count;
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) s_count = 0;
  if (e >= num_edges) return;
  __syncthreads();

  const unsigned int u = src[e], v = dst[e];
  if (part[u] == part[v]) {
    int slot = atomicAdd(&s_count, 1);
    joined[blockIdx.x * blockDim.x + slot] = e;
  }
  __syncthreads();
  if (threadIdx.x == 0) *total += s_count;
}
