// pull_mean: the racy twin of corpus/cuda/irregular/pull_mean_race.cu as a whole program.
// The kernel code below is the corpus file's, unchanged; main() reads its input from the file named
// on the command line, so the contents (and the sizes) are known only at run time.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void pull_mean(const int *row, const int *col, float *x, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  const int beg = row[v], end = row[v + 1];
  float sum = 0.0f;
  for (int e = beg; e < end; ++e) {
    const int u = col[e];
    sum += x[u];
  }
  if (end > beg)
    x[v] = sum / (end - beg);
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
    fprintf(stderr, "usage: %s graph.csr (in-edges)\n", argv[0]);
    return 1;
  }
  int n, nnz, *row, *col;
  if (!read_csr(argv[1], n, nnz, row, col)) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  float *x = (float *)malloc(n * sizeof(float));
  for (int v = 0; v < n; ++v)
    x[v] = (float)(v % 17);

  int *d_row, *d_col;
  float *d_x;
  cudaMalloc(&d_row, (n + 1) * sizeof(int));
  cudaMalloc(&d_col, nnz * sizeof(int));
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMemcpy(d_row, row, (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, col, nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x, n * sizeof(float), cudaMemcpyHostToDevice);

  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  pull_mean<<<blocks, threads>>>(d_row, d_col, d_x, n);
  cudaDeviceSynchronize();

  cudaMemcpy(x, d_x, n * sizeof(float), cudaMemcpyDeviceToHost);
  double total = 0;
  for (int v = 0; v < n; ++v)
    total += x[v];
  printf("mean after one step: %f\n", total / n);

  cudaFree(d_row);
  cudaFree(d_col);
  cudaFree(d_x);
  free(row);
  free(col);
  free(x);
  return 0;
}
