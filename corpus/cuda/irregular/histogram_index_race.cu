// expect: race shared read-write line 23
// expect: race shared write-write line 23
// launch: grid=2 block=128 n=512 bins=int32:512:small hist=int32:100:zeros
// Histogram of precomputed bin indices (an index array: hist[bins[i]]), privatised per block: each
// block counts its grid-stride share of the elements into a shared histogram, then adds it into
// the global one with atomicAdd.
// BUG: the shared count `s_hist[bins[i]] += 1` is a plain read-modify-write: two elements of the
// same bin handled by different threads of a block (any input with more elements than bins, or
// any repeated bin) race on that shared counter (read-write and write-write) and lose counts.
// (histogram_index_fixed.cu counts with a shared atomicAdd.)
// Buffers: bins holds n bin indices, each in [0, NBINS); hist holds NBINS ints.
// Launch: bins=small draws indices in [0, 100) = [0, NBINS).

#define NBINS 100

__global__ void histogram(const int *bins, int n, int *hist) {
  __shared__ int s_hist[NBINS];
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
    s_hist[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const int b = bins[i];
    s_hist[b] += 1;
  }
  __syncthreads();
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
    atomicAdd(&hist[b], s_hist[b]);
}
