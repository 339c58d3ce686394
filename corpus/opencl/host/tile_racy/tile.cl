// expect: race shared write-write line 12
// launch: grid=8 block=128 n=1024 out=float32:1024 in=float32:1024
// Host pair: host.c builds this file with "-D TILE=64" and launches 1024 work-items in groups of 128,
// so work-items t and t+64 of a group write the same slot of the 64-slot tile.
#ifndef TILE
#error "TILE comes from the host's build options"
#endif
__kernel void tile_sum(__global float *out, __global const float *in, int n) {
    __local float s[TILE];
    int t = get_local_id(0);
    int g = get_global_id(0);
    s[t % TILE] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (g < n) out[g] = s[(t + 1) % TILE];
}
