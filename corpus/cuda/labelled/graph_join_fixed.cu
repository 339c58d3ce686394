// expect: clean
// launch: grid=3 block=64 num_edges=150 src=uint32:150 dst=uint32:150 part=int32:256:ones
// Partition join of an edge list: an edge (u, v) joins when both end points lie in the same
// partition.  Every block counts its joining edges in shared memory (shared atomics), writes
// their ids to its own segment of `joined`, and adds its count to the global total.
// FIX of graph_join_race.cu: threads past num_edges stay alive and only skip the work, so
// every thread reaches both barriers; the block counts meet in *total through atomicAdd.
// Buffers: src/dst hold num_edges vertex ids (< 100), part one partition id per vertex,
// joined one slot per thread of the grid, total one int.

__global__ void graph_join(const unsigned int *src, const unsigned int *dst, const int *part,
                           int num_edges, int *joined, int *total) {
  __shared__ int s_count;
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) s_count = 0;
  __syncthreads();

  if (e < num_edges) {
    const unsigned int u = src[e], v = dst[e];
    if (part[u] == part[v]) {
      int slot = atomicAdd(&s_count, 1);
      joined[blockIdx.x * blockDim.x + slot] = e;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(total, s_count);
}
