/* simu shim <cuda_runtime_api.h>: the host runtime API (with the types it needs). */
#ifndef __SIMU_CUDA_RUNTIME_API_H
#define __SIMU_CUDA_RUNTIME_API_H
#define __CUDA_RUNTIME_API_H__
#include "__simu_defs.h"
#include "__simu_host.h"
#endif
