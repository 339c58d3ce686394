// expect: clean
// launch: grid=8 block=128 n=1000 result=int32:1:zeros
// Integer dot product.  Each work-group reduces a[i] * b[i] over its 128 elements in local memory,
// then work-item 0 adds the group's result into *result.
// FIXED version of dot_product_nonatomic.cl: the cross-group accumulation is an atomic_add, so
// no contribution is lost; integer addition makes the result independent of the order.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void dot_product(__global const int *a, __global const int *b, __global int *result, const int n)
{
    __local int prod[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    prod[lid] = gid < n ? a[gid] * b[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            prod[lid] += prod[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (lid == 0)
        atomic_add(result, prod[0]);
}
