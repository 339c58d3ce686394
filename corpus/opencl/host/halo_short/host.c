#include <CL/cl.h>

#define N 256

int main(void) {
    cl_context ctx;
    cl_command_queue q;
    cl_program program;
    cl_int err;
    const char *name = "halo.cl";
    (void)name;
    clBuildProgram(program, 0, NULL, NULL, NULL, NULL);
    cl_kernel k = clCreateKernel(program, "halo", &err);
    int n = N;
    size_t global[1] = {N}, local[1] = {64};
    cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(float), NULL, &err);
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY, n * sizeof(float), NULL, &err);
    clSetKernelArg(k, 0, sizeof(cl_mem), &out);
    clSetKernelArg(k, 1, sizeof(cl_mem), &in);
    clSetKernelArg(k, 2, sizeof(int), &n);
    clEnqueueNDRangeKernel(q, k, 1, NULL, global, local, 0, NULL, NULL);
    clFinish(q);
    return 0;
}
