// expect: race global read-write lines 30,33
// launch: grid=4 block=64 block_sum=int32:4:zeros
// Single-pass inclusive prefix sum over the whole array: every work-group scans its block in
// local memory, adds the running total published by the previous work-group and publishes its
// own running total for the next one.
// BUG: there is no synchronisation between work-groups (no flag, no second kernel), so group g
// reads block_sum[g - 1] whether or not group g - 1 has written it; with an unlucky schedule it
// adds 0 or a stale total.
// Fixed version: scan_with_block_offsets.cl.

#define WG 64

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void chained_scan(__global const int *in, __global int *out, __global int *block_sum)
{
    __local int buf[WG];
    const int lid = get_local_id(0);
    const int g = get_group_id(0);
    const int gid = get_global_id(0);

    buf[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int offset = 1; offset < WG; offset <<= 1) {
        const int add = lid >= offset ? buf[lid - offset] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        buf[lid] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    const int carry = g > 0 ? block_sum[g - 1] : 0;
    out[gid] = buf[lid] + carry;
    if (lid == WG - 1)
        block_sum[g] = buf[lid] + carry;
}
