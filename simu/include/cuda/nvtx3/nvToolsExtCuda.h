/* simu shim <nvtx3/nvToolsExtCuda.h>: NVTX naming of CUDA objects (declarations only). */
#include "../nvToolsExt.h"
#include "../cuda_runtime.h"
extern "C" {
void nvtxNameCudaDeviceA(int device, const char *name);
void nvtxNameCudaStreamA(cudaStream_t stream, const char *name);
void nvtxNameCudaEventA(cudaEvent_t event, const char *name);
}
#define nvtxNameCudaDevice nvtxNameCudaDeviceA
#define nvtxNameCudaStream nvtxNameCudaStreamA
#define nvtxNameCudaEvent nvtxNameCudaEventA
