#include <stdio.h>
#include <stdlib.h>
#include <CL/cl.h>
#include "layout.h"

static char *read_source(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc(n + 1);
    fread(text, 1, n, f);
    text[n] = 0;
    fclose(f);
    return text;
}

int main(void) {
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    clGetPlatformIDs(1, &platform, NULL);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    const char *src = read_source("sums.cl");
    cl_program program = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    clBuildProgram(program, 1, &device, "", NULL, NULL);
    cl_kernel kernel = clCreateKernel(program, "partial_sums", &err);

    Layout layout;
    configure(&layout, 4096);
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY, 4096 * sizeof(float), NULL, &err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, 64 * sizeof(float), NULL, &err);
    run_sums(queue, kernel, in, out, &layout, 64);
    clFinish(queue);
    return 0;
}
