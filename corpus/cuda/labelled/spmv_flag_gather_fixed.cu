// expect: clean
// launch: grid=2 block=128 nrows=200 row_ptr=int32:256:ramp col=int32:256:ramp val=float32:256 x=float32:256
// constrain: fill:row_ptr=ramp fill:col=ramp len:row_ptr=nrows+1
// CSR sparse matrix-vector product y = A x, one row per thread, in three phases:
// stage the block's row pointers, flag the non-empty rows (thread 0 also counts them for
// load-balancing statistics) and gather the products.
// The version of spmv_flag_gather_redundant.cu with only the two barriers that order
// something: s_ptr[tid + 1] is written by the neighbour, and thread 0 reads every flag.
// The result goes straight from the register to y.
// Buffers: row_ptr holds nrows + 1 offsets, col/val nnz entries, x the dense vector,
// y nrows floats, nonempty one int per block.

#define BLOCK 128

__global__ void spmv_csr_flagged(const int *row_ptr, const int *col, const float *val,
                                 const float *x, int nrows, float *y, int *nonempty) {
  __shared__ int s_ptr[BLOCK + 1];
  __shared__ int s_flag[BLOCK];
  const int tid = threadIdx.x;
  const int row0 = blockIdx.x * BLOCK;
  const int row = row0 + tid;

  // phase 1: row pointers of the block (rows past the end are empty)
  s_ptr[tid] = row < nrows ? row_ptr[row] : row_ptr[nrows];
  if (tid == 0) s_ptr[BLOCK] = row_ptr[min(row0 + BLOCK, nrows)];
  __syncthreads();

  // phase 2: flags
  const int start = s_ptr[tid], end = s_ptr[tid + 1];
  s_flag[tid] = end > start;
  __syncthreads();
  if (tid == 0) {
    int count = 0;
    for (int k = 0; k < BLOCK; ++k) count += s_flag[k];
    nonempty[blockIdx.x] = count;
  }

  // phase 3: gather
  float sum = 0.0f;
  if (s_flag[tid])
    for (int k = start; k < end; ++k) sum += val[k] * x[col[k]];
  if (row < nrows) y[row] = sum;
}
