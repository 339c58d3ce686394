// Level-synchronous BFS from vertex 0 with an explicit frontier queue.
// Usage: prog graph.txt [threads_per_block]
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#define CHECK(call)                                                      \
  do {                                                                   \
    cudaError_t err_ = (call);                                           \
    if (err_ != cudaSuccess) {                                           \
      fprintf(stderr, "CUDA error '%s' at %s:%d\n",                      \
              cudaGetErrorString(err_), __FILE__, __LINE__);             \
      exit(1);                                                           \
    }                                                                    \
  } while (0)

static bool load_csr(const char *path, int &n, int &m, std::vector<int> &row,
                     std::vector<int> &col) {
  std::ifstream in(path);
  if (!in || !(in >> n >> m) || n < 1 || m < 0) return false;
  row.resize(n + 1);
  col.resize(m);
  for (int i = 0; i <= n; ++i)
    if (!(in >> row[i])) return false;
  for (int i = 0; i < m; ++i)
    if (!(in >> col[i])) return false;
  if (row[0] != 0 || row[n] != m) return false;
  for (int i = 0; i < n; ++i)
    if (row[i] > row[i + 1]) return false;
  for (int i = 0; i < m; ++i)
    if (col[i] < 0 || col[i] >= n) return false;
  return true;
}

static int *upload_ints(const std::vector<int> &h, size_t count) {
  int *d = nullptr;
  CHECK(cudaMalloc(&d, (count > 0 ? count : 1) * sizeof(int)));
  if (count > 0)
    CHECK(cudaMemcpy(d, h.data(), count * sizeof(int), cudaMemcpyHostToDevice));
  return d;
}
static int threads_from_args(int argc, char **argv) {
  int t = argc > 2 ? atoi(argv[2]) : 256;
  return (t >= 1 && t <= 1024) ? t : 256;
}

__global__ void bfs_expand(const int *row, const int *col, const int *frontier,
                           int frontier_size, int *next, int *next_size,
                           int *dist, int level) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= frontier_size) return;
  int v = frontier[i];
  int begin = row[v];
  int end = row[v + 1];
  for (int e = begin; e < end; ++e) {
    int u = col[e];
    if (atomicCAS(&dist[u], -1, level + 1) == -1) {
      int pos = *next_size;
      *next_size = pos + 1;
      next[pos] = u;
    }
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s graph.txt [threads]\n", argv[0]);
    return 1;
  }
  int n = 0, m = 0;
  std::vector<int> row, col;
  if (!load_csr(argv[1], n, m, row, col)) {
    fprintf(stderr, "cannot read CSR graph from %s\n", argv[1]);
    return 1;
  }
  int threads = threads_from_args(argc, argv);
  const int source = 0;

  int *d_row = upload_ints(row, n + 1);
  int *d_col = upload_ints(col, m);
  std::vector<int> dist(n, -1);
  dist[source] = 0;
  int *d_dist = upload_ints(dist, n);
  std::vector<int> first(1, source);
  int *d_frontier = nullptr, *d_next = nullptr, *d_next_size = nullptr;
  CHECK(cudaMalloc(&d_frontier, n * sizeof(int)));
  CHECK(cudaMalloc(&d_next, n * sizeof(int)));
  CHECK(cudaMalloc(&d_next_size, sizeof(int)));
  CHECK(cudaMemcpy(d_frontier, first.data(), sizeof(int), cudaMemcpyHostToDevice));

  int frontier_size = 1;
  int level = 0;
  while (frontier_size > 0) {
    CHECK(cudaMemset(d_next_size, 0, sizeof(int)));
    int blocks = (frontier_size + threads - 1) / threads;
    bfs_expand<<<blocks, threads>>>(d_row, d_col, d_frontier, frontier_size,
                                    d_next, d_next_size, d_dist, level);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&frontier_size, d_next_size, sizeof(int),
                     cudaMemcpyDeviceToHost));
    int *tmp = d_frontier;
    d_frontier = d_next;
    d_next = tmp;
    ++level;
  }

  CHECK(cudaMemcpy(dist.data(), d_dist, n * sizeof(int), cudaMemcpyDeviceToHost));
  int reached = 0, depth = 0;
  for (int i = 0; i < n; ++i) {
    if (dist[i] >= 0) ++reached;
    if (dist[i] > depth) depth = dist[i];
  }
  printf("vertices %d edges %d reached %d depth %d levels %d\n", n, m, reached,
         depth, level);

  CHECK(cudaFree(d_row));
  CHECK(cudaFree(d_col));
  CHECK(cudaFree(d_dist));
  CHECK(cudaFree(d_frontier));
  CHECK(cudaFree(d_next));
  CHECK(cudaFree(d_next_size));
  return 0;
}
