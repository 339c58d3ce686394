// edge_min_label: the racy twin of corpus/cuda/irregular/edge_min_label_race.cu as a whole program.
// The kernel code below is the corpus file's, unchanged; main() reads its input from the file named
// on the command line, so the contents (and the sizes) are known only at run time.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void edge_min_label(const int *src, const int *dst, const int *lab_in, int *lab_out,
                               int m) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m) return;
  const int s = src[e];
  const int d = dst[e];
  const int l = lab_in[s];
  const int cur = lab_out[d];
  if (l < cur)
    lab_out[d] = l;
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
  int *lab = (int *)malloc(n * sizeof(int));
  for (int v = 0; v < n; ++v)
    lab[v] = v;  // every vertex starts in its own component

  int *d_src, *d_dst, *d_lab_in, *d_lab_out;
  cudaMalloc(&d_src, m * sizeof(int));
  cudaMalloc(&d_dst, m * sizeof(int));
  cudaMalloc(&d_lab_in, n * sizeof(int));
  cudaMalloc(&d_lab_out, n * sizeof(int));
  cudaMemcpy(d_src, src, m * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_dst, dst, m * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_lab_in, lab, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_lab_out, lab, n * sizeof(int), cudaMemcpyHostToDevice);

  const int threads = 256;
  const int blocks = (m + threads - 1) / threads;
  edge_min_label<<<blocks, threads>>>(d_src, d_dst, d_lab_in, d_lab_out, m);
  cudaDeviceSynchronize();

  cudaMemcpy(lab, d_lab_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  int roots = 0;
  for (int v = 0; v < n; ++v)
    roots += lab[v] == v;
  printf("%d vertices keep their own label after one hooking step\n", roots);

  cudaFree(d_src);
  cudaFree(d_dst);
  cudaFree(d_lab_in);
  cudaFree(d_lab_out);
  free(src);
  free(dst);
  free(lab);
  return 0;
}
