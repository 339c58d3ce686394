// expect: race shared line 24
// (independent model: warp-race shared read-write line 24 is folded into the race on the same lines)
// launch: grid=4 block=128 n=2048 hist=uint32:64:zeros
// 64-bin histogram of 32-bit keys (key % 64) with a private copy per work-group in local
// memory, merged into the global histogram with global atomics.
// BUG: the local counters are incremented with a plain read-modify-write, so two work-items of
// a group that hit the same bin lose one of the two increments.
// Fixed version: histogram_local_atomic.cl.

#define BINS 64
#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void histogram_keys(__global const uint *keys, __global uint *hist, const int n)
{
    __local uint counts[BINS];
    const int lid = get_local_id(0);

    if (lid < BINS)
        counts[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        counts[keys[i] % BINS]++;
    barrier(CLK_LOCAL_MEM_FENCE);

    if (lid < BINS)
        atomic_add(&hist[lid], counts[lid]);
}
