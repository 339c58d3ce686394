// The fixed twin of bug/main.c: `slots` gives each element its own slot (a permutation), so `pack` has no race.
#include <CL/cl.h>
#include <stdio.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1 || n < 1)
        return 1;
    cl_int err;
    cl_platform_id platform;
    cl_device_id device;
    clGetPlatformIDs(1, &platform, NULL);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
    const char *path = "pack.cl";
    cl_program p = clCreateProgramWithSource(ctx, 1, &path, NULL, &err);
    clBuildProgram(p, 1, &device, "", NULL, NULL);
    cl_kernel slots = clCreateKernel(p, "slots", &err);
    cl_kernel pack = clCreateKernel(p, "pack", &err);
    cl_mem d_in = clCreateBuffer(ctx, CL_MEM_READ_ONLY, n * sizeof(float), NULL, &err);
    cl_mem d_pos = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(int), NULL, &err);
    cl_mem d_out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(float), NULL, &err);
    size_t local = 128, global = (n + 127) / 128 * 128;
    clSetKernelArg(slots, 0, sizeof(cl_mem), &d_pos);
    clSetKernelArg(slots, 1, sizeof(int), &n);
    clEnqueueNDRangeKernel(q, slots, 1, NULL, &global, &local, 0, NULL, NULL);
    clSetKernelArg(pack, 0, sizeof(cl_mem), &d_in);
    clSetKernelArg(pack, 1, sizeof(cl_mem), &d_pos);
    clSetKernelArg(pack, 2, sizeof(cl_mem), &d_out);
    clSetKernelArg(pack, 3, sizeof(int), &n);
    clEnqueueNDRangeKernel(q, pack, 1, NULL, &global, &local, 0, NULL, NULL);
    clFinish(q);
    return 0;
}
