// struct_graph_indegree: the fixed twin of corpus/cuda/irregular/struct_graph_indegree_fixed.cu as a whole program.
// The kernel code below is the corpus file's, unchanged; main() reads its input from the file named
// on the command line, so the contents (and the sizes) are known only at run time.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

struct Graph {
  int nodes, edges;
  int *nindex, *nlist;
};

__global__ void indegree(const Graph g, int *indeg) {
  const int stride = gridDim.x * blockDim.x;
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < g.nodes; v += stride) {
    const int beg = g.nindex[v];
    const int end = g.nindex[v + 1];
    for (int e = beg; e < end; ++e) {
      const int u = g.nlist[e];
      atomicAdd(&indeg[u], 1);
    }
  }
}

// Reads an ECL graph (binary: int32 nodes, int32 edges, nindex[nodes + 1], nlist[edges]) and copies it to the
// device: g's pointers are device pointers.
static bool read_graph_to_device(const char *path, Graph &g) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  if (fread(&g.nodes, sizeof(int), 1, f) != 1 || fread(&g.edges, sizeof(int), 1, f) != 1) {
    fclose(f);
    return false;
  }
  int *nindex = (int *)malloc((g.nodes + 1) * sizeof(int));
  int *nlist = (int *)malloc(g.edges * sizeof(int));
  bool ok = fread(nindex, sizeof(int), g.nodes + 1, f) == (size_t)(g.nodes + 1) &&
            fread(nlist, sizeof(int), g.edges, f) == (size_t)g.edges;
  fclose(f);
  if (ok) {
    cudaMalloc(&g.nindex, (g.nodes + 1) * sizeof(int));
    cudaMalloc(&g.nlist, g.edges * sizeof(int));
    cudaMemcpy(g.nindex, nindex, (g.nodes + 1) * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(g.nlist, nlist, g.edges * sizeof(int), cudaMemcpyHostToDevice);
  }
  free(nindex);
  free(nlist);
  return ok;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s graph.egr\n", argv[0]);
    return 1;
  }
  Graph g;
  if (!read_graph_to_device(argv[1], g)) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  int *d_indeg;
  cudaMalloc(&d_indeg, g.nodes * sizeof(int));
  cudaMemset(d_indeg, 0, g.nodes * sizeof(int));

  const int threads = 256;
  const int blocks = (g.nodes + threads - 1) / threads;
  indegree<<<blocks, threads>>>(g, d_indeg);
  cudaDeviceSynchronize();

  int *indeg = (int *)malloc(g.nodes * sizeof(int));
  cudaMemcpy(indeg, d_indeg, g.nodes * sizeof(int), cudaMemcpyDeviceToHost);
  int maxdeg = 0;
  for (int v = 0; v < g.nodes; ++v)
    if (indeg[v] > maxdeg) maxdeg = indeg[v];
  printf("largest in-degree: %d\n", maxdeg);

  cudaFree(g.nindex);
  cudaFree(g.nlist);
  cudaFree(d_indeg);
  free(indeg);
  return 0;
}
