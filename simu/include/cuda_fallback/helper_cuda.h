/* simu shim <helper_cuda.h> (the CUDA samples' helper): checkCudaErrors(call) and
 * getLastCudaError(msg) report a failing runtime/driver call and exit; findCudaDevice(),
 * gpuDeviceInit(), _ConvertSMVer2Cores() and _cudaGetErrorEnum(). Host code only. */
#ifndef __SIMU_HELPER_CUDA_H
#define __SIMU_HELPER_CUDA_H

#include <stdio.h>
#include <stdlib.h>
#include "cuda_runtime.h"
#include "cuda.h"

static __host__ inline const char *_cudaGetErrorEnum(cudaError_t error) { return cudaGetErrorName(error); }
static __host__ inline const char *_cudaGetErrorEnum(CUresult error) {
  const char *name = "CUDA_ERROR_UNKNOWN";
  cuGetErrorName(error, &name);
  return name;
}

template <typename T>
__host__ void check(T result, char const *const func, const char *const file, int const line) {
  if (result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", file, line, (int)result,
            _cudaGetErrorEnum(result), func);
    exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)

static __host__ inline void __getLastCudaError(const char *errorMessage, const char *file, const int line) {
  cudaError_t err = cudaGetLastError();
  if (cudaSuccess != err) {
    fprintf(stderr, "%s(%i) : getLastCudaError() CUDA error : %s : (%d) %s.\n", file, line, errorMessage,
            (int)err, cudaGetErrorString(err));
    exit(EXIT_FAILURE);
  }
}
#define getLastCudaError(msg) __getLastCudaError(msg, __FILE__, __LINE__)
#define printLastCudaError(msg) __getLastCudaError(msg, __FILE__, __LINE__)

/* cores per SM for a compute capability (0 if unknown) */
static __host__ inline int _ConvertSMVer2Cores(int major, int minor) {
  int sm = (major << 4) + minor;
  switch (sm) {
    case 0x30: case 0x32: case 0x35: case 0x37: return 192;
    case 0x50: case 0x52: case 0x53: return 128;
    case 0x60: return 64;
    case 0x61: case 0x62: return 128;
    case 0x70: case 0x72: case 0x75: return 64;
    case 0x80: return 64;
    case 0x86: case 0x87: case 0x89: return 128;
    case 0x90: return 128;
    default: return 0;
  }
}
static __host__ inline const char *_ConvertSMVer2ArchName(int major, int minor) {
  (void)minor;
  return major >= 9 ? "Hopper" : major == 8 ? "Ampere" : major == 7 ? "Volta" : "Unknown";
}

static __host__ inline int gpuDeviceInit(int devID) {
  int count = 0;
  checkCudaErrors(cudaGetDeviceCount(&count));
  if (devID < 0) devID = 0;
  if (devID >= count) return -devID;
  checkCudaErrors(cudaSetDevice(devID));
  return devID;
}
static __host__ inline int gpuGetMaxGflopsDeviceId() { return 0; }
static __host__ inline int findCudaDevice(int argc, const char **argv) {
  (void)argc;
  (void)argv;
  return gpuDeviceInit(0);
}
static __host__ inline int findCudaDevice(int argc, char **argv) {
  return findCudaDevice(argc, (const char **)argv);
}
static __host__ inline bool checkCudaCapabilities(int major, int minor) {
  (void)major;
  (void)minor;
  return true;
}

#ifndef MAX
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif
#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif

#endif /* __SIMU_HELPER_CUDA_H */
