// expect: clean
// launch: grid=4 block=64 n=250
// Element-wise c = a + b; the last work-group is only partly used (n is not a multiple of 64).
// Buffers: a, b, c hold n floats.

__kernel void vector_add(__global const float *a, __global const float *b, __global float *c,
                         const int n)
{
    int i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}
