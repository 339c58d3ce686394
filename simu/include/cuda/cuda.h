/* simu shim <cuda.h>: a small part of the CUDA driver API (host declarations): CUresult,
 * the handle types, cuInit, device/context/memory/module/launch functions, CUDA_VERSION. */
#ifndef __SIMU_CUDA_H
#define __SIMU_CUDA_H
#include "__simu_defs.h"
#ifndef CUDA_VERSION
#define CUDA_VERSION 12000
#endif
#define CUDAAPI

typedef enum cudaError_enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_FILE_NOT_FOUND = 301,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_LAUNCH_TIMEOUT = 702,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_UNKNOWN = 999
} CUresult;

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

extern "C" {
__host__ CUresult cuInit(unsigned int flags);
__host__ CUresult cuDriverGetVersion(int *version);
__host__ CUresult cuDeviceGet(CUdevice *device, int ordinal);
__host__ CUresult cuDeviceGetCount(int *count);
__host__ CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
__host__ CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev);
__host__ CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev);
__host__ CUresult cuCtxDestroy(CUcontext ctx);
__host__ CUresult cuCtxSynchronize(void);
__host__ CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize);
__host__ CUresult cuMemFree(CUdeviceptr dptr);
__host__ CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes);
__host__ CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes);
__host__ CUresult cuMemsetD32(CUdeviceptr dst, unsigned int value, size_t n);
__host__ CUresult cuModuleLoad(CUmodule *module, const char *fname);
__host__ CUresult cuModuleLoadData(CUmodule *module, const void *image);
__host__ CUresult cuModuleUnload(CUmodule module);
__host__ CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
__host__ CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                 unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                 unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                 void **kernelParams, void **extra);
__host__ CUresult cuGetErrorString(CUresult error, const char **pStr);
__host__ CUresult cuGetErrorName(CUresult error, const char **pStr);
}
#endif /* __SIMU_CUDA_H */
