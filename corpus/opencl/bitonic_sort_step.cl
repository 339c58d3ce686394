// expect: clean
// launch: grid=4 block=64 n=256 j=4 k=8
// One compare-and-exchange step of a bitonic sort over n = 2^m ints (the host calls it for
// k = 2, 4, ..., n and, for each k, j = k/2, k/4, ..., 1).  In one step the pairs (i, i ^ j)
// are disjoint and only the lower index of each pair touches it, so no two work-items
// access the same element.
// Buffers: data holds n ints; n is a power of two and j < n.

__kernel void bitonic_sort_step(__global int *data, const int n, const int j, const int k)
{
    uint i = get_global_id(0);
    uint ixj = i ^ (uint)j;

    if (i < (uint)n && ixj > i && ixj < (uint)n) {
        int a = data[i];
        int b = data[ixj];
        bool ascending = (i & (uint)k) == 0;
        if ((ascending && a > b) || (!ascending && a < b)) {
            data[i] = b;
            data[ixj] = a;
        }
    }
}
