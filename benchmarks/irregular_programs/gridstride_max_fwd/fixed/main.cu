// Forward degree (number of neighbours with a larger id) of every vertex and
// the maximum forward degree, using a persistent grid-stride loop.
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

__global__ void forward_degree_max(const int *row, const int *col, int *fwd_deg,
                                   int *max_fwd, int n) {
  int stride = gridDim.x * blockDim.x;
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    int begin = row[v];
    int end = row[v + 1];
    int f = 0;
    for (int e = begin; e < end; ++e)
      if (col[e] > v) ++f;
    fwd_deg[v] = f;
    atomicMax(max_fwd, f);
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
  const int max_resident_blocks = 128;
  if (blocks > max_resident_blocks) blocks = max_resident_blocks;

  int *d_row = upload_ints(row, n + 1);
  int *d_col = upload_ints(col, m);
  int *d_fwd = nullptr, *d_max = nullptr;
  CHECK(cudaMalloc(&d_fwd, n * sizeof(int)));
  CHECK(cudaMalloc(&d_max, sizeof(int)));
  CHECK(cudaMemset(d_max, 0, sizeof(int)));

  forward_degree_max<<<blocks, threads>>>(d_row, d_col, d_fwd, d_max, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<int> fwd(n);
  int max_fwd = 0;
  CHECK(cudaMemcpy(fwd.data(), d_fwd, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&max_fwd, d_max, sizeof(int), cudaMemcpyDeviceToHost));
  long long total = 0;
  for (int i = 0; i < n; ++i) total += fwd[i];
  printf("vertices %d edges %d forward edges %lld max forward degree %d\n", n, m,
         total, max_fwd);

  CHECK(cudaFree(d_row));
  CHECK(cudaFree(d_col));
  CHECK(cudaFree(d_fwd));
  CHECK(cudaFree(d_max));
  return 0;
}
