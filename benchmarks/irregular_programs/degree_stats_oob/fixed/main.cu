// Degree statistics of a CSR graph: number of wedges (paths of length two),
// maximum degree and number of isolated vertices. Each block aggregates its
// vertices in shared memory before updating the global totals.
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

__global__ void degree_statistics(const int *row, int n,
                                  unsigned long long *wedges, int *max_deg,
                                  int *isolated) {
  __shared__ unsigned long long s_wedges;
  __shared__ int s_max;
  __shared__ int s_isolated;
  if (threadIdx.x == 0) {
    s_wedges = 0ULL;
    s_max = 0;
    s_isolated = 0;
  }
  __syncthreads();
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    int deg = row[v + 1] - row[v];
    unsigned long long w =
        deg > 1 ? (unsigned long long)deg * (unsigned long long)(deg - 1) / 2
                : 0ULL;
    if (w > 0) atomicAdd(&s_wedges, w);
    atomicMax(&s_max, deg);
    if (deg == 0) atomicAdd(&s_isolated, 1);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(wedges, s_wedges);
    atomicMax(max_deg, s_max);
    atomicAdd(isolated, s_isolated);
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

  int *d_row = upload_ints(row, n + 1);
  unsigned long long *d_wedges = nullptr;
  int *d_max = nullptr, *d_isolated = nullptr;
  CHECK(cudaMalloc(&d_wedges, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&d_max, sizeof(int)));
  CHECK(cudaMalloc(&d_isolated, sizeof(int)));
  CHECK(cudaMemset(d_wedges, 0, sizeof(unsigned long long)));
  CHECK(cudaMemset(d_max, 0, sizeof(int)));
  CHECK(cudaMemset(d_isolated, 0, sizeof(int)));

  degree_statistics<<<blocks, threads>>>(d_row, n, d_wedges, d_max, d_isolated);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  unsigned long long wedges = 0;
  int max_deg = 0, isolated = 0;
  CHECK(cudaMemcpy(&wedges, d_wedges, sizeof(unsigned long long),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&max_deg, d_max, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&isolated, d_isolated, sizeof(int), cudaMemcpyDeviceToHost));
  printf("vertices %d edges %d wedges %llu max degree %d isolated %d\n", n, m,
         wedges, max_deg, isolated);

  CHECK(cudaFree(d_row));
  CHECK(cudaFree(d_wedges));
  CHECK(cudaFree(d_max));
  CHECK(cudaFree(d_isolated));
  return 0;
}
