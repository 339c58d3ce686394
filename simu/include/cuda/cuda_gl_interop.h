/* simu shim <cuda_gl_interop.h>: registering OpenGL buffers and images with CUDA (host
 * declarations only). The OpenGL handle types are declared here so that the header parses
 * on a machine without GL headers; the typedefs match OpenGL's, so <GL/gl.h> may come first. */
#ifndef __CUDA_GL_INTEROP_H__
#define __CUDA_GL_INTEROP_H__
#include "cuda_runtime.h"
typedef unsigned int GLuint;
typedef unsigned int GLenum;
enum cudaGLDeviceList {
  cudaGLDeviceListAll = 1,
  cudaGLDeviceListCurrentFrame = 2,
  cudaGLDeviceListNextFrame = 3
};
enum cudaGLMapFlags { cudaGLMapFlagsNone = 0, cudaGLMapFlagsReadOnly = 1, cudaGLMapFlagsWriteDiscard = 2 };
extern "C" {
__host__ cudaError_t cudaGLGetDevices(unsigned int *pCudaDeviceCount, int *pCudaDevices,
                                      unsigned int cudaDeviceCount, enum cudaGLDeviceList deviceList);
__host__ cudaError_t cudaGraphicsGLRegisterImage(struct cudaGraphicsResource **resource, GLuint image,
                                                 GLenum target, unsigned int flags);
__host__ cudaError_t cudaGraphicsGLRegisterBuffer(struct cudaGraphicsResource **resource, GLuint buffer,
                                                  unsigned int flags);
__host__ cudaError_t cudaGLSetGLDevice(int device);
__host__ cudaError_t cudaGLRegisterBufferObject(GLuint bufObj);
__host__ cudaError_t cudaGLMapBufferObject(void **devPtr, GLuint bufObj);
__host__ cudaError_t cudaGLUnmapBufferObject(GLuint bufObj);
__host__ cudaError_t cudaGLUnregisterBufferObject(GLuint bufObj);
}
#endif /* __CUDA_GL_INTEROP_H__ */
