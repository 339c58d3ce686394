/* simu shim <nvtx3/nvToolsExtCuda.h>: NVTX naming of CUDA driver objects (declarations only).
 * Also declares the runtime-object names of nvToolsExtCudaRt.h, which host code often takes from here. */
#ifndef NVTOOLSEXT_CUDA_H_
#define NVTOOLSEXT_CUDA_H_
#include "nvToolsExt.h"
#include "nvToolsExtCudaRt.h"
#include "../cuda.h"
extern "C" {
void nvtxNameCuDeviceA(CUdevice device, const char *name);
void nvtxNameCuContextA(CUcontext context, const char *name);
void nvtxNameCuStreamA(CUstream stream, const char *name);
void nvtxNameCuEventA(CUevent event, const char *name);
}
#define nvtxNameCuDevice nvtxNameCuDeviceA
#define nvtxNameCuContext nvtxNameCuContextA
#define nvtxNameCuStream nvtxNameCuStreamA
#define nvtxNameCuEvent nvtxNameCuEventA
#endif /* NVTOOLSEXT_CUDA_H_ */
