// expect: race shared read-write line 42
// expect: race shared write-write line 42
// launch: grid=2 block=256 n=512 op=9 keys=int32:512 vals=int32:512 out=int32:32
// Per-work-group reduction of values into 16 bins chosen by the low bits of a key.  The
// opcode picks the reduction: OP_COUNT (0, and any unknown opcode), OP_SUM (1), OP_MIN (2),
// OP_MAX (3) and, among the extended opcodes that start at 8, OP_MAXABS (9: largest |v|).
// The basic opcodes update the local bins with atomic_inc/add/min/max: correct.
// BUG (gated on op == 9): the extended opcode was added later as a plain read-modify-write,
// bins[b] = max(bins[b], |v|).  256 work-items share 16 bins, so work-items of different
// sub-groups load and store the same bin with nothing ordering them (read-write), and store
// different maxima to it (write-write): updates are lost.  (atomic_max would be correct.)
// Buffers: keys and vals hold n ints, out 16 ints per work-group.

#define WG 256
#define NBINS 16
#define OP_SUM 1
#define OP_MIN 2
#define OP_MAX 3
#define OP_MAXABS 9

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void bin_reduce(__global const int *keys, __global const int *vals, __global int *out,
                const int n, const int op)
{
    __local int bins[NBINS];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    if (lid < NBINS)
        bins[lid] = op == OP_MIN ? INT_MAX : (op == OP_MAX ? INT_MIN : 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (gid < n) {
        const int b = keys[gid] & (NBINS - 1);
        const int v = vals[gid];
        if (op == OP_SUM)
            atomic_add(&bins[b], v);
        else if (op == OP_MIN)
            atomic_min(&bins[b], v);
        else if (op == OP_MAX)
            atomic_max(&bins[b], v);
        else if (op == OP_MAXABS)
            bins[b] = max(bins[b], (int)abs(v));
        else
            atomic_inc(&bins[b]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < NBINS)
        out[get_group_id(0) * NBINS + lid] = bins[lid];
}
