// expect: out-of-bounds global line 9
// launch: grid=4 block=64 n=256 out=float32:256 in=float32:256
// Host pair: every work-item adds its right neighbour, so the input needs n + 1 values; host.c
// allocates the input buffer with clCreateBuffer(n * sizeof(float)) and passes n = 256 with
// clSetKernelArg: the last work-item reads one float past the end of the buffer.
__kernel void halo(__global float *out, __global const float *in, int n) {
    int g = get_global_id(0);
    if (g < n)
        out[g] = in[g] + in[g + 1];
}
