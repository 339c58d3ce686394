// expect: barrier-divergence line 18
// launch: grid=2 block=128 n=1000 key=1000 seg_len=500 data=int32:1000
// Early-exit linear search: block b scans its segment of seg_len elements chunk by chunk and
// stops as soon as any of its threads has found `key`, recording the first chunk with a hit.
// BUG (__syncthreads_or in divergent code): the vote is inside `if (k < seg_len && i < n)`,
// so in the last chunk of a segment (500 = 3 * 128 + 116) the threads past the segment skip
// it and leave the loop while the others wait in the vote.  A block-wide vote is a barrier:
// every thread of the block must reach it.  (syncthreads_or_search.cu votes with all threads.)
// Buffers: data holds n ints, hit_chunk one int per block (-1 when the key is absent).

__global__ void search_segments(const int *data, int n, int key, int seg_len, int *hit_chunk) {
  const int seg_start = blockIdx.x * seg_len;
  int result = -1;
  for (int chunk = 0; chunk * (int)blockDim.x < seg_len; ++chunk) {
    const int k = chunk * blockDim.x + threadIdx.x;
    const int i = seg_start + k;
    if (k < seg_len && i < n) {
      if (__syncthreads_or(data[i] == key)) {
        result = chunk;
        break;
      }
    }
  }
  if (threadIdx.x == 0) hit_chunk[blockIdx.x] = result;
}
