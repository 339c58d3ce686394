// expect: redundant-barrier line 35
// expect: redundant-barrier line 49
// launch: grid=2 block=128 nrows=200 row_ptr=int32:256:ramp col=int32:256:ramp val=float32:256 x=float32:256
// constrain: fill:row_ptr=ramp fill:col=ramp len:row_ptr=nrows+1
// CSR sparse matrix-vector product y = A x, one row per thread, in three phases:
// stage the block's row pointers, flag the non-empty rows (thread 0 also counts them for
// load-balancing statistics) and gather the products.
// Barriers:
//  * after staging s_ptr: thread tid reads s_ptr[tid + 1] of its neighbour (needed);
//  * between reading the row bounds and writing the flags: s_ptr and s_flag are different
//    arrays and no thread writes s_ptr again (REDUNDANT);
//  * after the flags: thread 0 reads every flag (needed);
//  * after the gather: each thread reads back only its own s_y slot (REDUNDANT).
// Buffers: row_ptr holds nrows + 1 offsets, col/val nnz entries, x the dense vector,
// y nrows floats, nonempty one int per block.

#define BLOCK 128

__global__ void spmv_csr_flagged(const int *row_ptr, const int *col, const float *val,
                                 const float *x, int nrows, float *y, int *nonempty) {
  __shared__ int s_ptr[BLOCK + 1];
  __shared__ int s_flag[BLOCK];
  __shared__ float s_y[BLOCK];
  const int tid = threadIdx.x;
  const int row0 = blockIdx.x * BLOCK;
  const int row = row0 + tid;

  // phase 1: row pointers of the block (rows past the end are empty)
  s_ptr[tid] = row < nrows ? row_ptr[row] : row_ptr[nrows];
  if (tid == 0) s_ptr[BLOCK] = row_ptr[min(row0 + BLOCK, nrows)];
  __syncthreads();

  // phase 2: flags
  const int start = s_ptr[tid], end = s_ptr[tid + 1];
  __syncthreads();
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
  s_y[tid] = sum;
  __syncthreads();
  if (row < nrows) y[row] = s_y[tid];
}
