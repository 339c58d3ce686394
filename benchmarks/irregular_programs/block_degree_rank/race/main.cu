// For every vertex, counts the neighbours that come after it in the
// (degree, id) order used to orient graphs for triangle counting.
// One thread block per vertex, block-wide shared-memory reduction.
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

__global__ void higher_neighbors_block(const int *row, const int *col,
                                       int *out_deg) {
  __shared__ int partial[kThreadsPerBlock];
  int v = blockIdx.x;
  int tid = threadIdx.x;
  int begin = row[v];
  int end = row[v + 1];
  int dv = end - begin;
  int count = 0;
  for (int e = begin + tid; e < end; e += blockDim.x) {
    int u = col[e];
    int du = row[u + 1] - row[u];
    if (du > dv || (du == dv && u > v)) ++count;
  }
  partial[tid] = count;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) partial[tid] += partial[tid + stride];
  }
  if (tid == 0) out_deg[v] = partial[0];
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
  int blocks = n;

  int *d_row = upload_ints(row, n + 1);
  int *d_col = upload_ints(col, m);
  int *d_out = nullptr;
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));

  higher_neighbors_block<<<blocks, kThreadsPerBlock>>>(d_row, d_col, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<int> out(n);
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  long long total = 0;
  int max_out = 0;
  for (int i = 0; i < n; ++i) {
    total += out[i];
    if (out[i] > max_out) max_out = out[i];
  }
  printf("vertices %d edges %d oriented edges %lld max out-degree %d\n", n, m,
         total, max_out);

  CHECK(cudaFree(d_row));
  CHECK(cudaFree(d_col));
  CHECK(cudaFree(d_out));
  return 0;
}
