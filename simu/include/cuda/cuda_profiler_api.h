/* simu shim <cuda_profiler_api.h>: cudaProfilerStart / cudaProfilerStop (host declarations). */
#ifndef __SIMU_CUDA_PROFILER_API_H
#define __SIMU_CUDA_PROFILER_API_H
#include "cuda_runtime_api.h"
extern "C" {
__host__ cudaError_t cudaProfilerStart(void);
__host__ cudaError_t cudaProfilerStop(void);
}
#endif
