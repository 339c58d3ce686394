// warp_best_neighbour: the fixed twin of corpus/cuda/irregular/warp_best_neighbour_fixed.cu as a whole program.
// The kernel code below is the corpus file's, unchanged; main() reads its input from the file named
// on the command line, so the contents (and the sizes) are known only at run time.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void best_neighbour(const int *row, const int *col, int *best, const int *score, int n) {
  const int lane = threadIdx.x % 32;
  const int v = (threadIdx.x + blockIdx.x * blockDim.x) / 32;
  if (v < n) {
    int m = 0;
    for (int e = row[v] + lane; e < row[v + 1]; e += 32) {
      const int u = col[e];
      if (v < u)
        m = max(m, score[u]);
    }
    for (int d = 1; d < 32; d *= 2)
      m = max(m, __shfl_xor_sync(~0u, m, d));
    if (lane == 0 && m > 0)
      atomicMax(best, m);
  }
}

// Reads a graph in CSR form from a text file: "n nnz", then the n + 1 offsets, then the nnz neighbour ids.
static bool read_csr(const char *path, int &n, int &nnz, int *&row, int *&col) {
  FILE *f = fopen(path, "r");
  if (!f) return false;
  if (fscanf(f, "%d %d", &n, &nnz) != 2) {
    fclose(f);
    return false;
  }
  row = (int *)malloc((n + 1) * sizeof(int));
  col = (int *)malloc(nnz * sizeof(int));
  for (int i = 0; i <= n; ++i)
    if (fscanf(f, "%d", &row[i]) != 1) return false;
  for (int e = 0; e < nnz; ++e)
    if (fscanf(f, "%d", &col[e]) != 1) return false;
  fclose(f);
  return true;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s graph.csr\n", argv[0]);
    return 1;
  }
  int n, nnz, *row, *col;
  if (!read_csr(argv[1], n, nnz, row, col)) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  int *score = (int *)malloc(n * sizeof(int));
  for (int v = 0; v < n; ++v)
    score[v] = row[v + 1] - row[v];  // a vertex's score is its degree

  int *d_row, *d_col, *d_best, *d_score;
  cudaMalloc(&d_row, (n + 1) * sizeof(int));
  cudaMalloc(&d_col, nnz * sizeof(int));
  cudaMalloc(&d_best, sizeof(int));
  cudaMalloc(&d_score, n * sizeof(int));
  cudaMemcpy(d_row, row, (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, col, nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_score, score, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_best, 0, sizeof(int));

  // one warp per vertex, eight warps per block
  const int threads = 256;
  const int warps_per_block = threads / 32;
  const int blocks = (n + warps_per_block - 1) / warps_per_block;
  best_neighbour<<<blocks, threads>>>(d_row, d_col, d_best, d_score, n);
  cudaDeviceSynchronize();

  int best;
  cudaMemcpy(&best, d_best, sizeof(int), cudaMemcpyDeviceToHost);
  printf("best score of a higher-numbered neighbour: %d\n", best);

  cudaFree(d_row);
  cudaFree(d_col);
  cudaFree(d_best);
  cudaFree(d_score);
  free(row);
  free(col);
  free(score);
  return 0;
}
