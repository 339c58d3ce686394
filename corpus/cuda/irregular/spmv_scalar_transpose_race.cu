// expect: race global read-write line 24
// expect: race global write-write line 24
// launch: grid=1 block=128 nrows=128 row_ptr=int32:129:ramp col=int32:128:small val=float32:128 x=float32:128 y=float32:100:zeros
// Transposed CSR sparse matrix-vector product y += A^T x, scalar kernel (one thread per row):
// the thread of row r scatters val[k] * x[r] into y[col[k]] for every nonzero k of the row.
// BUG: the scatter is a plain `y[c] += ...`: two rows with a nonzero in the same column c (any
// matrix with a column holding two nonzeros of rows in different threads) race on y[c]
// (read-write and write-write) and lose contributions.  (spmv_scalar_transpose_fixed.cu uses
// atomicAdd.)
// Buffers: row_ptr holds the CSR row offsets (nrows + 1 of them, non-decreasing from 0), col the
// column indices (row_ptr[nrows] of them, each in [0, ncols)), val the nonzeros; x holds nrows
// floats, y ncols floats.
// Launch: ncols = 100: row_ptr=ramp gives every row one nonzero, col=small draws its column in
// [0, 100).

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
