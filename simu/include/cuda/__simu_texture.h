/* simu shim: CUDA texture and surface objects (texture_types.h, texture_fetch_functions.h,
 * texture_indirect_functions.h, surface_types.h, channel descriptors, the object API).
 *
 *   cudaTextureObject_t / cudaSurfaceObject_t   unsigned long long, as in CUDA
 *   tex1Dfetch<T>(tex, i)   modelled: a plain global read of element i (of type T) of the texture's
 *                           backing buffer: *(const T *)__simu_tex1Dfetch(tex, i * sizeof(T)).
 *                           The machine binds a cudaTextureObject_t parameter to a backing buffer
 *                           when the launch gives an array for it (simu/interp/cuda_textures.py);
 *                           without one, a kernel that fetches is unsupported.
 *   tex1D, tex2D, tex3D, tex1DLod, tex2DLod, tex1DLayered, tex2DLayered, tex2Dgather, surf1Dread,
 *   surf2Dread, surf1Dwrite, surf2Dwrite   declared so that files compile; a kernel that calls one
 *                           is unsupported (call @__simu_tex2D() etc., named with its source line):
 *                           they need the texture's extent, addressing and filter modes.
 * Host side: channel descriptors, resource/texture descriptors, cudaCreateTextureObject, arrays.
 */
#ifndef __SIMU_TEXTURE_H
#define __SIMU_TEXTURE_H

typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
};
struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;

enum cudaResourceType {
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3
};
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { cudaMipmappedArray_t mipmap; } mipmap;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
  } res;
};
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
struct cudaResourceViewDesc;
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };

#define cudaArrayDefault 0x00
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayTextureGather 0x08

__host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                            enum cudaChannelFormatKind f);
template <class T> static __host__ inline struct cudaChannelFormatDesc cudaCreateChannelDesc(void) {
  return cudaCreateChannelDesc((int)sizeof(T) * 8, 0, 0, 0, cudaChannelFormatKindNone);
}
__host__ cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                             const struct cudaTextureDesc *pTexDesc,
                                             const struct cudaResourceViewDesc *pResViewDesc);
__host__ cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
__host__ cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                      cudaTextureObject_t texObject);
__host__ cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                             const struct cudaResourceDesc *pResDesc);
__host__ cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
__host__ cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                                     size_t height = 0, unsigned int flags = 0);
__host__ cudaError_t cudaFreeArray(cudaArray_t array);
__host__ cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                       size_t count, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                         size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);

/* ---- device side ---------------------------------------------------------------------------- */
extern "C" __device__ const void *__simu_tex1Dfetch(cudaTextureObject_t tex, long long byte_offset);
extern "C" __device__ void __simu_tex1D(void);
extern "C" __device__ void __simu_tex2D(void);
extern "C" __device__ void __simu_tex3D(void);
extern "C" __device__ void __simu_tex1DLod(void);
extern "C" __device__ void __simu_tex2DLod(void);
extern "C" __device__ void __simu_tex1DLayered(void);
extern "C" __device__ void __simu_tex2DLayered(void);
extern "C" __device__ void __simu_tex2Dgather(void);
extern "C" __device__ void __simu_surf1Dread(void);
extern "C" __device__ void __simu_surf2Dread(void);
extern "C" __device__ void __simu_surf1Dwrite(void);
extern "C" __device__ void __simu_surf2Dwrite(void);

template <class T> __SIMU_DEV T tex1Dfetch(cudaTextureObject_t tex, int x) {
  return *(const T *)__simu_tex1Dfetch(tex, (long long)x * (long long)sizeof(T));
}
template <class T> __SIMU_DEV T tex1D(cudaTextureObject_t, float) { __simu_tex1D(); return T(); }
template <class T> __SIMU_DEV T tex2D(cudaTextureObject_t, float, float) { __simu_tex2D(); return T(); }
template <class T> __SIMU_DEV T tex3D(cudaTextureObject_t, float, float, float) { __simu_tex3D(); return T(); }
template <class T> __SIMU_DEV T tex1DLod(cudaTextureObject_t, float, float) { __simu_tex1DLod(); return T(); }
template <class T> __SIMU_DEV T tex2DLod(cudaTextureObject_t, float, float, float) {
  __simu_tex2DLod();
  return T();
}
template <class T> __SIMU_DEV T tex1DLayered(cudaTextureObject_t, float, int) { __simu_tex1DLayered(); return T(); }
template <class T> __SIMU_DEV T tex2DLayered(cudaTextureObject_t, float, float, int) {
  __simu_tex2DLayered();
  return T();
}
template <class T> __SIMU_DEV T tex2Dgather(cudaTextureObject_t, float, float, int = 0) {
  __simu_tex2Dgather();
  return T();
}
template <class T>
__SIMU_DEV T surf1Dread(cudaSurfaceObject_t, int, enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap) {
  __simu_surf1Dread();
  return T();
}
template <class T>
__SIMU_DEV T surf2Dread(cudaSurfaceObject_t, int, int, enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap) {
  __simu_surf2Dread();
  return T();
}
template <class T>
__SIMU_DEV void surf1Dwrite(T, cudaSurfaceObject_t, int, enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap) {
  __simu_surf1Dwrite();
}
template <class T>
__SIMU_DEV void surf2Dwrite(T, cudaSurfaceObject_t, int, int, enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap) {
  __simu_surf2Dwrite();
}

#endif /* __SIMU_TEXTURE_H */
