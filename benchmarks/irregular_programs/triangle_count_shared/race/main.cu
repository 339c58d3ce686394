// Triangle counting on a graph with sorted adjacency lists: one thread per
// edge (u, v) with u < v intersects the two lists and counts common
// neighbours w > v. Per-block totals are combined in shared memory.
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

__global__ void triangle_count_edges(const int *row, const int *col, int n,
                                     int m, unsigned long long *total) {
  __shared__ unsigned long long block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long local = 0;
  if (e < m) {
    int u = source_of_edge(row, n, e);
    int v = col[e];
    if (u < v) {
      int i = row[u], i_end = row[u + 1];
      int j = row[v], j_end = row[v + 1];
      while (i < i_end && j < j_end) {
        int a = col[i];
        int b = col[j];
        if (a < b) {
          ++i;
        } else if (b < a) {
          ++j;
        } else {
          if (a > v) ++local;
          ++i;
          ++j;
        }
      }
    }
  }
  block_count += local;
  __syncthreads();
  if (threadIdx.x == 0 && block_count > 0) atomicAdd(total, block_count);
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
  unsigned long long *d_total = nullptr;
  CHECK(cudaMalloc(&d_total, sizeof(unsigned long long)));
  CHECK(cudaMemset(d_total, 0, sizeof(unsigned long long)));

  triangle_count_edges<<<blocks, threads>>>(d_row, d_col, n, m, d_total);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  unsigned long long triangles = 0;
  CHECK(cudaMemcpy(&triangles, d_total, sizeof(unsigned long long),
                   cudaMemcpyDeviceToHost));
  printf("vertices %d edges %d triangles %llu\n", n, m, triangles);

  CHECK(cudaFree(d_row));
  CHECK(cudaFree(d_col));
  CHECK(cudaFree(d_total));
  return 0;
}
