// Benchmark kernels for `simu bench` (OpenCL C 1.2). Each is launched with >= 4096 work-items.

__kernel void reduction(__global const float *in, __global float *out, int n) {
  __local float tmp[256];
  int l = get_local_id(0);
  int g = get_global_id(0);
  tmp[l] = g < n ? in[g] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}

__kernel void scan(__global const int *in, __global int *out, int n) {
  __local int a[256];
  __local int b[256];
  int l = get_local_id(0);
  int g = get_global_id(0);
  a[l] = g < n ? in[g] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local int *src = a;
  __local int *dst = b;
  for (int off = 1; off < 256; off <<= 1) {
    dst[l] = l >= off ? src[l] + src[l - off] : src[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local int *t = src; src = dst; dst = t;
  }
  if (g < n) out[g] = src[l];
}

#define TILE 16
__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int n) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    As[ty][tx] = (row < n && t + tx < n) ? A[row * n + t + tx] : 0.0f;
    Bs[ty][tx] = (col < n && t + ty < n) ? B[(t + ty) * n + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < n && col < n) C[row * n + col] = acc;
}

__kernel void histogram(__global const uint *data, __global uint *bins, int n) {
  __local uint local_bins[64];
  int l = get_local_id(0);
  if (l < 64) local_bins[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_inc(&local_bins[data[i] % 64]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 64) atomic_add(&bins[l], local_bins[l]);
}

__kernel void stencil(__global const float *in, __global float *out, int n) {
  __local float tile[256 + 2];
  int l = get_local_id(0);
  int g = get_global_id(0);
  tile[l + 1] = g < n ? in[g] : 0.0f;
  if (l == 0) tile[0] = g > 0 ? in[g - 1] : 0.0f;
  if (l == get_local_size(0) - 1) tile[l + 2] = g + 1 < n ? in[g + 1] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (g < n) out[g] = 0.25f * tile[l] + 0.5f * tile[l + 1] + 0.25f * tile[l + 2];
}

__kernel void spmv(__global const int *rowptr, __global const int *cols, __global const float *vals,
                   __global const float *x, __global float *y, int rows) {
  int r = get_global_id(0);
  if (r < rows) {
    float sum = 0.0f;
    for (int j = rowptr[r]; j < rowptr[r + 1]; ++j) sum += vals[j] * x[cols[j]];
    y[r] = sum;
  }
}
