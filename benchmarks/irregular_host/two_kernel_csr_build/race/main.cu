// two_kernel_csr_build: the racy twin of corpus/cuda/irregular/two_kernel_csr_build_race.cu as a whole program.
// The kernel code below is the corpus file's, unchanged; main() reads its input from the file named
// on the command line, so the contents (and the sizes) are known only at run time.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

// kernel 1: the slot of every edge in the CSR neighbour array
__global__ void edge_slots(const int *src, const int *row, int *cursor, int *slot, int m) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < m)
    slot[e] = row[src[e]];
}

// kernel 2: scatter the destinations into their slots
__global__ void scatter_edges(const int *slot, const int *dst, int *adj, int m) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < m)
    adj[slot[e]] = dst[e];
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s edges.txt\n", argv[0]);
    return 1;
  }
  // edge list: "n m", then m lines "src dst"
  FILE *f = fopen(argv[1], "r");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  int n, m;
  if (fscanf(f, "%d %d", &n, &m) != 2) {
    fprintf(stderr, "bad header\n");
    return 1;
  }
  int *src = (int *)malloc(m * sizeof(int));
  int *dst = (int *)malloc(m * sizeof(int));
  for (int e = 0; e < m; ++e)
    if (fscanf(f, "%d %d", &src[e], &dst[e]) != 2) {
      fprintf(stderr, "bad edge %d\n", e);
      return 1;
    }
  fclose(f);

  // CSR offsets of the sources: exclusive prefix sum of the out-degrees
  int *row = (int *)calloc(n + 1, sizeof(int));
  for (int e = 0; e < m; ++e)
    row[src[e] + 1]++;
  for (int v = 0; v < n; ++v)
    row[v + 1] += row[v];

  int *d_src, *d_dst, *d_row, *d_cursor, *d_slot, *d_adj;
  cudaMalloc(&d_src, m * sizeof(int));
  cudaMalloc(&d_dst, m * sizeof(int));
  cudaMalloc(&d_row, (n + 1) * sizeof(int));
  cudaMalloc(&d_cursor, n * sizeof(int));
  cudaMalloc(&d_slot, m * sizeof(int));
  cudaMalloc(&d_adj, m * sizeof(int));
  cudaMemcpy(d_src, src, m * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_dst, dst, m * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_row, row, (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_cursor, 0, n * sizeof(int));

  const int threads = 256;
  const int blocks = (m + threads - 1) / threads;
  edge_slots<<<blocks, threads>>>(d_src, d_row, d_cursor, d_slot, m);
  scatter_edges<<<blocks, threads>>>(d_slot, d_dst, d_adj, m);
  cudaDeviceSynchronize();

  int *adj = (int *)malloc(m * sizeof(int));
  cudaMemcpy(adj, d_adj, m * sizeof(int), cudaMemcpyDeviceToHost);
  for (int v = 0; v < n && v < 10; ++v) {
    printf("%d:", v);
    for (int e = row[v]; e < row[v + 1]; ++e)
      printf(" %d", adj[e]);
    printf("\n");
  }

  cudaFree(d_src);
  cudaFree(d_dst);
  cudaFree(d_row);
  cudaFree(d_cursor);
  cudaFree(d_slot);
  cudaFree(d_adj);
  free(src);
  free(dst);
  free(row);
  free(adj);
  return 0;
}
