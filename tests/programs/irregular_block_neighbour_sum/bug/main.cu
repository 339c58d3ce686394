// block_neighbour_sum: the racy twin of corpus/cuda/irregular/block_neighbour_sum_race.cu as a whole program.
// The kernel code below is the corpus file's, unchanged; main() reads its input from the file named
// on the command line, so the contents (and the sizes) are known only at run time.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define BLOCK 128

__global__ void neighbour_sum(const int *row, const int *col, const float *w, float *out, int n) {
  __shared__ float s[BLOCK];
  const int v = blockIdx.x;
  const int tid = threadIdx.x;
  if (v >= n) return;
  const int beg = row[v], end = row[v + 1];
  float acc = 0.0f;
  for (int e = beg + tid; e < end; e += BLOCK)
    acc += w[col[e]];
  s[tid] = acc;
  for (int k = BLOCK / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0)
    out[v] = s[0];
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
  float *w = (float *)malloc(n * sizeof(float));
  for (int v = 0; v < n; ++v)
    w[v] = 1.0f / (1 + row[v + 1] - row[v]);

  int *d_row, *d_col;
  float *d_w, *d_out;
  cudaMalloc(&d_row, (n + 1) * sizeof(int));
  cudaMalloc(&d_col, nnz * sizeof(int));
  cudaMalloc(&d_w, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_row, row, (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, col, nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_w, w, n * sizeof(float), cudaMemcpyHostToDevice);

  // one block of BLOCK threads per vertex
  neighbour_sum<<<n, BLOCK>>>(d_row, d_col, d_w, d_out, n);
  cudaDeviceSynchronize();

  float *out = (float *)malloc(n * sizeof(float));
  cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  double total = 0;
  for (int v = 0; v < n; ++v)
    total += out[v];
  printf("sum of neighbour weights: %f\n", total);

  cudaFree(d_row);
  cudaFree(d_col);
  cudaFree(d_w);
  cudaFree(d_out);
  free(row);
  free(col);
  free(w);
  free(out);
  return 0;
}
