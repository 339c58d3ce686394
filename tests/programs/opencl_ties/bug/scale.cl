__kernel void scale(__global const float *a, int lda, __global float *c, int ldc, float alpha) {
    int col = get_global_id(0), row = get_global_id(1);
    c[row * ldc + col] = alpha * a[row * lda + col];
}
