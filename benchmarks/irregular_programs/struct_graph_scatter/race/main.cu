// One step of weighted, degree-normalised diffusion: every vertex scatters
// x[v] * w(v,u) / deg(v) to each neighbour u. The graph is passed to the
// kernel as a struct of device pointers.
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

struct Graph {
  int n, m;
  const int *row, *col;
  const float *weight;
};

__global__ void scatter_weighted(Graph g, const float *x, float *acc) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= g.n) return;
  float xv = x[v];
  if (xv == 0.0f) return;
  int begin = g.row[v];
  int end = g.row[v + 1];
  if (end == begin) return;
  float scale = xv / (float)(end - begin);
  for (int e = begin; e < end; ++e) {
    int u = g.col[e];
    float contrib = g.weight[e] * scale;
    acc[u] += contrib;
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
  int blocks = (n + threads - 1) / threads;

  std::vector<float> weight(m), x(n);
  for (int v = 0; v < n; ++v) {
    x[v] = 1.0f + (float)(v % 3);
    for (int e = row[v]; e < row[v + 1]; ++e)
      weight[e] = 0.5f + (float)((v + col[e]) % 4) * 0.25f;
  }

  Graph g;
  g.n = n;
  g.m = m;
  g.row = upload_ints(row, n + 1);
  g.col = upload_ints(col, m);
  float *d_weight = nullptr, *d_x = nullptr, *d_acc = nullptr;
  CHECK(cudaMalloc(&d_weight, (m > 0 ? m : 1) * sizeof(float)));
  CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CHECK(cudaMalloc(&d_acc, n * sizeof(float)));
  if (m > 0)
    CHECK(cudaMemcpy(d_weight, weight.data(), m * sizeof(float),
                     cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_acc, 0, n * sizeof(float)));
  g.weight = d_weight;

  scatter_weighted<<<blocks, threads>>>(g, d_x, d_acc);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<float> acc(n);
  CHECK(cudaMemcpy(acc.data(), d_acc, n * sizeof(float), cudaMemcpyDeviceToHost));
  double total = 0.0;
  int best = 0;
  for (int i = 0; i < n; ++i) {
    total += acc[i];
    if (acc[i] > acc[best]) best = i;
  }
  printf("vertices %d edges %d total mass %.5f max at %d (%.5f)\n", n, m, total,
         best, acc[best]);

  CHECK(cudaFree((void *)g.row));
  CHECK(cudaFree((void *)g.col));
  CHECK(cudaFree(d_weight));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_acc));
  return 0;
}
