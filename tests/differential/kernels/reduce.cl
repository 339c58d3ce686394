// Tree reductions: every work-group writes one partial result.

// Interleaved addressing (stride doubles, active items spread out); any local size.
__kernel void reduce_interleaved_f32(__global const float* in, __global float* out,
                                     __local float* scratch, const int n)
{
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);
    const int lsize = get_local_size(0);

    scratch[lid] = gid < n ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 1; s < lsize; s *= 2) {
        if (lid % (2 * s) == 0 && lid + s < lsize)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}

// Sequential addressing after a grid-stride accumulation; any local size (the tree
// covers the next power of two and skips partners past the end).
__kernel void reduce_sequential_f32(__global const float* in, __global float* out,
                                    __local float* scratch, const int n)
{
    const int lid = get_local_id(0);
    const int lsize = get_local_size(0);
    const int stride = get_global_size(0);

    float acc = 0.0f;
    for (int i = get_global_id(0); i < n; i += stride)
        acc += in[i];
    scratch[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);

    int p = 1;
    while (p < lsize)
        p <<= 1;
    for (int s = p >> 1; s > 0; s >>= 1) {
        if (lid < s && lid + s < lsize)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}

#define RED_MAX_BLOCK 256

// Two loads per item, then a fully unrolled tree whose last "warp" steps keep their
// barriers.  The local size must be a power of two between 64 and 256.
__kernel void reduce_unrolled_i32(__global const int* in, __global int* out, const int n)
{
    __local int sdata[RED_MAX_BLOCK];
    const uint lid = get_local_id(0);
    const uint lsize = get_local_size(0);
    const uint i = get_group_id(0) * (lsize * 2) + lid;

    int v = 0;
    if (i < (uint)n)
        v = in[i];
    if (i + lsize < (uint)n)
        v += in[i + lsize];
    sdata[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);

    if (lsize >= 256) {
        if (lid < 128)
            sdata[lid] += sdata[lid + 128];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lsize >= 128) {
        if (lid < 64)
            sdata[lid] += sdata[lid + 64];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid < 32) sdata[lid] += sdata[lid + 32];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 16) sdata[lid] += sdata[lid + 16];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 8) sdata[lid] += sdata[lid + 8];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 4) sdata[lid] += sdata[lid + 4];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 2) sdata[lid] += sdata[lid + 2];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        out[get_group_id(0)] = sdata[0] + sdata[1];
}

// Minimum and maximum at once, two local arrays; any local size.
__kernel void reduce_minmax_f32(__global const float* in, __global float* out_min,
                                __global float* out_max, __local float* smin,
                                __local float* smax, const int n)
{
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);
    const int lsize = get_local_size(0);

    float lo = INFINITY, hi = -INFINITY;
    if (gid < n) {
        lo = in[gid];
        hi = lo;
    }
    smin[lid] = lo;
    smax[lid] = hi;
    barrier(CLK_LOCAL_MEM_FENCE);

    int p = 1;
    while (p < lsize)
        p <<= 1;
    for (int s = p >> 1; s > 0; s >>= 1) {
        if (lid < s && lid + s < lsize) {
            smin[lid] = fmin(smin[lid], smin[lid + s]);
            smax[lid] = fmax(smax[lid], smax[lid + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        out_min[get_group_id(0)] = smin[0];
        out_max[get_group_id(0)] = smax[0];
    }
}

// Global max / min / count of negatives through local then global atomics (the results
// do not depend on the order of the atomic operations).
// result must hold {INT_MIN, INT_MAX, 0} on entry.
__kernel void reduce_atomic_i32(__global const int* in, __global int* result, const int n)
{
    __local int lmax;
    __local int lmin;
    __local int lneg;
    if (get_local_id(0) == 0) {
        lmax = INT_MIN;
        lmin = INT_MAX;
        lneg = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        const int v = in[i];
        atomic_max(&lmax, v);
        atomic_min(&lmin, v);
        if (v < 0)
            atomic_inc(&lneg);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    if (get_local_id(0) == 0) {
        atomic_max(&result[0], lmax);
        atomic_min(&result[1], lmin);
        atomic_add(&result[2], lneg);
    }
}

// 64-bit unsigned sum with wrap-around; power-of-two local size.
__kernel void reduce_sum_u64(__global const ulong* in, __global ulong* out,
                             __local ulong* scratch, const int n)
{
    const uint lid = get_local_id(0);
    const int gid = get_global_id(0);

    scratch[lid] = gid < n ? in[gid] : 0UL;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}
