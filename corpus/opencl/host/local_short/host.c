#include <CL/cl.h>

int main(void) {
    cl_context ctx;
    cl_command_queue q;
    cl_program program;
    cl_int err;
    const char *file = "stage.cl";
    (void)file;
    clBuildProgram(program, 0, NULL, NULL, NULL, NULL);
    cl_kernel k = clCreateKernel(program, "stage", &err);
    size_t global = 512, local = 128;
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, global * sizeof(float), NULL, &err);
    clSetKernelArg(k, 0, sizeof(cl_mem), &out);
    clSetKernelArg(k, 1, 64 * sizeof(float), NULL);
    clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    clFinish(q);
    return 0;
}
