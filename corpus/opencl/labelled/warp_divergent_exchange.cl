// expect: race shared read-write lines 23,25
// expect: uninitialized shared line 25
// launch: grid=2 block=64
// Half-sub-group exchange: in every sub-group of 32, the lower 16 work-items publish a value
// and the upper 16 read it, with no barrier, relying on the sub-group running in lockstep.
// BUG: the two halves take the two sides of one if/else.  Even a lockstep sub-group runs the
// two sides one after the other in an order the hardware chooses, so the upper half may read
// before the lower half has stored (GKLEE's divergence race); a race under both warp models.
// In the order simu runs the two sides (else first) the reads also see never-written slots.

#define WG 64

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void half_swap(__global const float *in, __global float *out)
{
    __local float xch[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);
    const int lane = lid & 31;

    float v = in[gid];
    if (lane < 16) {
        xch[lid] = v;
    } else {
        v = v - xch[lid - 16];
    }
    out[gid] = v;
}
