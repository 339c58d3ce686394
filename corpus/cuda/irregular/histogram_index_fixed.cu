// expect: clean
// launch: grid=2 block=128 n=512 bins=int32:512:small hist=int32:100:zeros
// Histogram of precomputed bin indices (an index array: hist[bins[i]]), privatised per block: each
// block counts its grid-stride share of the elements into a shared histogram, then adds it into
// the global one with atomicAdd.
// FIXED twin of histogram_index_race.cu: the shared count is an atomicAdd; the shared histogram is
// cleared, counted and read in phases separated by barriers, and the global one is only updated
// atomically.  Race-free for every valid bin array.
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
    atomicAdd(&s_hist[b], 1);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
    atomicAdd(&hist[b], s_hist[b]);
}
