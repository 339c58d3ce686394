// expect: clean
// launch: grid=4 block=128 n=500
// Work-group sum with sub-group built-ins (cl_khr_subgroups): every sub-group reduces its
// values with sub_group_reduce_add, one work-item per sub-group stores the result in local
// memory and work-item 0 adds those after a barrier.  No lockstep assumption: correct under
// both warp models.  Counterpart of warp_reduce_volatile.cl.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void block_sum_subgroups(__global const int *in, __global int *partial, const int n)
{
    __local int sg_sum[WG];
    const int gid = get_global_id(0);

    const int v = sub_group_reduce_add(gid < n ? in[gid] : 0);
    if (get_sub_group_local_id() == 0)
        sg_sum[get_sub_group_id()] = v;
    barrier(CLK_LOCAL_MEM_FENCE);

    if (get_local_id(0) == 0) {
        int total = 0;
        for (uint i = 0; i < get_num_sub_groups(); ++i)
            total += sg_sum[i];
        partial[get_group_id(0)] = total;
    }
}
