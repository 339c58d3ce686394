/* simu shim <nvtx3/nvToolsExtCudaRt.h>: NVTX naming of CUDA runtime objects (declarations only;
 * the calls never run under simu). */
#ifndef NVTOOLSEXT_CUDART_H_
#define NVTOOLSEXT_CUDART_H_
#include "nvToolsExt.h"
#include "../cuda_runtime.h"
extern "C" {
void nvtxNameCudaDeviceA(int device, const char *name);
void nvtxNameCudaDeviceW(int device, const wchar_t *name);
void nvtxNameCudaStreamA(cudaStream_t stream, const char *name);
void nvtxNameCudaStreamW(cudaStream_t stream, const wchar_t *name);
void nvtxNameCudaEventA(cudaEvent_t event, const char *name);
void nvtxNameCudaEventW(cudaEvent_t event, const wchar_t *name);
}
#define nvtxNameCudaDevice nvtxNameCudaDeviceA
#define nvtxNameCudaStream nvtxNameCudaStreamA
#define nvtxNameCudaEvent nvtxNameCudaEventA
#endif /* NVTOOLSEXT_CUDART_H_ */
