/* simu CUDA shim: the host runtime API (declarations only; simu compiles device code only,
 * so host code must parse but is never code-generated).
 *
 * Provides cudaError_t and its common values, cudaMemcpyKind, streams, events, device
 * management, cudaDeviceProp, memory management (cudaMalloc and its T** template, managed,
 * host and pitched memory, memcpy/memset and their async and symbol forms), function
 * attributes, occupancy, cudaLaunchKernel, and the declarations clang needs to accept
 * kernel<<<grid, block, shmem, stream>>>(...) in host code (cudaConfigureCall,
 * __cudaPushCallConfiguration, __cudaPopCallConfiguration).
 */
#ifndef __SIMU_HOST_H
#define __SIMU_HOST_H

/* ---- enums ----------------------------------------------------------------------------- */
enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorProfilerDisabled = 5,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorMissingConfiguration = 52,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidKernelImage = 200,
  cudaErrorInvalidContext = 201,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorAssert = 710,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};

enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9
};

enum cudaLimit {
  cudaLimitStackSize = 0,
  cudaLimitPrintfFifoSize = 1,
  cudaLimitMallocHeapSize = 2
};

enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1,
  cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5,
  cudaMemAdviseUnsetAccessedBy = 6
};

enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97
};

/* flags */
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)

/* ---- handles and structs ------------------------------------------------------------------ */
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
typedef void(CUDART_CB *cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);
typedef void(CUDART_CB *cudaHostFn_t)(void *userData);

struct cudaDeviceProp {
  char name[256];
  char uuid[16];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
};

struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
};

struct cudaPointerAttributes {
  enum cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
};

struct cudaPitchedPtr {
  void *ptr;
  size_t pitch;
  size_t xsize;
  size_t ysize;
};
struct cudaExtent {
  size_t width;
  size_t height;
  size_t depth;
};
static __host__ inline cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
  cudaExtent e = {w, h, d};
  return e;
}
static __host__ inline cudaPitchedPtr make_cudaPitchedPtr(void *p, size_t pitch, size_t xs, size_t ys) {
  cudaPitchedPtr r = {p, pitch, xs, ys};
  return r;
}

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

#endif /* __SIMU_HOST_H */
