// expect: clean
// launch: grid=4 block=64 n=256
// 1-2-1 smoothing of a signal.
// FIXED version of smooth_inplace_global.cl: the result goes to a separate buffer; the two end
// points are copied.

__kernel void smooth(__global const float *x, __global float *y, const int n)
{
    const int i = get_global_id(0);
    if (i > 0 && i < n - 1)
        y[i] = 0.25f * x[i - 1] + 0.5f * x[i] + 0.25f * x[i + 1];
    else if (i < n)
        y[i] = x[i];
}
