// Sparse matrix times vector, y = A x, with data-dependent loops over rows.

// CSR, one row per work-item.
__kernel void spmv_csr_scalar(__global const int* row_ptr, __global const int* col_idx,
                              __global const float* vals, __global const float* x,
                              __global float* y, const int nrows)
{
    const int row = get_global_id(0);
    if (row >= nrows)
        return;
    float sum = 0.0f;
    const int end = row_ptr[row + 1];
    for (int p = row_ptr[row]; p < end; ++p)
        sum += vals[p] * x[col_idx[p]];
    y[row] = sum;
}

// CSR, one work-group per row (groups loop over rows); the lanes' strided partial sums
// are combined by a tree in local memory (partial holds local size floats, power of two).
__kernel void spmv_csr_vector(__global const int* row_ptr, __global const int* col_idx,
                              __global const float* vals, __global const float* x,
                              __global float* y, __local float* partial, const int nrows)
{
    const int lid = get_local_id(0);
    const int lsize = get_local_size(0);
    for (int row = get_group_id(0); row < nrows; row += get_num_groups(0)) {
        float sum = 0.0f;
        const int end = row_ptr[row + 1];
        for (int p = row_ptr[row] + lid; p < end; p += lsize)
            sum += vals[p] * x[col_idx[p]];
        partial[lid] = sum;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int s = lsize / 2; s > 0; s >>= 1) {
            if (lid < s)
                partial[lid] += partial[lid + s];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lid == 0)
            y[row] = partial[0];
        barrier(CLK_LOCAL_MEM_FENCE);   // partial is reused by the next row
    }
}

// Integer CSR with a while loop, skipping explicit zeros and stopping a row early once
// its running sum leaves [-limit, limit] (the row then reports the saturated value).
__kernel void spmv_csr_i32(__global const int* row_ptr, __global const int* col_idx,
                           __global const int* vals, __global const int* x,
                           __global int* y, __global int* visited, const int nrows,
                           const int limit)
{
    const int row = get_global_id(0);
    if (row >= nrows)
        return;
    int p = row_ptr[row];
    const int end = row_ptr[row + 1];
    int sum = 0;
    int seen = 0;
    while (p < end) {
        const int v = vals[p];
        const int c = col_idx[p];
        ++p;
        ++seen;
        if (v == 0)
            continue;
        sum += v * x[c];
        if (sum > limit) {
            sum = limit;
            break;
        }
        if (sum < -limit) {
            sum = -limit;
            break;
        }
    }
    y[row] = sum;
    visited[row] = seen;
}

// ELLPACK, column-major (entry k of row r at k * nrows + r); col = -1 pads a row and
// ends it.
__kernel void spmv_ell(__global const int* cols, __global const float* vals,
                       __global const float* x, __global float* y, const int nrows,
                       const int width)
{
    const int row = get_global_id(0);
    if (row >= nrows)
        return;
    float sum = 0.0f;
    for (int k = 0; k < width; ++k) {
        const int c = cols[k * nrows + row];
        if (c < 0)
            break;
        sum += vals[k * nrows + row] * x[c];
    }
    y[row] = sum;
}
