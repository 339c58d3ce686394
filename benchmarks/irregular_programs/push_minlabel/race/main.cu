// Connected components by iterative min-label propagation (push style).
// Every vertex pushes its current label to its neighbours until no label
// changes. Usage: prog graph.txt [threads_per_block]
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

__global__ void push_min_label(const int *row, const int *col,
                               const int *label_in, int *label_out,
                               int *changed, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int l = label_in[v];
  int begin = row[v];
  int end = row[v + 1];
  for (int e = begin; e < end; ++e) {
    int u = col[e];
    if (u == v) continue;
    int old = label_out[u];
    if (l < old) {
      label_out[u] = l;
      atomicOr(changed, 1);
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
  int blocks = (n + threads - 1) / threads;

  std::vector<int> label(n);
  for (int i = 0; i < n; ++i) label[i] = i;

  int *d_row = upload_ints(row, n + 1);
  int *d_col = upload_ints(col, m);
  int *d_in = upload_ints(label, n);
  int *d_out = nullptr, *d_changed = nullptr;
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMalloc(&d_changed, sizeof(int)));

  int iterations = 0;
  while (iterations < n) {
    CHECK(cudaMemcpy(d_out, d_in, n * sizeof(int), cudaMemcpyDeviceToDevice));
    CHECK(cudaMemset(d_changed, 0, sizeof(int)));
    push_min_label<<<blocks, threads>>>(d_row, d_col, d_in, d_out, d_changed, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    ++iterations;
    int changed = 0;
    CHECK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
    int *tmp = d_in;
    d_in = d_out;
    d_out = tmp;
    if (!changed) break;
  }

  CHECK(cudaMemcpy(label.data(), d_in, n * sizeof(int), cudaMemcpyDeviceToHost));
  int components = 0;
  for (int i = 0; i < n; ++i)
    if (label[i] == i) ++components;
  printf("vertices %d edges %d iterations %d components %d\n", n, m, iterations,
         components);

  CHECK(cudaFree(d_row));
  CHECK(cudaFree(d_col));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_changed));
  return 0;
}
