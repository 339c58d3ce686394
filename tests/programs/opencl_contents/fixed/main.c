// The fixed twin of bug/main.c: the index list holds 0, 1, ..., n - 1, a permutation: no two threads add into one element.
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    cl_int err;
    cl_platform_id platform;
    cl_device_id device;
    clGetPlatformIDs(1, &platform, NULL);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
    const char *path = "gather.cl";
    cl_program p = clCreateProgramWithSource(ctx, 1, &path, NULL, &err);
    clBuildProgram(p, 1, &device, "", NULL, NULL);
    cl_kernel k = clCreateKernel(p, "gather_add", &err);

    int *idx = (int *)malloc(n * sizeof(int));
    float *w = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i) {
        idx[i] = i;
        w[i] = (float)rand() / RAND_MAX;
    }
    cl_mem d_idx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(int), idx, &err);
    cl_mem d_w = clCreateBuffer(ctx, CL_MEM_READ_ONLY, n * sizeof(float), NULL, &err);
    cl_mem d_y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
    clEnqueueWriteBuffer(q, d_w, CL_TRUE, 0, n * sizeof(float), w, 0, NULL, NULL);
    clSetKernelArg(k, 0, sizeof(cl_mem), &d_idx);
    clSetKernelArg(k, 1, sizeof(cl_mem), &d_w);
    clSetKernelArg(k, 2, sizeof(cl_mem), &d_y);
    clSetKernelArg(k, 3, sizeof(int), &n);
    size_t local = 256, global = (n + 255) / 256 * 256;
    clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    clFinish(q);
    return 0;
}
