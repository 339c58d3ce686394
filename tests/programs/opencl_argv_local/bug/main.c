// A 2-D stencil step over an nx x ny board read from the command line: the NDRange is the board, {nx, ny}, and the
// work-group size comes from the command line too, so neither is a constant.  OpenCL launches only global sizes
// that are multiples of the local size, so every work-item is a cell of the board.
#include <stdio.h>
#include <stdlib.h>
#include <CL/cl.h>

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

int main(int argc, char **argv) {
    if (argc < 5)
        return 1;
    unsigned int nx = atoi(argv[1]), ny = atoi(argv[2]);
    size_t bx = atoi(argv[3]), by = atoi(argv[4]);
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    clGetPlatformIDs(1, &platform, NULL);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    const char *src = read_source("step.cl");
    cl_program program = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    clBuildProgram(program, 1, &device, "", NULL, NULL);
    cl_kernel kernel = clCreateKernel(program, "step", &err);
    cl_mem tick = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(char) * nx * ny, NULL, &err);
    cl_mem tock = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(char) * nx * ny, NULL, &err);
    const size_t global[2] = {nx, ny};
    const size_t local[2] = {bx, by};
    clSetKernelArg(kernel, 0, sizeof(cl_mem), &tick);
    clSetKernelArg(kernel, 1, sizeof(cl_mem), &tock);
    clSetKernelArg(kernel, 2, sizeof(unsigned int), &nx);
    clSetKernelArg(kernel, 3, sizeof(unsigned int), &ny);
    clEnqueueNDRangeKernel(queue, kernel, 2, 0, global, local, 0, NULL, NULL);
    clFinish(queue);
    return 0;
}
