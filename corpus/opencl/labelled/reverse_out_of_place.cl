// expect: clean
// launch: grid=4 block=64
// Reversal of an array whose length is num_groups * 64: every work-group stages its block in
// local memory reversed and writes it to the mirror block.
// FIXED version of reverse_inplace_across_groups.cl: the result goes to a separate buffer, so
// no work-group overwrites data another one still has to read.

#define WG 64

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reverse(__global const int *in, __global int *out)
{
    __local int tile[WG];
    const int lid = get_local_id(0);
    const int g = get_group_id(0);
    const int ng = get_num_groups(0);

    tile[WG - 1 - lid] = in[g * WG + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[(ng - 1 - g) * WG + lid] = tile[lid];
}
