#ifndef LAYOUT_H
#define LAYOUT_H
#include <CL/cl.h>

typedef struct {
    int count;  /* values summed */
    int width;  /* staging slots per work-group */
} Layout;

void configure(Layout *layout, int count);
void run_sums(cl_command_queue queue, cl_kernel kernel, cl_mem in, cl_mem out, const Layout *layout,
              size_t local);
#endif
