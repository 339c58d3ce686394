#include <CL/cl.h>
#include "layout.h"

void run_sums(cl_command_queue queue, cl_kernel kernel, cl_mem in, cl_mem out, const Layout *layout,
              size_t local) {
    int count = layout->count;
    clSetKernelArg(kernel, 0, sizeof(cl_mem), &in);
    clSetKernelArg(kernel, 1, sizeof(cl_mem), &out);
    clSetKernelArg(kernel, 2, sizeof(int), &count);
    clSetKernelArg(kernel, 3, sizeof(int), &layout->width);
    size_t global = (size_t)count;
    clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
}
