/* simu: the OpenCL C++ bindings (see CL/opencl.hpp). */
#include <CL/opencl.hpp>
