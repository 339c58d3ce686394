// expect: benign-race shared line 21
// launch: grid=4 block=128
// Mark every block that contains a negative value.
// BENIGN RACE: every work-item that sees a negative value stores the same constant 1 into the
// group's local flag; the unordered stores cannot produce any other value.  (Formally still a
// data race in OpenCL C; an atomic_or or atomic_xchg would make it well defined.)

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void flag_negative_blocks(__global const int *values, __global int *block_has_negative)
{
    __local int any_negative;
    const int lid = get_local_id(0);

    if (lid == 0)
        any_negative = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    if (values[get_global_id(0)] < 0)
        any_negative = 1;
    barrier(CLK_LOCAL_MEM_FENCE);

    if (lid == 0)
        block_has_negative[get_group_id(0)] = any_negative;
}
