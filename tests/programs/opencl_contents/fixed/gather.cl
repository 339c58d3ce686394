__kernel void gather_add(__global const int *idx, __global const float *w, __global float *y, int n) {
    int i = get_global_id(0);
    if (i < n)
        y[idx[i]] += w[i];
}
