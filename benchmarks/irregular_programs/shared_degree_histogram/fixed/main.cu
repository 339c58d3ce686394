// Histogram of vertex degrees in logarithmic buckets (bucket b holds degrees
// in [2^(b-1), 2^b), bucket 0 holds isolated vertices). Each block builds a
// private histogram in shared memory and merges it into the global one.
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

constexpr int kBins = 32;

__global__ void degree_histogram(const int *row, int n, unsigned int *hist) {
  __shared__ unsigned int local[kBins];
  for (int i = threadIdx.x; i < kBins; i += blockDim.x) local[i] = 0;
  __syncthreads();
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    int deg = row[v + 1] - row[v];
    int bin = deg == 0 ? 0 : 32 - __clz(deg);
    if (bin >= kBins) bin = kBins - 1;
    atomicAdd(&local[bin], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < kBins; i += blockDim.x) {
    unsigned int c = local[i];
    if (c > 0) atomicAdd(&hist[i], c);
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
  unsigned int *d_hist = nullptr;
  CHECK(cudaMalloc(&d_hist, kBins * sizeof(unsigned int)));
  CHECK(cudaMemset(d_hist, 0, kBins * sizeof(unsigned int)));

  degree_histogram<<<blocks, threads>>>(d_row, n, d_hist);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<unsigned int> hist(kBins);
  CHECK(cudaMemcpy(hist.data(), d_hist, kBins * sizeof(unsigned int),
                   cudaMemcpyDeviceToHost));
  unsigned long long counted = 0;
  printf("vertices %d edges %d\n", n, m);
  for (int b = 0; b < kBins; ++b) {
    counted += hist[b];
    if (hist[b] == 0) continue;
    if (b == 0)
      printf("  degree 0: %u\n", hist[b]);
    else
      printf("  degree [%lld, %lld): %u\n", 1LL << (b - 1), 1LL << b, hist[b]);
  }
  printf("counted %llu of %d vertices\n", counted, n);

  CHECK(cudaFree(d_row));
  CHECK(cudaFree(d_hist));
  return 0;
}
