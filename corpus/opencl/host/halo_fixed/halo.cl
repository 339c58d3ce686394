// expect: clean
// launch: grid=4 block=64 n=256 out=float32:256 in=float32:257
// Host pair: every work-item adds its right neighbour, so the input needs n + 1 values; host.c
// allocates (n + 1) * sizeof(float) for the input and passes n = 256 with clSetKernelArg.
// FIXED version of host/halo_short (only the host allocation differs).
__kernel void halo(__global float *out, __global const float *in, int n) {
    int g = get_global_id(0);
    if (g < n)
        out[g] = in[g] + in[g + 1];
}
