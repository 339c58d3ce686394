// expect: race global read-write lines 20,22
// launch: grid=4 block=64
// In-place reversal of an array whose length is num_groups * 64: every work-group stages its
// block in local memory reversed and writes it to the mirror block.
// BUG: the mirror block belongs to another work-group, which may not have read it yet; work-
// groups are never ordered, so depending on the schedule a block can be overwritten before it
// is read and both halves end up with the same data.
// Fixed version: reverse_out_of_place.cl.

#define WG 64

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reverse_inplace(__global int *data)
{
    __local int tile[WG];
    const int lid = get_local_id(0);
    const int g = get_group_id(0);
    const int ng = get_num_groups(0);

    tile[WG - 1 - lid] = data[g * WG + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    data[(ng - 1 - g) * WG + lid] = tile[lid];
}
