// worklist_bfs: the racy twin of corpus/cuda/irregular/worklist_bfs_race.cu as a whole program.
// The kernel code below is the corpus file's, unchanged; main() reads its input from the file named
// on the command line, so the contents (and the sizes) are known only at run time.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void bfs_expand(const int *row, const int *col, const int *in_wl, int in_len,
                           int *parent, int *out_wl, int *out_len, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= in_len) return;
  const int v = in_wl[i];
  const int beg = row[v], end = row[v + 1];
  for (int e = beg; e < end; ++e) {
    const int u = col[e];
    if (parent[u] < 0) {
      parent[u] = v;
      const int pos = atomicAdd(out_len, 1);
      out_wl[pos] = u;
    }
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
  if (argc < 3) {
    fprintf(stderr, "usage: %s graph.csr source\n", argv[0]);
    return 1;
  }
  int n, nnz, *row, *col;
  if (!read_csr(argv[1], n, nnz, row, col)) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  const int source = atoi(argv[2]);
  int *parent = (int *)malloc(n * sizeof(int));
  for (int v = 0; v < n; ++v)
    parent[v] = -1;
  parent[source] = source;

  int *d_row, *d_col, *d_parent, *d_in_wl, *d_out_wl, *d_out_len;
  cudaMalloc(&d_row, (n + 1) * sizeof(int));
  cudaMalloc(&d_col, nnz * sizeof(int));
  cudaMalloc(&d_parent, n * sizeof(int));
  cudaMalloc(&d_in_wl, n * sizeof(int));
  cudaMalloc(&d_out_wl, n * sizeof(int));
  cudaMalloc(&d_out_len, sizeof(int));
  cudaMemcpy(d_row, row, (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, col, nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_parent, parent, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_in_wl, &source, sizeof(int), cudaMemcpyHostToDevice);

  // level by level: expand the input worklist into the output worklist, then swap them
  const int threads = 256;
  int in_len = 1, levels = 0;
  while (in_len > 0) {
    cudaMemset(d_out_len, 0, sizeof(int));
    bfs_expand<<<(in_len + threads - 1) / threads, threads>>>(d_row, d_col, d_in_wl, in_len, d_parent, d_out_wl,
                                                               d_out_len, n);
    cudaMemcpy(&in_len, d_out_len, sizeof(int), cudaMemcpyDeviceToHost);
    int *t = d_in_wl;
    d_in_wl = d_out_wl;
    d_out_wl = t;
    ++levels;
  }

  cudaMemcpy(parent, d_parent, n * sizeof(int), cudaMemcpyDeviceToHost);
  int reached = 0;
  for (int v = 0; v < n; ++v)
    reached += parent[v] >= 0;
  printf("%d vertices reached in %d levels\n", reached, levels);

  cudaFree(d_row);
  cudaFree(d_col);
  cudaFree(d_parent);
  cudaFree(d_in_wl);
  cudaFree(d_out_wl);
  cudaFree(d_out_len);
  free(row);
  free(col);
  free(parent);
  return 0;
}
