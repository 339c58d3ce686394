// expect: race global read-write line 17
// expect: race global write-write line 17
// (independent model: warp-race global read-write line 17 is folded into the race on the same lines)
// launch: grid=4 block=64 n=250 threshold=0 count=int32:1:zeros
// Count the values above a threshold into a single global counter.
// BUG: *count += 1 is a plain load/add/store.  Concurrent work-items (within a group and across
// groups) read the same old count and all but one increment are lost; the final count depends
// on the schedule.  Both kinds of conflict are real: load vs store (read-write) and store vs
// store (write-write, different work-groups storing different counts).
// Fixed version: counter_atomic.cl.

__kernel void count_above(__global const int *values, const int n, const int threshold,
                          __global int *count)
{
    const int gid = get_global_id(0);
    if (gid < n && values[gid] > threshold)
        *count += 1;
}
