// expect: clean
// launch: grid=4 block=64 n=256 x=float32:256 d=float32:256
// Forward difference d[i] = x[i + 1] - x[i] of a signal of n samples (n - 1 differences).
// FIXED version of oob_global_tail.cl: the guard is i < n - 1.

__kernel void forward_diff(__global const float *x, __global float *d, const int n)
{
    const int i = get_global_id(0);
    if (i < n - 1)
        d[i] = x[i + 1] - x[i];
}
