/* simu CUDA shim: the host runtime API (declarations only; simu compiles device code only,
 * so host code must parse but is never code-generated).
 *
 * Types and enums come from driver_types.h; the rarer calls from __simu_host_more.h. Provides
 * streams, events, device management, memory management (cudaMalloc and its T** template, managed,
 * host and pitched memory, memcpy/memset and their async and symbol forms), function
 * attributes, occupancy, cudaLaunchKernel, and the declarations clang needs to accept
 * kernel<<<grid, block, shmem, stream>>>(...) in host code (cudaConfigureCall,
 * __cudaPushCallConfiguration, __cudaPopCallConfiguration).
 */
#ifndef __SIMU_HOST_H
#define __SIMU_HOST_H

#include "driver_types.h"

/* ---- functions ------------------------------------------------------------------------------ */
extern "C" {
/* errors */
__host__ const char *cudaGetErrorString(cudaError_t error);
__host__ const char *cudaGetErrorName(cudaError_t error);
__host__ cudaError_t cudaGetLastError(void);
__host__ cudaError_t cudaPeekAtLastError(void);

/* devices */
__host__ cudaError_t cudaGetDeviceCount(int *count);
__host__ cudaError_t cudaGetDevice(int *device);
__host__ cudaError_t cudaSetDevice(int device);
__host__ cudaError_t cudaSetDeviceFlags(unsigned int flags);
__host__ cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
__host__ cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
__host__ cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
__host__ cudaError_t cudaDeviceSynchronize(void);
__host__ cudaError_t cudaDeviceReset(void);
__host__ cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
__host__ cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
__host__ cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
__host__ cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
__host__ cudaError_t cudaDeviceCanAccessPeer(int *canAccess, int device, int peerDevice);
__host__ cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
__host__ cudaError_t cudaDriverGetVersion(int *version);
__host__ cudaError_t cudaRuntimeGetVersion(int *version);
__host__ cudaError_t cudaThreadSynchronize(void);

/* memory */
__host__ cudaError_t cudaMalloc(void **devPtr, size_t size);
__host__ cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal);
__host__ cudaError_t cudaMallocHost(void **ptr, size_t size);
__host__ cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
__host__ cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
__host__ cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
__host__ cudaError_t cudaFree(void *devPtr);
__host__ cudaError_t cudaFreeHost(void *ptr);
__host__ cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream);
__host__ cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
__host__ cudaError_t cudaHostUnregister(void *ptr);
__host__ cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
__host__ cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
__host__ cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);
__host__ cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                     cudaStream_t stream = 0);
__host__ cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                  size_t height, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                       size_t width, size_t height, enum cudaMemcpyKind kind,
                                       cudaStream_t stream = 0);
__host__ cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
__host__ cudaError_t cudaMemset(void *devPtr, int value, size_t count);
__host__ cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream = 0);
__host__ cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
__host__ cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                                          cudaStream_t stream = 0);
__host__ cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, int device);
__host__ cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset = 0,
                                        enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
__host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset = 0,
                                          enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
__host__ cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                             enum cudaMemcpyKind kind, cudaStream_t stream = 0);
__host__ cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                               enum cudaMemcpyKind kind, cudaStream_t stream = 0);
__host__ cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
__host__ cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);

/* streams */
__host__ cudaError_t cudaStreamCreate(cudaStream_t *stream);
__host__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
__host__ cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority);
__host__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t stream);
__host__ cudaError_t cudaStreamQuery(cudaStream_t stream);
__host__ cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
__host__ cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                           unsigned int flags);
__host__ cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);

/* events */
__host__ cudaError_t cudaEventCreate(cudaEvent_t *event);
__host__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
__host__ cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
__host__ cudaError_t cudaEventQuery(cudaEvent_t event);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t event);
__host__ cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
__host__ cudaError_t cudaEventDestroy(cudaEvent_t event);

/* kernels */
__host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
__host__ cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
__host__ cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
__host__ cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config);
__host__ cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                      size_t sharedMem, cudaStream_t stream);
__host__ cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                 size_t sharedMem, cudaStream_t stream);
__host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                                   int blockSize, size_t dynamicSMemSize);
__host__ cudaError_t __simu_cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize,
                                                               const void *func, size_t dynamicSMemSize,
                                                               int blockSizeLimit);

/* what clang's kernel<<<...>>> launch syntax refers to */
__host__ cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                       cudaStream_t stream = 0);
__host__ unsigned int __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                                  void *stream = 0);
__host__ cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                                void *stream);
__host__ cudaError_t cudaSetupArgument(const void *arg, size_t size, size_t offset);
__host__ cudaError_t cudaLaunch(const void *func);
}

/* ---- C++ conveniences (templates over the pointer / symbol / kernel type) ---------------- */
template <typename T>
static __host__ inline cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return cudaMalloc((void **)(void *)devPtr, size);
}
template <typename T>
static __host__ inline cudaError_t cudaMallocManaged(T **devPtr, size_t size,
                                                     unsigned int flags = cudaMemAttachGlobal) {
  return cudaMallocManaged((void **)(void *)devPtr, size, flags);
}
template <typename T>
static __host__ inline cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0) {
  return flags ? cudaHostAlloc((void **)(void *)ptr, size, flags) : cudaMallocHost((void **)(void *)ptr, size);
}
template <typename T>
static __host__ inline cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags) {
  return cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <typename T>
static __host__ inline cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost, unsigned int flags) {
  return cudaHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}
template <typename T>
static __host__ inline cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height) {
  return cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}
template <typename T>
static __host__ inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                                                      size_t offset = 0,
                                                      enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <typename T>
static __host__ inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                                                        size_t offset = 0,
                                                        enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <typename T>
static __host__ inline cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count,
                                                           size_t offset = 0,
                                                           enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                                           cudaStream_t stream = 0) {
  return cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}
template <typename T>
static __host__ inline cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
  return cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <typename T>
static __host__ inline cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
  return cudaGetSymbolSize(size, (const void *)&symbol);
}
template <typename T>
static __host__ inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *func) {
  return cudaFuncGetAttributes(attr, (const void *)func);
}
template <typename T>
static __host__ inline cudaError_t cudaFuncSetAttribute(T *func, enum cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute((const void *)func, attr, value);
}
template <typename T>
static __host__ inline cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache cacheConfig) {
  return cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}
template <typename T>
static __host__ inline cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                                                    size_t sharedMem = 0, cudaStream_t stream = 0) {
  return cudaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}
template <typename T>
static __host__ inline cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim,
                                                               void **args, size_t sharedMem = 0,
                                                               cudaStream_t stream = 0) {
  return cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}
template <typename T>
static __host__ inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func,
                                                                                 int blockSize,
                                                                                 size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, (const void *)func, blockSize,
                                                       dynamicSMemSize);
}
template <typename T>
static __host__ inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func,
                                                                      size_t dynamicSMemSize = 0,
                                                                      int blockSizeLimit = 0) {
  return __simu_cudaOccupancyMaxPotentialBlockSize(minGridSize, blockSize, (const void *)func,
                                                   dynamicSMemSize, blockSizeLimit);
}

#include "__simu_host_more.h"

#endif /* __SIMU_HOST_H */
