// expect: clean
// launch: grid=2 block=128 n=1000 key=7 seg_len=500 data=int32:1000
// Early-exit linear search: block b scans its segment of seg_len elements chunk by chunk and
// stops as soon as any of its threads has found `key`, recording the first chunk with a hit.
// __syncthreads_or() is used correctly: every thread of the block calls it once per chunk
// (the loop bounds are the same for the whole block) and it returns the same verdict to all
// of them, so they all leave the loop together.
// Buffers: data holds n ints, hit_chunk one int per block (-1 when the key is absent).

__global__ void search_segments(const int *data, int n, int key, int seg_len, int *hit_chunk) {
  const int seg_start = blockIdx.x * seg_len;
  int result = -1;
  for (int chunk = 0; chunk * (int)blockDim.x < seg_len; ++chunk) {
    const int k = chunk * blockDim.x + threadIdx.x;
    const int i = seg_start + k;
    const int hit = k < seg_len && i < n && data[i] == key;
    if (__syncthreads_or(hit)) {
      result = chunk;
      break;
    }
  }
  if (threadIdx.x == 0) hit_chunk[blockIdx.x] = result;
}
