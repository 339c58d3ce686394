// expect: clean
// launch: grid=2 block=256 n=512 mode=7 x=float32:512 y=float32:512
// Normalise each work-group's 256 values: NORM_L1 (0, and any unknown mode), NORM_L2 (1),
// NORM_MAX (2) divide by a norm; NORM_SOFTMAX (7) computes exp(v - max) / sum(exp(v - max)).
// group_reduce() starts with a barrier, reduces red[] as a tree and returns red[0] to all.
// FIX of softmax_mode_race.cl: between the two reductions of the softmax path a barrier makes
// every work-item finish reading the maximum from red[0] before red[] is refilled with the
// exponentials (the branch is uniform: mode is the same for the whole group).

#define WG 256
#define NORM_L2 1
#define NORM_MAX 2
#define NORM_SOFTMAX 7

float group_reduce(__local float *red, const int lid, const int take_max)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            red[lid] = take_max ? fmax(red[lid], red[lid + s]) : red[lid] + red[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return red[0];
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void normalise(__global const float *x, __global float *y, const int n, const int mode)
{
    __local float red[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);
    const bool in = gid < n;
    const float v = in ? x[gid] : 0.0f;

    if (mode == NORM_SOFTMAX) {
        red[lid] = in ? v : -FLT_MAX;
        const float m = group_reduce(red, lid, 1);
        const float e = in ? exp(v - m) : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);  // everyone has read the maximum from red[0]
        red[lid] = e;
        const float s = group_reduce(red, lid, 0);
        if (in) y[gid] = e / s;
        return;
    }
    red[lid] = mode == NORM_L2 ? v * v : fabs(v);
    float norm = group_reduce(red, lid, mode == NORM_MAX);
    if (mode == NORM_L2) norm = sqrt(norm);
    if (in) y[gid] = norm > 0.0f ? v / norm : 0.0f;
}
