// Asynchronous work-group copies (async_work_group_copy, async_work_group_strided_copy,
// wait_group_events, prefetch) between global and local memory.

// Each group copies its (possibly partial) block into local memory, adds the right neighbour
// (within the block, cyclically) and copies the reversed sums back.
__kernel void async_block_sum(__global const float* in, __global float* out,
                              __local float* tile, __local float* rev, const int n)
{
    const int lid = get_local_id(0);
    const int lsize = get_local_size(0);
    const int base = get_group_id(0) * lsize;
    const int count = min(lsize, n - base);

    prefetch(in + base, count);
    event_t e = async_work_group_copy(tile, in + base, count, 0);
    wait_group_events(1, &e);
    if (lid < count)
        rev[count - 1 - lid] = tile[lid] + tile[(lid + 1) % count];
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_copy(out + base, rev, count, 0);
    wait_group_events(1, &e);
}

// Group g gathers column g of a rows x cols matrix (strided copy to local memory), doubles
// it and adds the row index, then scatters it to column g of the output (strided copy back).
// Two copies share one event.
__kernel void async_column_scale(__global const int* in, __global int* out, __global int* first,
                                 __local int* col, __local int* head, const int rows, const int cols)
{
    const int g = get_group_id(0);
    const int lid = get_local_id(0);
    const int lsize = get_local_size(0);

    event_t e = async_work_group_strided_copy(col, in + g, rows, cols, 0);
    e = async_work_group_copy(head, in + g * cols, 1, e);
    wait_group_events(1, &e);
    for (int r = lid; r < rows; r += lsize)
        col[r] = 2 * col[r] + r + head[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t f = async_work_group_strided_copy(out + g, col, rows, cols, 0);
    event_t h = async_work_group_copy(first + g, head, 1, 0);
    event_t both[2] = {f, h};
    wait_group_events(2, both);
}

// int4 elements: each group copies its block of int4 in, adds the local id of the reader to a
// neighbour's vector, and copies the result out.
__kernel void async_int4(__global const int4* in, __global int4* out, __local int4* a,
                         __local int4* b)
{
    const int lid = get_local_id(0);
    const int lsize = get_local_size(0);
    const int base = get_group_id(0) * lsize;

    event_t e = async_work_group_copy(a, in + base, lsize, 0);
    wait_group_events(1, &e);
    b[lid] = a[lsize - 1 - lid] + (int4)(lid, 2 * lid, 3 * lid, 4 * lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_copy(out + base, b, lsize, 0);
    wait_group_events(1, &e);
}
