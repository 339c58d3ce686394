// Edge-parallel conversion of a CSR graph to COO (source array) together with
// the in-degree of every vertex (self loops are counted separately).
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

__device__ int source_of_edge(const int *row, int n, int e) {
  int lo = 0;
  int hi = n - 1;
  while (lo < hi) {
    int mid = lo + (hi - lo + 1) / 2;
    if (row[mid] <= e)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

__global__ void build_coo_indegree(const int *row, const int *col, int *src,
                                   int *in_deg, int *self_loops, int n, int m) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m) return;
  int s = source_of_edge(row, n, e);
  int d = col[e];
  src[e] = s;
  if (s == d) {
    atomicAdd(self_loops, 1);
    return;
  }
  atomicAdd(&in_deg[d], 1);
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
  int blocks = (m + threads - 1) / threads;
  if (blocks < 1) blocks = 1;

  int *d_row = upload_ints(row, n + 1);
  int *d_col = upload_ints(col, m);
  int *d_src = nullptr, *d_in_deg = nullptr, *d_loops = nullptr;
  CHECK(cudaMalloc(&d_src, (m > 0 ? m : 1) * sizeof(int)));
  CHECK(cudaMalloc(&d_in_deg, n * sizeof(int)));
  CHECK(cudaMalloc(&d_loops, sizeof(int)));
  CHECK(cudaMemset(d_in_deg, 0, n * sizeof(int)));
  CHECK(cudaMemset(d_loops, 0, sizeof(int)));

  build_coo_indegree<<<blocks, threads>>>(d_row, d_col, d_src, d_in_deg, d_loops,
                                          n, m);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<int> src(m), in_deg(n);
  int loops = 0;
  if (m > 0)
    CHECK(cudaMemcpy(src.data(), d_src, m * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(in_deg.data(), d_in_deg, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&loops, d_loops, sizeof(int), cudaMemcpyDeviceToHost));

  long long in_total = 0;
  int max_in = 0;
  for (int i = 0; i < n; ++i) {
    in_total += in_deg[i];
    if (in_deg[i] > max_in) max_in = in_deg[i];
  }
  long long src_checksum = 0;
  for (int e = 0; e < m; ++e) src_checksum += src[e];
  printf("vertices %d edges %d self-loops %d in-degree total %lld max %d "
         "src checksum %lld\n",
         n, m, loops, in_total, max_in, src_checksum);

  CHECK(cudaFree(d_row));
  CHECK(cudaFree(d_col));
  CHECK(cudaFree(d_src));
  CHECK(cudaFree(d_in_deg));
  CHECK(cudaFree(d_loops));
  return 0;
}
