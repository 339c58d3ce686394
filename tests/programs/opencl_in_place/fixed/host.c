/* The host smooths the signal from one buffer into another. */
#include <CL/cl.h>

int main(void) {
  cl_context ctx;
  cl_command_queue queue;
  cl_program program;
  cl_int err;
  int n = 8192;
  size_t global = 8192, local = 128;
  cl_mem samples = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
  cl_kernel kernel = clCreateKernel(program, "smooth3", &err);
  clSetKernelArg(kernel, 0, sizeof(cl_mem), &samples);
  clSetKernelArg(kernel, 1, sizeof(cl_mem), &out);
  clSetKernelArg(kernel, 2, sizeof(int), &n);
  clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
  clReleaseMemObject(out);
  return 0;
}
