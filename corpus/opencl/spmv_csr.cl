// expect: clean
// launch: grid=2 block=64 num_rows=100 num_cols=80 nnz=400
// y = A * x for a sparse matrix A in CSR form, one work-item per row.  Row bounds and column
// indices are clamped to the arrays' extents, so malformed input cannot read out of bounds.
// Buffers: row_ptr holds num_rows + 1 ints, col_idx and vals hold nnz entries,
// x holds num_cols floats, y holds num_rows floats.

__kernel void spmv_csr_scalar(const int num_rows, const int num_cols, const int nnz,
                              __global const int *row_ptr, __global const int *col_idx,
                              __global const float *vals, __global const float *x,
                              __global float *y)
{
    int row = get_global_id(0);
    if (row < num_rows) {
        int start = clamp(row_ptr[row], 0, nnz);
        int end = clamp(row_ptr[row + 1], start, nnz);
        float dot = 0.0f;
        for (int jj = start; jj < end; ++jj) {
            int col = col_idx[jj];
            if (col >= 0 && col < num_cols)
                dot += vals[jj] * x[col];
        }
        y[row] = dot;
    }
}
