// Prefix sums within work-groups.

// Hillis-Steele inclusive scan, double-buffered in local memory (buf holds 2 * local
// size floats); any local size.
__kernel void scan_hillis_steele_f32(__global const float* in, __global float* out,
                                     __local float* buf, const int n)
{
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);
    const int lsize = get_local_size(0);
    int pout = 0;

    buf[lid] = gid < n ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int offset = 1; offset < lsize; offset *= 2) {
        pout = 1 - pout;
        const int pin = 1 - pout;
        float v = buf[pin * lsize + lid];
        if (lid >= offset)
            v += buf[pin * lsize + lid - offset];
        buf[pout * lsize + lid] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (gid < n)
        out[gid] = buf[pout * lsize + lid];
}

#define SCAN_MAX_BLOCK 256

// Hillis-Steele inclusive scan in place: read, barrier, write, barrier.
__kernel void scan_hillis_steele_inplace_i32(__global const int* in, __global int* out, const int n)
{
    __local int tmp[SCAN_MAX_BLOCK];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);
    const int lsize = get_local_size(0);

    tmp[lid] = gid < n ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int offset = 1; offset < lsize; offset <<= 1) {
        const int add = lid >= offset ? tmp[lid - offset] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[lid] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (gid < n)
        out[gid] = tmp[lid];
}

// Blelloch work-efficient exclusive scan: each item owns two elements, so a group scans
// 2 * local size elements (temp holds that many ints).  Power-of-two local size.
// block_sums[g] receives the total of group g.
__kernel void scan_blelloch_i32(__global const int* in, __global int* out,
                                __global int* block_sums, __local int* temp, const int n)
{
    const int lid = get_local_id(0);
    const int m = 2 * get_local_size(0);
    const int base = get_group_id(0) * m;

    temp[2 * lid] = base + 2 * lid < n ? in[base + 2 * lid] : 0;
    temp[2 * lid + 1] = base + 2 * lid + 1 < n ? in[base + 2 * lid + 1] : 0;

    int offset = 1;
    for (int d = m >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            const int ai = offset * (2 * lid + 1) - 1;
            const int bi = offset * (2 * lid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        block_sums[get_group_id(0)] = temp[m - 1];
        temp[m - 1] = 0;
    }
    for (int d = 1; d < m; d *= 2) {
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            const int ai = offset * (2 * lid + 1) - 1;
            const int bi = offset * (2 * lid + 2) - 1;
            const int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (base + 2 * lid < n)
        out[base + 2 * lid] = temp[2 * lid];
    if (base + 2 * lid + 1 < n)
        out[base + 2 * lid + 1] = temp[2 * lid + 1];
}

#define BLELLOCH_MAX 512

// The same work-efficient exclusive scan on floats with a fixed-size local array.
__kernel void scan_blelloch_f32(__global const float* in, __global float* out, const int n)
{
    __local float temp[BLELLOCH_MAX];
    const int lid = get_local_id(0);
    const int m = 2 * get_local_size(0);
    const int base = get_group_id(0) * m;

    temp[2 * lid] = base + 2 * lid < n ? in[base + 2 * lid] : 0.0f;
    temp[2 * lid + 1] = base + 2 * lid + 1 < n ? in[base + 2 * lid + 1] : 0.0f;

    int offset = 1;
    for (int d = m >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d)
            temp[offset * (2 * lid + 2) - 1] += temp[offset * (2 * lid + 1) - 1];
        offset *= 2;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        temp[m - 1] = 0.0f;
    for (int d = 1; d < m; d *= 2) {
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            const int ai = offset * (2 * lid + 1) - 1;
            const int bi = offset * (2 * lid + 2) - 1;
            const float t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (base + 2 * lid < n)
        out[base + 2 * lid] = temp[2 * lid];
    if (base + 2 * lid + 1 < n)
        out[base + 2 * lid + 1] = temp[2 * lid + 1];
}

#define CHUNK 4

// Hybrid per-group inclusive scan: each item scans CHUNK consecutive elements in
// registers, the chunk totals are scanned in local memory (Hillis-Steele, in place),
// and each item adds the total of the chunks before it.  Unsigned, so sums wrap.
__kernel void scan_chunked_u32(__global const uint* in, __global uint* out,
                               __local uint* totals, const int n)
{
    const int lid = get_local_id(0);
    const int lsize = get_local_size(0);
    const int first = (get_group_id(0) * lsize + lid) * CHUNK;
    uint vals[CHUNK];

    uint run = 0;
    for (int k = 0; k < CHUNK; ++k) {
        const int idx = first + k;
        run += idx < n ? in[idx] : 0u;
        vals[k] = run;
    }
    totals[lid] = run;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int offset = 1; offset < lsize; offset <<= 1) {
        const uint add = lid >= offset ? totals[lid - offset] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        totals[lid] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const uint before = lid > 0 ? totals[lid - 1] : 0u;
    for (int k = 0; k < CHUNK; ++k) {
        if (first + k < n)
            out[first + k] = vals[k] + before;
    }
}

// Second pass of a multi-group scan: add each group's offset to its elements (each
// group covers per_group consecutive elements, items loop over them).
__kernel void scan_add_offsets_i32(__global int* data, __global const int* offsets,
                                   const int per_group, const int n)
{
    const int g = get_group_id(0);
    const int add = offsets[g];
    for (int k = get_local_id(0); k < per_group; k += get_local_size(0)) {
        const int idx = g * per_group + k;
        if (idx < n)
            data[idx] += add;
    }
}
