// Bitonic sorting networks.

// Each group sorts its chunk of 2 * local size floats ascending in local memory (s holds
// 2 * local size floats); missing elements are padded with +inf.  Power-of-two local size.
__kernel void bitonic_sort_local_f32(__global float* data, __local float* s, const int n)
{
    const uint lid = get_local_id(0);
    const uint L = 2 * get_local_size(0);
    const int base = get_group_id(0) * L;

    s[lid] = base + (int)lid < n ? data[base + lid] : INFINITY;
    s[lid + L / 2] = base + (int)(lid + L / 2) < n ? data[base + lid + L / 2] : INFINITY;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint k = 2; k <= L; k <<= 1) {
        for (uint j = k >> 1; j > 0; j >>= 1) {
            const uint i = 2 * lid - (lid & (j - 1));   // lower index of this item's pair
            const bool up = (i & k) == 0;
            const float a = s[i];
            const float b = s[i + j];
            if ((a > b) == up) {
                s[i] = b;
                s[i + j] = a;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }

    if (base + (int)lid < n)
        data[base + lid] = s[lid];
    if (base + (int)(lid + L / 2) < n)
        data[base + lid + L / 2] = s[lid + L / 2];
}

#define KV_MAX 512

// Key/value sort, descending by key, one item per element (local size = chunk, power of
// two, at most KV_MAX); missing elements get key 0, which sorts last.
__kernel void bitonic_sort_kv_desc(__global uint* keys, __global int* values, const int n)
{
    __local uint sk[KV_MAX];
    __local int sv[KV_MAX];
    const uint lid = get_local_id(0);
    const uint L = get_local_size(0);
    const int gid = get_global_id(0);

    sk[lid] = gid < n ? keys[gid] : 0u;
    sv[lid] = gid < n ? values[gid] : -1;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint k = 2; k <= L; k <<= 1) {
        for (uint j = k >> 1; j > 0; j >>= 1) {
            const uint partner = lid ^ j;
            uint myk = sk[lid];
            int myv = sv[lid];
            const uint ok = sk[partner];
            const int ov = sv[partner];
            // The lower index of the pair keeps the larger key in a descending run.
            const bool desc = (lid & k) == 0;
            const bool lower = lid < partner;
            const bool take = lower ? (desc ? ok > myk : ok < myk) : (desc ? ok < myk : ok > myk);
            barrier(CLK_LOCAL_MEM_FENCE);
            if (take) {
                myk = ok;
                myv = ov;
            }
            sk[lid] = myk;
            sv[lid] = myv;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }

    if (gid < n) {
        keys[gid] = sk[lid];
        values[gid] = sv[lid];
    }
}

// One compare-and-swap step (j, k) of a global bitonic sort over n = global size ints.
__kernel void bitonic_step_global(__global int* data, const int j, const int k)
{
    const int i = get_global_id(0);
    const int ixj = i ^ j;
    if (ixj > i) {
        const int a = data[i];
        const int b = data[ixj];
        const bool up = (i & k) == 0;
        if ((a > b) == up) {
            data[i] = b;
            data[ixj] = a;
        }
    }
}
