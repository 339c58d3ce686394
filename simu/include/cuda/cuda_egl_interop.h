/* simu shim <cuda_egl_interop.h>: EGL image / stream interop (host declarations only). The
 * EGL handle types are declared here (matching EGL's own) so the header parses without EGL. */
#ifndef __CUDA_EGL_INTEROP_H__
#define __CUDA_EGL_INTEROP_H__
#include "cuda_runtime.h"
typedef void *EGLImageKHR;
typedef void *EGLStreamKHR;
typedef void *EGLSyncKHR;
typedef int EGLint;
#define CUDA_EGL_MAX_PLANES 3
typedef enum cudaEglFrameType_enum { cudaEglFrameTypeArray = 0, cudaEglFrameTypePitch = 1 } cudaEglFrameType;
typedef enum cudaEglResourceLocationFlags_enum {
  cudaEglResourceLocationSysmem = 0,
  cudaEglResourceLocationVidmem = 1
} cudaEglResourceLocationFlags;
typedef enum cudaEglColorFormat_enum {
  cudaEglColorFormatYUV420Planar = 0,
  cudaEglColorFormatYUV420SemiPlanar = 1,
  cudaEglColorFormatARGB = 7,
  cudaEglColorFormatRGBA = 8
} cudaEglColorFormat;
typedef struct cudaEglPlaneDesc_st {
  unsigned int width;
  unsigned int height;
  unsigned int depth;
  unsigned int pitch;
  unsigned int numChannels;
  struct cudaChannelFormatDesc channelDesc;
  unsigned int reserved[4];
} cudaEglPlaneDesc;
typedef struct cudaEglFrame_st {
  union {
    cudaArray_t pArray[CUDA_EGL_MAX_PLANES];
    struct cudaPitchedPtr pPitch[CUDA_EGL_MAX_PLANES];
  } frame;
  cudaEglPlaneDesc planeDesc[CUDA_EGL_MAX_PLANES];
  unsigned int planeCount;
  cudaEglFrameType frameType;
  cudaEglColorFormat eglColorFormat;
} cudaEglFrame;
typedef struct CUeglStreamConnection_st *cudaEglStreamConnection;
extern "C" {
__host__ cudaError_t cudaGraphicsEGLRegisterImage(struct cudaGraphicsResource **pCudaResource, EGLImageKHR image,
                                                  unsigned int flags);
__host__ cudaError_t cudaGraphicsResourceGetMappedEglFrame(cudaEglFrame *eglFrame, cudaGraphicsResource_t resource,
                                                           unsigned int index, unsigned int mipLevel);
__host__ cudaError_t cudaEGLStreamConsumerConnect(cudaEglStreamConnection *conn, EGLStreamKHR eglStream);
__host__ cudaError_t cudaEGLStreamConsumerDisconnect(cudaEglStreamConnection *conn);
__host__ cudaError_t cudaEGLStreamConsumerAcquireFrame(cudaEglStreamConnection *conn,
                                                       cudaGraphicsResource_t *pCudaResource,
                                                       cudaStream_t *pStream, unsigned int timeout);
__host__ cudaError_t cudaEGLStreamConsumerReleaseFrame(cudaEglStreamConnection *conn,
                                                       cudaGraphicsResource_t pCudaResource,
                                                       cudaStream_t *pStream);
__host__ cudaError_t cudaEventCreateFromEGLSync(cudaEvent_t *phEvent, EGLSyncKHR eglSync, unsigned int flags);
}
#endif /* __CUDA_EGL_INTEROP_H__ */
