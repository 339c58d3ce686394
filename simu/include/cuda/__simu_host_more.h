/* simu CUDA shim: the rest of the host runtime API that real projects call (declarations only):
 * 3-D and peer copies, pitched 3-D allocation, peer access and P2P attributes, IPC, device
 * flags and PCI ids, stream priorities and capture, graphs, memory pools, more occupancy
 * queries, cudaLaunchKernelEx, graphics-interop resources, and the deprecated cudaThread*
 * names. Texture and array functions live in __simu_texture.h. */
#ifndef __SIMU_HOST_MORE_H
#define __SIMU_HOST_MORE_H

extern "C" {
/* memory: 3-D, peer, ranges */
__host__ cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
__host__ cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
__host__ cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream = 0);
__host__ cudaError_t cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p);
__host__ cudaError_t cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream = 0);
__host__ cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
__host__ cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                                       cudaStream_t stream = 0);
__host__ cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                       cudaStream_t stream = 0);
__host__ cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                         cudaStream_t stream = 0);
__host__ cudaError_t cudaMemRangeGetAttribute(void *data, size_t dataSize, enum cudaMemRangeAttribute attribute,
                                              const void *devPtr, size_t count);
__host__ cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length = 0,
                                              unsigned int flags = cudaMemAttachSingle);
__host__ cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost);

/* peers, IPC, device identity */
__host__ cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
__host__ cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr, int srcDevice,
                                               int dstDevice);
__host__ cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr);
__host__ cudaError_t cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags);
__host__ cudaError_t cudaIpcCloseMemHandle(void *devPtr);
__host__ cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event);
__host__ cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle);
__host__ cudaError_t cudaGetDeviceFlags(unsigned int *flags);
__host__ cudaError_t cudaSetValidDevices(int *deviceArr, int len);
__host__ cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
__host__ cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId);
__host__ cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig);
__host__ cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig);
__host__ cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
__host__ cudaError_t cudaDeviceFlushGPUDirectRDMAWrites(int target, int scope);
__host__ cudaError_t cudaCtxResetPersistingL2Cache(void);
__host__ cudaError_t cudaThreadExit(void);
__host__ cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig);
__host__ cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
__host__ cudaError_t cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit);

/* streams and events */
__host__ cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority);
__host__ cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags);
__host__ cudaError_t cudaStreamSetAttribute(cudaStream_t stream, enum cudaStreamAttrID attr,
                                            const cudaStreamAttrValue *value);
__host__ cudaError_t cudaStreamGetAttribute(cudaStream_t stream, enum cudaStreamAttrID attr,
                                            cudaStreamAttrValue *value);
__host__ cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
__host__ cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
__host__ cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus);
__host__ cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus,
                                              unsigned long long *pId = 0);
__host__ cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode);
__host__ cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream = 0, unsigned int flags = 0);

/* graphs */
__host__ cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
__host__ cudaError_t cudaGraphDestroy(cudaGraph_t graph);
__host__ cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags = 0);
__host__ cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                   unsigned long long flags = 0);
__host__ cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
__host__ cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream);
__host__ cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);
__host__ cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                            const struct cudaKernelNodeParams *pNodeParams);
__host__ cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                            const struct cudaMemcpy3DParms *pCopyParams);
__host__ cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                              void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                            const struct cudaMemsetParams *pMemsetParams);
__host__ cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                          const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                          const struct cudaHostNodeParams *pNodeParams);
__host__ cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies, size_t numDependencies);
__host__ cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                cudaGraph_t childGraph);
__host__ cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                              const cudaGraphNode_t *to, size_t numDependencies);
__host__ cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes);
__host__ cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *pNodeParams);
__host__ cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                                  const struct cudaKernelNodeParams *pNodeParams);
__host__ cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                      const struct cudaKernelNodeParams *pNodeParams);
__host__ cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph, void *resultInfo);
__host__ cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph);
__host__ cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags);

/* memory pools */
__host__ cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device);
__host__ cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
__host__ cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
__host__ cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps);
__host__ cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool);
__host__ cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
__host__ cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
__host__ cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);
__host__ cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream);

/* kernels and occupancy */
__host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                            int blockSize,
                                                                            size_t dynamicSMemSize,
                                                                            unsigned int flags);
__host__ cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                               int numBlocks, int blockSize);
__host__ cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args);
__host__ cudaError_t cudaLaunchCooperativeKernelMultiDevice(void *launchParamsList, unsigned int numDevices,
                                                            unsigned int flags = 0);

/* graphics interop resources (registration lives in cuda_gl_interop.h / cuda_egl_interop.h) */
__host__ cudaError_t cudaGraphicsUnregisterResource(cudaGraphicsResource_t resource);
__host__ cudaError_t cudaGraphicsResourceSetMapFlags(cudaGraphicsResource_t resource, unsigned int flags);
__host__ cudaError_t cudaGraphicsMapResources(int count, cudaGraphicsResource_t *resources,
                                              cudaStream_t stream = 0);
__host__ cudaError_t cudaGraphicsUnmapResources(int count, cudaGraphicsResource_t *resources,
                                                cudaStream_t stream = 0);
__host__ cudaError_t cudaGraphicsResourceGetMappedPointer(void **devPtr, size_t *size,
                                                          cudaGraphicsResource_t resource);
__host__ cudaError_t cudaGraphicsSubResourceGetMappedArray(struct cudaArray **array,
                                                           cudaGraphicsResource_t resource,
                                                           unsigned int arrayIndex, unsigned int mipLevel);
}

/* C++ forms over the kernel type */
template <typename T>
static __host__ inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, T func, int blockSize, size_t dynamicSMemSize, unsigned int flags) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void *)func, blockSize,
                                                                dynamicSMemSize, flags);
}
template <typename UnaryFunction, typename T>
static __host__ inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(
    int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0) {
  return __simu_cudaOccupancyMaxPotentialBlockSize(minGridSize, blockSize, (const void *)func,
                                                   blockSizeToDynamicSMemSize(32), blockSizeLimit);
}
template <typename T>
static __host__ inline cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(
    int *minGridSize, int *blockSize, T func, size_t dynamicSMemSize = 0, int blockSizeLimit = 0,
    unsigned int flags = 0) {
  (void)flags;
  return __simu_cudaOccupancyMaxPotentialBlockSize(minGridSize, blockSize, (const void *)func, dynamicSMemSize,
                                                   blockSizeLimit);
}
template <typename T>
static __host__ inline cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, T func,
                                                                             int numBlocks, int blockSize) {
  return cudaOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, (const void *)func, numBlocks, blockSize);
}
template <typename... ExpTypes, typename... ActTypes>
static __host__ inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                                                      void (*kernel)(ExpTypes...), ActTypes &&...args) {
  void *pArgs[sizeof...(ActTypes) > 0 ? sizeof...(ActTypes) : 1] = {(void *)&args...};
  return cudaLaunchKernelExC(config, (const void *)kernel, pArgs);
}
template <typename T>
static __host__ inline cudaError_t cudaFuncSetSharedMemConfig(T *func, enum cudaSharedMemConfig config) {
  return cudaFuncSetSharedMemConfig((const void *)func, config);
}

#endif /* __SIMU_HOST_MORE_H */
