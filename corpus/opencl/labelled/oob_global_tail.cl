// expect: out-of-bounds global line 12
// launch: grid=4 block=64 n=256 x=float32:256 d=float32:256
// constrain: len:x=n len:d=n
// Forward difference d[i] = x[i + 1] - x[i] of a signal of n samples.
// BUG: the guard is i < n, so the last work-item reads x[n], one element past the end of x.
// Fixed version: oob_global_tail_fixed.cl.

__kernel void forward_diff(__global const float *x, __global float *d, const int n)
{
    const int i = get_global_id(0);
    if (i < n)
        d[i] = x[i + 1] - x[i];
}
