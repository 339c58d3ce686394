// expect: clean
// launch: grid=4 block=128 n=3000
// 256-bin histogram of bytes.  Each work-group counts into a private copy in local memory
// with local atomics, then adds its non-zero bins to the global histogram with global
// atomics.  The barriers separate clearing, counting and merging the local copy.
// Buffers: data holds n bytes, hist holds 256 uints (zero before the launch).

#define BINS 256
#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void histogram256(__global const uchar *data, __global uint *hist, const int n)
{
    __local uint local_hist[BINS];
    int lid = get_local_id(0);

    for (int b = lid; b < BINS; b += WG)
        local_hist[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&local_hist[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int b = lid; b < BINS; b += WG) {
        uint count = local_hist[b];
        if (count != 0)
            atomic_add(&hist[b], count);
    }
}
