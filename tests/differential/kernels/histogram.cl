// Histograms with integer atomics (the counts do not depend on the order of the adds).
// The hist buffers start zeroed.

// Global atomics only, grid-stride loop.
__kernel void hist_global_u32(__global const uint* data, __global uint* hist,
                              const int n, const uint nbins)
{
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&hist[data[i] % nbins]);
}

#define NBINS 64

// Private-per-group histogram in local memory, merged with one global add per bin.
__kernel void hist_local_u32(__global const uint* data, __global uint* hist, const int n)
{
    __local uint lh[NBINS];
    const int lid = get_local_id(0);
    const int lsize = get_local_size(0);
    for (int b = lid; b < NBINS; b += lsize)
        lh[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&lh[data[i] & (NBINS - 1)]);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int b = lid; b < NBINS; b += lsize) {
        const uint c = lh[b];
        if (c != 0)
            atomic_add(&hist[b], c);
    }
}

// Bin count chosen at run time, local histogram passed as a __local pointer.
__kernel void hist_local_dyn_u32(__global const int* data, __global uint* hist,
                                 __local uint* lh, const int n, const int nbins)
{
    const int lid = get_local_id(0);
    const int lsize = get_local_size(0);
    for (int b = lid; b < nbins; b += lsize)
        lh[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    const int groups = get_num_groups(0);
    for (int i = get_group_id(0) * lsize + lid; i < n; i += groups * lsize) {
        int v = data[i] % nbins;      // data may be negative: C remainder keeps the sign
        if (v < 0)
            v += nbins;
        atomic_add(&lh[v], 1u);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int b = lid; b < nbins; b += lsize)
        atomic_add(&hist[b], lh[b]);
}

// Float data binned by (x - lo) * scale, clamped into [0, nbins - 1].
__kernel void hist_float_bins(__global const float* x, __global int* hist, const int n,
                              const float lo, const float scale, const int nbins)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    int b = convert_int_rtz((x[i] - lo) * scale);
    b = clamp(b, 0, nbins - 1);
    atomic_add(&hist[b], 1);
}

// Four 256-bin histograms (one per RGBA channel) of uchar4 pixels, in local memory.
__kernel void hist_rgba(__global const uchar4* pixels, __global uint* hist, const int n)
{
    __local uint lh[4 * 256];
    const int lid = get_local_id(0);
    const int lsize = get_local_size(0);
    for (int b = lid; b < 4 * 256; b += lsize)
        lh[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        const uchar4 p = pixels[i];
        atomic_inc(&lh[p.x]);
        atomic_inc(&lh[256 + p.y]);
        atomic_inc(&lh[512 + p.z]);
        atomic_inc(&lh[768 + p.w]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int b = lid; b < 4 * 256; b += lsize)
        if (lh[b])
            atomic_add(&hist[b], lh[b]);
}
