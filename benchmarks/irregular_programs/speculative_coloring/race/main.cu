// Speculative greedy graph colouring: vertices that still need a colour pick
// the smallest colour not used by their neighbours, then conflicts between
// adjacent vertices with equal colours are detected and the vertex with the
// larger id is recoloured in the next round.
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

__global__ void tentative_color(const int *row, const int *col, const int *color,
                                const int *needs, int *new_color, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  if (!needs[v]) {
    new_color[v] = color[v];
    return;
  }
  unsigned long long used = 0ULL;
  int max_seen = -1;
  for (int e = row[v]; e < row[v + 1]; ++e) {
    int u = col[e];
    if (u == v) continue;
    int c = color[u];
    if (c >= 0 && c < 64) used |= 1ULL << c;
    if (c > max_seen) max_seen = c;
  }
  int pick;
  if (used == ~0ULL)
    pick = max_seen + 1;
  else
    pick = __ffsll((long long)~used) - 1;
  new_color[v] = pick;
}

__global__ void detect_conflicts(const int *row, const int *col, const int *color,
                                 int *needs, int *num_conflicts, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int cv = color[v];
  int conflict = 0;
  for (int e = row[v]; e < row[v + 1]; ++e) {
    int u = col[e];
    if (u < v && color[u] == cv) {
      conflict = 1;
      break;
    }
  }
  needs[v] = conflict;
  if (conflict) *num_conflicts = *num_conflicts + 1;
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

  std::vector<int> color(n, -1), needs(n, 1);
  int *d_row = upload_ints(row, n + 1);
  int *d_col = upload_ints(col, m);
  int *d_color = upload_ints(color, n);
  int *d_needs = upload_ints(needs, n);
  int *d_new_color = nullptr, *d_conflicts = nullptr;
  CHECK(cudaMalloc(&d_new_color, n * sizeof(int)));
  CHECK(cudaMalloc(&d_conflicts, sizeof(int)));

  int rounds = 0;
  int conflicts = 0;
  do {
    ++rounds;
    tentative_color<<<blocks, threads>>>(d_row, d_col, d_color, d_needs,
                                         d_new_color, n);
    CHECK(cudaGetLastError());
    int *tmp = d_color;
    d_color = d_new_color;
    d_new_color = tmp;
    CHECK(cudaMemset(d_conflicts, 0, sizeof(int)));
    detect_conflicts<<<blocks, threads>>>(d_row, d_col, d_color, d_needs,
                                          d_conflicts, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&conflicts, d_conflicts, sizeof(int), cudaMemcpyDeviceToHost));
  } while (conflicts > 0 && rounds <= n);

  CHECK(cudaMemcpy(color.data(), d_color, n * sizeof(int), cudaMemcpyDeviceToHost));
  int num_colors = 0;
  for (int i = 0; i < n; ++i)
    if (color[i] + 1 > num_colors) num_colors = color[i] + 1;
  printf("vertices %d edges %d rounds %d colours %d\n", n, m, rounds, num_colors);

  CHECK(cudaFree(d_row));
  CHECK(cudaFree(d_col));
  CHECK(cudaFree(d_color));
  CHECK(cudaFree(d_needs));
  CHECK(cudaFree(d_new_color));
  CHECK(cudaFree(d_conflicts));
  return 0;
}
