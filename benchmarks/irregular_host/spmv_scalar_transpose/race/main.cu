// spmv_scalar_transpose: the racy twin of corpus/cuda/irregular/spmv_scalar_transpose_race.cu as a whole program.
// The kernel code below is the corpus file's, unchanged; main() reads its input from the file named
// on the command line, so the contents (and the sizes) are known only at run time.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void spmv_t(const int *row_ptr, const int *col, const float *val, const float *x,
                       float *y, int nrows) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nrows) return;
  const float xr = x[r];
  const int beg = row_ptr[r], end = row_ptr[r + 1];
  for (int k = beg; k < end; ++k) {
    const int c = col[k];
    y[c] += val[k] * xr;
  }
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
  float *x = (float *)malloc(nrows * sizeof(float));
  for (int r = 0; r < nrows; ++r)
    x[r] = 1.0f;

  int *d_row_ptr, *d_col;
  float *d_val, *d_x, *d_y;
  cudaMalloc(&d_row_ptr, (nrows + 1) * sizeof(int));
  cudaMalloc(&d_col, nnz * sizeof(int));
  cudaMalloc(&d_val, nnz * sizeof(float));
  cudaMalloc(&d_x, nrows * sizeof(float));
  cudaMalloc(&d_y, ncols * sizeof(float));
  cudaMemcpy(d_row_ptr, a.row_ptr, (nrows + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, a.col, nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_val, a.val, nnz * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x, nrows * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_y, 0, ncols * sizeof(float));

  // y = A^T x, one thread per row of A
  const int threads = 256;
  spmv_t<<<(nrows + threads - 1) / threads, threads>>>(d_row_ptr, d_col, d_val, d_x, d_y, nrows);
  cudaDeviceSynchronize();

  float *y = (float *)malloc(ncols * sizeof(float));
  cudaMemcpy(y, d_y, ncols * sizeof(float), cudaMemcpyDeviceToHost);
  double total = 0;
  for (int c = 0; c < ncols; ++c)
    total += y[c];
  printf("sum of A^T x: %f\n", total);

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
