/* simu shim <cuda_occupancy.h>: the occupancy calculator's types and entry points (host
 * declarations only; simu computes no occupancy). */
#ifndef __cuda_occupancy_h__
#define __cuda_occupancy_h__
#include "cuda_runtime.h"
typedef enum cudaOccError_enum {
  CUDA_OCC_SUCCESS = 0,
  CUDA_OCC_ERROR_INVALID_INPUT = 1,
  CUDA_OCC_ERROR_UNKNOWN_DEVICE = 2
} cudaOccError;
typedef enum cudaOccLimitingFactor_enum {
  OCC_LIMIT_WARPS = 0x01,
  OCC_LIMIT_REGISTERS = 0x02,
  OCC_LIMIT_SHARED_MEMORY = 0x04,
  OCC_LIMIT_BLOCKS = 0x08
} cudaOccLimitingFactor;
typedef enum cudaOccCacheConfig_enum {
  CACHE_PREFER_NONE = 0x00,
  CACHE_PREFER_SHARED = 0x01,
  CACHE_PREFER_L1 = 0x02,
  CACHE_PREFER_EQUAL = 0x03
} cudaOccCacheConfig;
struct cudaOccDeviceProp {
  int computeMajor;
  int computeMinor;
  int maxThreadsPerBlock;
  int maxThreadsPerMultiprocessor;
  int regsPerBlock;
  int regsPerMultiprocessor;
  int warpSize;
  size_t sharedMemPerBlock;
  size_t sharedMemPerMultiprocessor;
  int numSms;
  size_t sharedMemPerBlockOptin;
  size_t reservedSharedMemPerBlock;
  __host__ cudaOccDeviceProp() {}
  __host__ cudaOccDeviceProp(const cudaDeviceProp &p)
      : computeMajor(p.major), computeMinor(p.minor), maxThreadsPerBlock(p.maxThreadsPerBlock),
        maxThreadsPerMultiprocessor(p.maxThreadsPerMultiProcessor), regsPerBlock(p.regsPerBlock),
        regsPerMultiprocessor(p.regsPerMultiprocessor), warpSize(p.warpSize),
        sharedMemPerBlock(p.sharedMemPerBlock), sharedMemPerMultiprocessor(p.sharedMemPerMultiprocessor),
        numSms(p.multiProcessorCount), sharedMemPerBlockOptin(p.sharedMemPerBlockOptin),
        reservedSharedMemPerBlock(p.reservedSharedMemPerBlock) {}
};
struct cudaOccFuncAttributes {
  int maxThreadsPerBlock;
  int numRegs;
  size_t sharedSizeBytes;
  int partitionedGCConfig;
  int shmemLimitConfig;
  size_t maxDynamicSharedSizeBytes;
  int numBlockBarriers;
  __host__ cudaOccFuncAttributes() {}
  __host__ cudaOccFuncAttributes(const cudaFuncAttributes &a)
      : maxThreadsPerBlock(a.maxThreadsPerBlock), numRegs(a.numRegs), sharedSizeBytes(a.sharedSizeBytes),
        partitionedGCConfig(0), shmemLimitConfig(0), maxDynamicSharedSizeBytes(a.maxDynamicSharedSizeBytes),
        numBlockBarriers(1) {}
};
struct cudaOccDeviceState {
  cudaOccCacheConfig cacheConfig;
  int carveoutConfig;
  __host__ cudaOccDeviceState() : cacheConfig(CACHE_PREFER_NONE), carveoutConfig(-1) {}
};
struct cudaOccResult {
  int activeBlocksPerMultiprocessor;
  unsigned int limitingFactors;
  int blockLimitRegs;
  int blockLimitSharedMem;
  int blockLimitWarps;
  int blockLimitBlocks;
  int allocatedRegistersPerBlock;
  size_t allocatedSharedMemPerBlock;
};
__host__ cudaOccError cudaOccMaxActiveBlocksPerMultiprocessor(cudaOccResult *result,
                                                              const cudaOccDeviceProp *properties,
                                                              const cudaOccFuncAttributes *attributes,
                                                              const cudaOccDeviceState *state, int blockSize,
                                                              size_t dynamicSmemSize);
__host__ cudaOccError cudaOccMaxPotentialOccupancyBlockSize(int *minGridSize, int *blockSize,
                                                            const cudaOccDeviceProp *properties,
                                                            const cudaOccFuncAttributes *attributes,
                                                            const cudaOccDeviceState *state,
                                                            size_t (*blockSizeToDynamicSMemSize)(int),
                                                            size_t dynamicSMemSize);
#endif /* __cuda_occupancy_h__ */
