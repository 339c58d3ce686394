// spmv_vector: the racy twin of corpus/cuda/irregular/spmv_vector_race.cu as a whole program.
// The kernel code below is the corpus file's, unchanged; main() reads its input from the file named
// on the command line, so the contents (and the sizes) are known only at run time.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void spmv_vector(const int *row_ptr, const int *col, const float *val, const float *x,
                            float *y, int nrows) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = t % 32;
  const int r = t / 32;
  if (r >= nrows) return;
  const int beg = row_ptr[r], end = row_ptr[r + 1];
  float sum = 0.0f;
  for (int k = beg + lane; k < end; k += 32)
    sum += val[k] * x[col[k]];
  for (int d = 16; d > 0; d /= 2)
    sum += __shfl_down_sync(0xffffffffu, sum, d);
  y[r] = sum;
}

// A CSR matrix in a binary file: int32 nrows, ncols, nnz, then row_ptr (nrows + 1), col (nnz) as int32 and
// val (nnz) as float32.
struct Csr {
  int nrows, ncols, nnz;
  int *row_ptr, *col;
  float *val;
};

static bool read_matrix(const char *path, Csr &a) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  int head[3];
  if (fread(head, sizeof(int), 3, f) != 3) {
    fclose(f);
    return false;
  }
  a.nrows = head[0];
  a.ncols = head[1];
  a.nnz = head[2];
  a.row_ptr = (int *)malloc((a.nrows + 1) * sizeof(int));
  a.col = (int *)malloc(a.nnz * sizeof(int));
  a.val = (float *)malloc(a.nnz * sizeof(float));
  bool ok = fread(a.row_ptr, sizeof(int), a.nrows + 1, f) == (size_t)(a.nrows + 1) &&
            fread(a.col, sizeof(int), a.nnz, f) == (size_t)a.nnz &&
            fread(a.val, sizeof(float), a.nnz, f) == (size_t)a.nnz;
  fclose(f);
  return ok;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s matrix.bin\n", argv[0]);
    return 1;
  }
  Csr a;
  if (!read_matrix(argv[1], a)) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  const int nrows = a.nrows, ncols = a.ncols, nnz = a.nnz;
  float *x = (float *)malloc(ncols * sizeof(float));
  for (int c = 0; c < ncols; ++c)
    x[c] = 1.0f;

  int *d_row_ptr, *d_col;
  float *d_val, *d_x, *d_y;
  cudaMalloc(&d_row_ptr, (nrows + 1) * sizeof(int));
  cudaMalloc(&d_col, nnz * sizeof(int));
  cudaMalloc(&d_val, nnz * sizeof(float));
  cudaMalloc(&d_x, ncols * sizeof(float));
  cudaMalloc(&d_y, nrows * sizeof(float));
  cudaMemcpy(d_row_ptr, a.row_ptr, (nrows + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, a.col, nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_val, a.val, nnz * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x, ncols * sizeof(float), cudaMemcpyHostToDevice);

  // y = A x, one warp per row
  const int threads = 256;
  const int blocks = (nrows * 32 + threads - 1) / threads;
  spmv_vector<<<blocks, threads>>>(d_row_ptr, d_col, d_val, d_x, d_y, nrows);
  cudaDeviceSynchronize();

  float *y = (float *)malloc(nrows * sizeof(float));
  cudaMemcpy(y, d_y, nrows * sizeof(float), cudaMemcpyDeviceToHost);
  double total = 0;
  for (int r = 0; r < nrows; ++r)
    total += y[r];
  printf("sum of A x: %f\n", total);

  cudaFree(d_row_ptr);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(d_x);
  cudaFree(d_y);
  free(a.row_ptr);
  free(a.col);
  free(a.val);
  free(x);
  free(y);
  return 0;
}
