// expect: clean
// launch: grid=3 block=256 n=700
// Inclusive prefix sum of each 256-element block (Hillis-Steele), double-buffered in local
// memory so that no step reads a slot another work-item is writing in the same step.  The
// total of each block goes to block_sums (for a second pass that adds the block offsets).
// Buffers: in and out hold n ints, block_sums holds one int per work-group.

#define WG 256

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan_hillis_steele(__global const int *in, __global int *out, __global int *block_sums,
                        const int n)
{
    __local int buf[2][WG];
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    int pout = 0;
    int pin = 1;

    buf[pout][lid] = (gid < n) ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int offset = 1; offset < WG; offset <<= 1) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (lid >= offset)
            buf[pout][lid] = buf[pin][lid] + buf[pin][lid - offset];
        else
            buf[pout][lid] = buf[pin][lid];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (gid < n)
        out[gid] = buf[pout][lid];
    if (lid == WG - 1)
        block_sums[get_group_id(0)] = buf[pout][lid];
}
