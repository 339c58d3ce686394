// expect: out-of-bounds shared line 9
// expect: out-of-bounds shared line 11
// launch: grid=4 block=128 out=float32:512 tmp=local:256
// Host pair: host.c launches groups of 128 work-items but gives the __local scratch argument only
// 64 floats (clSetKernelArg(k, 1, 64 * sizeof(float), NULL)): work-items 64..127 write past it, and
// the reversed read after the barrier reads past it.
__kernel void stage(__global float *out, __local float *tmp) {
    int t = get_local_id(0);
    tmp[t] = out[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[get_local_size(0) - 1 - t];
}
