// Average neighbour degree of every vertex, one warp per vertex.
// Usage: prog graph.txt
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

constexpr int kThreadsPerBlock = 256;
constexpr int kWarpSize = 32;

__global__ void avg_neighbor_degree_warp(const int *row, const int *col,
                                         float *avg, int n) {
  int warps_per_block = blockDim.x / kWarpSize;
  int v = blockIdx.x * warps_per_block + threadIdx.x / kWarpSize;
  int lane = threadIdx.x % kWarpSize;
  if (v >= n) return;
  int begin = row[v];
  int end = row[v + 1];
  long long sum = 0;
  for (int e = begin + lane; e < end; e += kWarpSize) {
    int u = col[e];
    sum += row[u + 1] - row[u];
  }
  for (int offset = kWarpSize / 2; offset > 0; offset >>= 1)
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  int deg = end - begin;
  if (lane == 0) avg[v] = deg > 0 ? (float)sum / (float)deg : 0.0f;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s graph.txt\n", argv[0]);
    return 1;
  }
  int n = 0, m = 0;
  std::vector<int> row, col;
  if (!load_csr(argv[1], n, m, row, col)) {
    fprintf(stderr, "cannot read CSR graph from %s\n", argv[1]);
    return 1;
  }
  const int warps_per_block = kThreadsPerBlock / kWarpSize;
  int blocks = (n + warps_per_block - 1) / warps_per_block;

  int *d_row = upload_ints(row, n + 1);
  int *d_col = upload_ints(col, m);
  float *d_avg = nullptr;
  CHECK(cudaMalloc(&d_avg, n * sizeof(float)));

  avg_neighbor_degree_warp<<<blocks, kThreadsPerBlock>>>(d_row, d_col, d_avg, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<float> avg(n);
  CHECK(cudaMemcpy(avg.data(), d_avg, n * sizeof(float), cudaMemcpyDeviceToHost));
  double total = 0.0;
  int best = 0;
  for (int i = 0; i < n; ++i) {
    total += avg[i];
    if (avg[i] > avg[best]) best = i;
  }
  printf("vertices %d edges %d mean avg-neighbour-degree %.4f max at %d (%.4f)\n",
         n, m, total / n, best, avg[best]);

  CHECK(cudaFree(d_row));
  CHECK(cudaFree(d_col));
  CHECK(cudaFree(d_avg));
  return 0;
}
