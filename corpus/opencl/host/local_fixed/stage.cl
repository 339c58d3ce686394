// expect: clean
// launch: grid=4 block=128 out=float32:512 tmp=local:512
// Host pair: host.c launches groups of 128 work-items and gives the __local scratch argument 128
// floats (clSetKernelArg(k, 1, local * sizeof(float), NULL)): one slot per work-item.
// FIXED version of host/local_short (only the host size differs).
__kernel void stage(__global float *out, __local float *tmp) {
    int t = get_local_id(0);
    tmp[t] = out[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[get_local_size(0) - 1 - t];
}
