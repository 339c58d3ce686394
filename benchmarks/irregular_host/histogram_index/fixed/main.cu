// histogram_index: the fixed twin of corpus/cuda/irregular/histogram_index_fixed.cu as a whole program.
// The kernel code below is the corpus file's, unchanged; main() reads its input from the file named
// on the command line, so the contents (and the sizes) are known only at run time.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

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

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s bins.bin\n", argv[0]);
    return 1;
  }
  // binary file: an int32 count n, then n bin indices in [0, NBINS)
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  int n;
  if (fread(&n, sizeof(int), 1, f) != 1) {
    fprintf(stderr, "bad header\n");
    return 1;
  }
  int *bins = (int *)malloc(n * sizeof(int));
  if (fread(bins, sizeof(int), n, f) != (size_t)n) {
    fprintf(stderr, "short file\n");
    return 1;
  }
  fclose(f);

  int *d_bins, *d_hist;
  cudaMalloc(&d_bins, n * sizeof(int));
  cudaMalloc(&d_hist, NBINS * sizeof(int));
  cudaMemcpy(d_bins, bins, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_hist, 0, NBINS * sizeof(int));

  // grid-stride kernel: at most 64 blocks of 256 threads
  const int threads = 256;
  int blocks = (n + threads - 1) / threads;
  if (blocks > 64)
    blocks = 64;
  histogram<<<blocks, threads>>>(d_bins, n, d_hist);
  cudaDeviceSynchronize();

  int hist[NBINS];
  cudaMemcpy(hist, d_hist, NBINS * sizeof(int), cudaMemcpyDeviceToHost);
  for (int b = 0; b < NBINS; ++b)
    printf("%d: %d\n", b, hist[b]);

  cudaFree(d_bins);
  cudaFree(d_hist);
  free(bins);
  return 0;
}
