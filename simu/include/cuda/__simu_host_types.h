/* simu CUDA shim: the less common runtime types (part of <driver_types.h>): 3-D copies, IPC
 * handles, graphs and stream capture, memory pools, graphics interop resources, peer and
 * compute-mode enums, access-policy windows, launch attributes. Declarations only. */
#ifndef __SIMU_HOST_TYPES_H
#define __SIMU_HOST_TYPES_H

enum cudaComputeMode {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3
};
enum cudaDeviceP2PAttr {
  cudaDevP2PAttrPerformanceRank = 1,
  cudaDevP2PAttrAccessSupported = 2,
  cudaDevP2PAttrNativeAtomicSupported = 3,
  cudaDevP2PAttrCudaArrayAccessSupported = 4
};
enum cudaMemRangeAttribute {
  cudaMemRangeAttributeReadMostly = 1,
  cudaMemRangeAttributePreferredLocation = 2,
  cudaMemRangeAttributeAccessedBy = 3,
  cudaMemRangeAttributeLastPrefetchLocation = 4
};
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};
enum cudaGraphNodeType {
  cudaGraphNodeTypeKernel = 0,
  cudaGraphNodeTypeMemcpy = 1,
  cudaGraphNodeTypeMemset = 2,
  cudaGraphNodeTypeHost = 3,
  cudaGraphNodeTypeGraph = 4,
  cudaGraphNodeTypeEmpty = 5,
  cudaGraphNodeTypeWaitEvent = 6,
  cudaGraphNodeTypeEventRecord = 7
};
enum cudaGraphExecUpdateResult {
  cudaGraphExecUpdateSuccess = 0,
  cudaGraphExecUpdateError = 1,
  cudaGraphExecUpdateErrorTopologyChanged = 2,
  cudaGraphExecUpdateErrorNodeTypeChanged = 3,
  cudaGraphExecUpdateErrorFunctionChanged = 4,
  cudaGraphExecUpdateErrorParametersChanged = 5,
  cudaGraphExecUpdateErrorNotSupported = 6
};
enum cudaGraphicsRegisterFlags {
  cudaGraphicsRegisterFlagsNone = 0,
  cudaGraphicsRegisterFlagsReadOnly = 1,
  cudaGraphicsRegisterFlagsWriteDiscard = 2,
  cudaGraphicsRegisterFlagsSurfaceLoadStore = 4,
  cudaGraphicsRegisterFlagsTextureGather = 8
};
enum cudaGraphicsMapFlags {
  cudaGraphicsMapFlagsNone = 0,
  cudaGraphicsMapFlagsReadOnly = 1,
  cudaGraphicsMapFlagsWriteDiscard = 2
};
enum cudaAccessProperty {
  cudaAccessPropertyNormal = 0,
  cudaAccessPropertyStreaming = 1,
  cudaAccessPropertyPersisting = 2
};
enum cudaMemPoolAttr {
  cudaMemPoolReuseFollowEventDependencies = 1,
  cudaMemPoolReuseAllowOpportunistic = 2,
  cudaMemPoolReuseAllowInternalDependencies = 3,
  cudaMemPoolAttrReleaseThreshold = 4
};
enum cudaFlushGPUDirectRDMAWritesOptions { cudaFlushGPUDirectRDMAWritesOptionHost = 1 };

#define cudaPeerAccessDefault 0x00
#define cudaIpcMemLazyEnablePeerAccess 0x01
#define cudaStreamCaptureModeDefault cudaStreamCaptureModeGlobal
#define cudaOccupancyDefault 0x00
#define cudaOccupancyDisableCachingOverride 0x01
#define cudaGraphInstantiateFlagAutoFreeOnLaunch 1
#define cudaArrayLayered 0x01
#define cudaArrayCubemap 0x04
#define cudaDeviceLmemResizeToMax 0x10
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceMask 0xff
#define cudaEventRecordDefault 0x00
#define cudaEventWaitDefault 0x00
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define CUDA_IPC_HANDLE_SIZE 64

typedef struct cudaIpcEventHandle_st { char reserved[CUDA_IPC_HANDLE_SIZE]; } cudaIpcEventHandle_t;
typedef struct cudaIpcMemHandle_st { char reserved[CUDA_IPC_HANDLE_SIZE]; } cudaIpcMemHandle_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
typedef struct CUfunc_st *cudaFunction_t;
typedef struct CUkern_st *cudaKernel_t;
typedef struct cudaGraphicsResource *cudaGraphicsResource_t;
typedef struct CUexternalMemory_st *cudaExternalMemory_t;
typedef struct CUexternalSemaphore_st *cudaExternalSemaphore_t;
typedef struct CUuserObject_st *cudaUserObject_t;

struct cudaPos {
  size_t x;
  size_t y;
  size_t z;
};
static __host__ inline cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
  cudaPos p = {x, y, z};
  return p;
}
struct cudaMemcpy3DParms {
  struct cudaArray *srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  struct cudaArray *dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent;
  enum cudaMemcpyKind kind;
};
struct cudaMemcpy3DPeerParms {
  struct cudaArray *srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  int srcDevice;
  struct cudaArray *dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  int dstDevice;
  struct cudaExtent extent;
};
struct cudaMemsetParams {
  void *dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
};
struct cudaKernelNodeParams {
  void *func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned int sharedMemBytes;
  void **kernelParams;
  void **extra;
};
struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void *userData;
};
struct cudaAccessPolicyWindow {
  void *base_ptr;
  size_t num_bytes;
  float hitRatio;
  enum cudaAccessProperty hitProp;
  enum cudaAccessProperty missProp;
};
union cudaStreamAttrValue {
  struct cudaAccessPolicyWindow accessPolicyWindow;
  int syncPolicy;
};
typedef union cudaStreamAttrValue cudaStreamAttrValue;
typedef union cudaStreamAttrValue cudaKernelNodeAttrValue;
enum cudaStreamAttrID { cudaStreamAttributeAccessPolicyWindow = 1, cudaStreamAttributeSynchronizationPolicy = 3 };
struct cudaMemLocation {
  int type;
  int id;
};
struct cudaMemPoolProps {
  int allocType;
  int handleTypes;
  struct cudaMemLocation location;
  void *win32SecurityAttributes;
  size_t maxSize;
  unsigned char reserved[56];
};
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeClusterDimension = 4
};
struct cudaLaunchAttributeValue_st {
  struct cudaAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  struct { unsigned int x, y, z; } clusterDim;
};
typedef struct cudaLaunchAttributeValue_st cudaLaunchAttributeValue;
typedef struct cudaLaunchAttribute_st {
  enum cudaLaunchAttributeID id;
  char pad[4];
  cudaLaunchAttributeValue val;
} cudaLaunchAttribute;
typedef struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
} cudaLaunchConfig_t;

#endif /* __SIMU_HOST_TYPES_H */
