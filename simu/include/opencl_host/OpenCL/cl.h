/* simu: the macOS spelling of the OpenCL host header (see CL/cl.h). */
#include <CL/cl.h>
