// push_residual: the racy twin of corpus/cuda/irregular/push_residual_race.cu as a whole program.
// The kernel code below is the corpus file's, unchanged; main() reads its input from the file named
// on the command line, so the contents (and the sizes) are known only at run time.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void push_residual(const int *row, const int *col, float *res, float *rank, int n,
                              float alpha) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  const float r = res[v];
  res[v] = 0.0f;
  if (r == 0.0f) return;
  rank[v] += (1.0f - alpha) * r;
  const int beg = row[v], end = row[v + 1];
  if (end == beg) return;
  const float share = alpha * r / (end - beg);
  for (int e = beg; e < end; ++e)
    atomicAdd(&res[col[e]], share);
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
  const float alpha = 0.85f;
  float *res = (float *)malloc(n * sizeof(float));
  for (int v = 0; v < n; ++v)
    res[v] = 1.0f / n;

  int *d_row, *d_col;
  float *d_res, *d_rank;
  cudaMalloc(&d_row, (n + 1) * sizeof(int));
  cudaMalloc(&d_col, nnz * sizeof(int));
  cudaMalloc(&d_res, n * sizeof(float));
  cudaMalloc(&d_rank, n * sizeof(float));
  cudaMemcpy(d_row, row, (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, col, nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_res, res, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_rank, 0, n * sizeof(float));

  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  push_residual<<<blocks, threads>>>(d_row, d_col, d_res, d_rank, n, alpha);
  cudaDeviceSynchronize();

  float *rank = (float *)malloc(n * sizeof(float));
  cudaMemcpy(rank, d_rank, n * sizeof(float), cudaMemcpyDeviceToHost);
  double total = 0;
  for (int v = 0; v < n; ++v)
    total += rank[v];
  printf("rank mass after one push: %f\n", total);

  cudaFree(d_row);
  cudaFree(d_col);
  cudaFree(d_res);
  cudaFree(d_rank);
  free(row);
  free(col);
  free(res);
  free(rank);
  return 0;
}
