// Sparse matrix-vector product y = A x for the adjacency matrix of a CSR
// graph with synthetic edge weights, "vector" kernel: one warp per row,
// partial sums combined through shared memory.
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

__global__ void spmv_csr_vector(const int *row, const int *col,
                                const float *val, const float *x, float *y,
                                int n) {
  __shared__ float partial[kThreadsPerBlock];
  int lane = threadIdx.x & (kWarpSize - 1);
  int r = blockIdx.x * (blockDim.x / kWarpSize) + threadIdx.x / kWarpSize;
  float sum = 0.0f;
  if (r < n) {
    int begin = row[r];
    int end = row[r + 1];
    for (int e = begin + lane; e < end; e += kWarpSize)
      sum += val[e] * x[col[e]];
  }
  partial[threadIdx.x] = sum;
  __syncwarp();
  for (int offset = kWarpSize / 2; offset > 0; offset >>= 1) {
    if (lane < offset) {
      sum += partial[threadIdx.x + offset];
      partial[threadIdx.x] = sum;
    }
    __syncwarp();
  }
  if (lane == 0 && r < n) y[r] = sum;
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
  const int rows_per_block = kThreadsPerBlock / kWarpSize;
  int blocks = (n + rows_per_block - 1) / rows_per_block;

  std::vector<float> val(m), x(n);
  for (int e = 0; e < m; ++e) val[e] = 1.0f / (float)(1 + e % 7);
  for (int i = 0; i < n; ++i) x[i] = 1.0f + (float)(i % 5);

  int *d_row = upload_ints(row, n + 1);
  int *d_col = upload_ints(col, m);
  float *d_val = nullptr, *d_x = nullptr, *d_y = nullptr;
  CHECK(cudaMalloc(&d_val, (m > 0 ? m : 1) * sizeof(float)));
  CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  if (m > 0)
    CHECK(cudaMemcpy(d_val, val.data(), m * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  spmv_csr_vector<<<blocks, kThreadsPerBlock>>>(d_row, d_col, d_val, d_x, d_y, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<float> y(n);
  CHECK(cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
  double norm1 = 0.0;
  for (int i = 0; i < n; ++i) norm1 += y[i] < 0 ? -y[i] : y[i];
  printf("vertices %d edges %d |y|_1 %.5f y[0] %.5f\n", n, m, norm1, y[0]);

  CHECK(cudaFree(d_row));
  CHECK(cudaFree(d_col));
  CHECK(cudaFree(d_val));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  return 0;
}
