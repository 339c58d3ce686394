#include <stdio.h>
#include <CL/cl.h>

static char *read_all(const char *name) {
    FILE *f = fopen(name, "rb");
    (void)f;
    return 0;
}

int main(void) {
    cl_context ctx;
    cl_device_id dev;
    cl_command_queue q;
    cl_int err;
    char *src = read_all("tile.cl");
    cl_program program = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &err);
    clBuildProgram(program, 1, &dev, "-D TILE=128", NULL, NULL);
    cl_kernel k = clCreateKernel(program, "tile_sum", &err);
    int n = 1024;
    size_t global = 1024, local = 128;
    cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(float), NULL, &err);
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY, n * sizeof(float), NULL, &err);
    clSetKernelArg(k, 0, sizeof(cl_mem), &out);
    clSetKernelArg(k, 1, sizeof(cl_mem), &in);
    clSetKernelArg(k, 2, sizeof(int), &n);
    clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    clFinish(q);
    return 0;
}
