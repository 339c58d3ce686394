#include <CL/cl.h>
#include <cstdlib>

struct Options {
    int value(const char *name) const { return std::atoi(std::getenv(name)); }
};

void run(cl_context ctx, cl_command_queue q, cl_kernel k, const Options &op) {
    int n = op.value("SIZE") * 16;
    int lda = n, ldc = n / 2;  // BUG: C's rows are n wide; half of that makes rows overlap
    cl_int err;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY, n * n * sizeof(float), NULL, &err);
    cl_mem c = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * n * sizeof(float), NULL, &err);
    float alpha = 2.0f;
    clSetKernelArg(k, 0, sizeof(cl_mem), &a);
    clSetKernelArg(k, 1, sizeof(int), &lda);
    clSetKernelArg(k, 2, sizeof(cl_mem), &c);
    clSetKernelArg(k, 3, sizeof(int), &ldc);
    clSetKernelArg(k, 4, sizeof(float), &alpha);
    size_t global[2] = {(size_t)n, (size_t)n};
    size_t local[2] = {16, 16};
    clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, NULL);
}

int main() {
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 0, NULL, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, NULL, 0, &err);
    const char *src = "scale.cl";
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    clBuildProgram(p, 0, NULL, "", NULL, NULL);
    cl_kernel k = clCreateKernel(p, "scale", &err);
    Options op;
    run(ctx, q, k, op);
    return 0;
}
