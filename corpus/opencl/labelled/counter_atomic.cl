// expect: clean
// launch: grid=4 block=64 n=250 threshold=0 count=int32:1:zeros
// Count the values above a threshold into a single global counter.
// FIXED version of counter_nonatomic.cl: atomic_inc.

__kernel void count_above(__global const int *values, const int n, const int threshold,
                          __global int *count)
{
    const int gid = get_global_id(0);
    if (gid < n && values[gid] > threshold)
        atomic_inc(count);
}
