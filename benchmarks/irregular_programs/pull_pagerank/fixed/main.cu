// PageRank, pull formulation: each vertex gathers rank / out-degree from the
// vertices in its adjacency list. Runs a fixed number of iterations.
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

__global__ void pagerank_pull(const int *row, const int *col,
                              const float *rank, float *rank_next, int n,
                              float damping) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int begin = row[v];
  int end = row[v + 1];
  float sum = 0.0f;
  for (int e = begin; e < end; ++e) {
    int u = col[e];
    int du = row[u + 1] - row[u];
    if (du > 0) sum += rank[u] / (float)du;
  }
  float base = (1.0f - damping) / (float)n;
  rank_next[v] = base + damping * sum;
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
  int blocks = (n + threads - 1) / threads;
  const int iterations = 20;
  const float damping = 0.85f;

  int *d_row = upload_ints(row, n + 1);
  int *d_col = upload_ints(col, m);
  std::vector<float> rank(n, 1.0f / (float)n);
  float *d_rank = nullptr, *d_next = nullptr;
  CHECK(cudaMalloc(&d_rank, n * sizeof(float)));
  CHECK(cudaMalloc(&d_next, n * sizeof(float)));
  CHECK(cudaMemcpy(d_rank, rank.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  for (int it = 0; it < iterations; ++it) {
    pagerank_pull<<<blocks, threads>>>(d_row, d_col, d_rank, d_next, n, damping);
    CHECK(cudaGetLastError());
    float *tmp = d_rank;
    d_rank = d_next;
    d_next = tmp;
  }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(rank.data(), d_rank, n * sizeof(float), cudaMemcpyDeviceToHost));

  int best = 0;
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    total += rank[i];
    if (rank[i] > rank[best]) best = i;
  }
  printf("vertices %d edges %d rank-sum %.6f top vertex %d (%.6f)\n", n, m, total,
         best, rank[best]);

  CHECK(cudaFree(d_row));
  CHECK(cudaFree(d_col));
  CHECK(cudaFree(d_rank));
  CHECK(cudaFree(d_next));
  return 0;
}
