__kernel void slots(__global int *pos, int n) {
    int t = get_global_id(0);
    if (t < n)
        pos[t] = t;
}

__kernel void pack(__global const float *in, __global const int *pos, __global float *out, int n) {
    int t = get_global_id(0);
    if (t < n)
        out[pos[t]] = in[t];
}
