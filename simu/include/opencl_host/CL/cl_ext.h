/* simu: OpenCL extensions are not declared; the core API is (see CL/cl.h). */
#include <CL/cl.h>
