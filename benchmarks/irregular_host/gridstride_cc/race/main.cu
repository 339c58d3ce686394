// gridstride_cc: the racy twin of corpus/cuda/irregular/gridstride_cc_race.cu as a whole program.
// The kernel code below is the corpus file's, unchanged; main() reads its input from the file named
// on the command line, so the contents (and the sizes) are known only at run time.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void cc_step(const int *row, const int *col, const int *lab_in, int *lab_out,
                        int *changed, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid == 0)
    *changed = 0;
  for (int v = tid; v < n; v += gridDim.x * blockDim.x) {
    const int own = lab_in[v];
    int m = own;
    for (int e = row[v]; e < row[v + 1]; ++e)
      m = min(m, lab_in[col[e]]);
    lab_out[v] = m;
    if (m < own)
      atomicExch(changed, 1);
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
  int *lab = (int *)malloc(n * sizeof(int));
  for (int v = 0; v < n; ++v)
    lab[v] = v;

  int *d_row, *d_col, *d_lab_in, *d_lab_out, *d_changed;
  cudaMalloc(&d_row, (n + 1) * sizeof(int));
  cudaMalloc(&d_col, nnz * sizeof(int));
  cudaMalloc(&d_lab_in, n * sizeof(int));
  cudaMalloc(&d_lab_out, n * sizeof(int));
  cudaMalloc(&d_changed, sizeof(int));
  cudaMemcpy(d_row, row, (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, col, nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_lab_in, lab, n * sizeof(int), cudaMemcpyHostToDevice);

  // a persistent grid: 64-thread blocks, each thread sweeping four vertices
  const int threads = 64;
  const int blocks = (n + 4 * threads - 1) / (4 * threads);
  int changed = 1, steps = 0;
  while (changed) {
    cc_step<<<blocks, threads>>>(d_row, d_col, d_lab_in, d_lab_out, d_changed, n);
    cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(d_lab_in, d_lab_out, n * sizeof(int), cudaMemcpyDeviceToDevice);
    ++steps;
  }

  cudaMemcpy(lab, d_lab_in, n * sizeof(int), cudaMemcpyDeviceToHost);
  int components = 0;
  for (int v = 0; v < n; ++v)
    components += lab[v] == v;
  printf("%d components after %d steps\n", components, steps);

  cudaFree(d_row);
  cudaFree(d_col);
  cudaFree(d_lab_in);
  cudaFree(d_lab_out);
  cudaFree(d_changed);
  free(row);
  free(col);
  free(lab);
  return 0;
}
