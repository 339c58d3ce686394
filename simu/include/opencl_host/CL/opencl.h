/* simu: the whole OpenCL host API (see CL/cl.h). */
#include <CL/cl.h>
