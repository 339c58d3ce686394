/* simu shim: CUDA texture and surface objects (texture_types.h, texture_fetch_functions.h,
 * texture_indirect_functions.h, surface_types.h, surface_indirect_functions.h, channel
 * descriptors, the object API).
 *
 *   cudaTextureObject_t / cudaSurfaceObject_t   unsigned long long, as in CUDA.  The launch gives
 *       each texture/surface parameter a backing array (simu/launch/images.py: --buffer
 *       tex=float32:N, HxW, HxWx4, LxHxW, DxHxW...): its axes are the texture's, outermost first
 *       (layer, depth, height, width), plus a last axis of C = 1, 2 or 4 components for vector
 *       texels (float4: HxWx4).  The machine makes the handle the backing buffer's address and
 *       answers extent and descriptor queries (simu/interp/cuda_textures.py); the fetches below
 *       are C, so every texel read is a recorded global load of the backing buffer and every
 *       surface write a recorded global store (races with accesses through an aliasing pointer
 *       are found as on any buffer).
 *
 *   Texture descriptor.  A kernel receives only the handle, so simu uses CUDA's documented
 *   defaults unless the launch spec says otherwise (--buffer tex=float32:HxW:ramp:linear,wrap,norm):
 *     element type      T of the fetch (tex2D<float4>: 16-byte texels); sizeof(T) must match
 *                       the backing array's texel, else the kernel is unsupported
 *     read mode         cudaReadModeElementType (cudaReadModeNormalizedFloat is not modelled)
 *     coordinates       unnormalised ("norm": normalised, x * width)
 *     filter            point: texel floor(x) ("linear": (1-a) T[i] + a T[i+1] with i =
 *                       floor(x - 0.5), a in 9-bit fixed point with 8 fraction bits, per axis;
 *                       float texels only, an integer T filtered linearly is unsupported)
 *     addressing        clamp on every axis ("wrap", "mirror": normalised coordinates only, on
 *                       unnormalised ones they clamp as on a GPU; "border": texels outside read
 *                       as zero, the border colour)
 *   tex1Dfetch<T>(tex, i)   element i of the buffer, no addressing: an index outside is an
 *                           out-of-bounds memory error (a GPU returns 0).
 *   tex1D/2D/3D, tex1DLayered/tex2DLayered (layer index clamped), the Lod and Grad forms (no
 *   mipmaps: always level 0), tex2Dgather (component `comp` of the 4 texels of the bilinear
 *   footprint, D3D gather4 order), and the pointer-result overloads.
 *   surf1D/2D/3Dread/write, surf1D/2DLayeredread/write   x in bytes; outside the surface:
 *       cudaBoundaryModeTrap (the default) is an out-of-bounds memory error and no access,
 *       cudaBoundaryModeClamp clamps x, y, z into the surface, cudaBoundaryModeZero reads 0 and
 *       drops writes.
 *   Legacy texture references (texture<T, dim, mode>, cudaBindTexture...): see the end of this file.
 *   Not modelled (the kernel is unsupported, naming the call and its line): cubemaps,
 *   cudaReadModeNormalizedFloat, sRGB, mipmap levels, a texture with no backing array.
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

/* ---- device side ----------------------------------------------------------------------------
 * The machine knows, per handle, the backing array's shape and dtype and the descriptor bits the
 * launch gave (simu/interp/cuda_textures.py); everything else is C below, so every texel read is
 * an ordinary recorded load of the backing buffer.
 *   __simu_tex_extent(h, axes, axis, code)  extent of axis 0 = x (innermost), 1 = y, 2 = z/layer
 *                     of an array of `axes` spatial axes; axis -1: bytes of one texel.  `code`
 *                     describes T (__simu_texel<T>::code); the machine checks sizeof(T) against
 *                     the texel unless __SIMU_TEX_ANY_SIZE is set (surfaces, gather).
 *   __simu_tex_mode(h)        descriptor bits: address mode (cudaTextureAddressMode, bits 0-1),
 *                             __SIMU_TEX_LINEAR, __SIMU_TEX_NORMALIZED.
 *   __simu_tex_texel(h, off)  the address of byte `off` of the backing buffer.
 *   __simu_surf_trap(...)     an out-of-bounds surface access under cudaBoundaryModeTrap: recorded
 *                             as an out-of-bounds memory error; the access does not happen.
 *   __simu_tex_unfilterable(h)  linear filtering of a texture whose T is not float: unsupported. */
#define __SIMU_TEX_LINEAR 4
#define __SIMU_TEX_NORMALIZED 8
#define __SIMU_TEX_ANY_SIZE (1 << 16)
extern "C" __device__ const void *__simu_tex1Dfetch(cudaTextureObject_t tex, long long byte_offset, int code);
extern "C" __device__ int __simu_tex_extent(cudaTextureObject_t tex, int axes, int axis, int code);
extern "C" __device__ int __simu_tex_mode(cudaTextureObject_t tex);
extern "C" __device__ void *__simu_tex_texel(cudaTextureObject_t tex, long long byte_offset);
extern "C" __device__ void __simu_surf_trap(cudaSurfaceObject_t surf, int axes, int x, int y, int z, int size,
                                            int write);
extern "C" __device__ void __simu_tex_unfilterable(cudaTextureObject_t tex);
/* not modelled: a kernel that calls one is unsupported, naming the call and its line */
extern "C" __device__ void __simu_texCubemap(void);
extern "C" __device__ void __simu_surfCubemap(void);

/* What T is: component type, count, kind (0 unsigned, 1 signed, 2 float, 3 other) and the code
 * the machine and the launch side read (sizeof(component) | kind << 8 | count << 12). */
template <class T> struct __simu_texel {
  typedef T comp;
  enum { n = 1, kind = 3, code = (int)sizeof(T) | 3 << 8 | 1 << 12 };
};
#define __SIMU_TEXEL(T, C, N, K)                                                                   \
  template <> struct __simu_texel<T> {                                                           \
    typedef C comp;                                                                              \
    enum { n = N, kind = K, code = (int)sizeof(C) | K << 8 | N << 12 };                          \
  };
#define __SIMU_TEXELS(S, V, K)                                                                     \
  __SIMU_TEXEL(S, S, 1, K) __SIMU_TEXEL(V##1, S, 1, K) __SIMU_TEXEL(V##2, S, 2, K)              \
  __SIMU_TEXEL(V##4, S, 4, K)
__SIMU_TEXEL(char, char, 1, ((char)-1 < 0))
__SIMU_TEXELS(signed char, char, 1)
__SIMU_TEXELS(unsigned char, uchar, 0)
__SIMU_TEXELS(short, short, 1)
__SIMU_TEXELS(unsigned short, ushort, 0)
__SIMU_TEXELS(int, int, 1)
__SIMU_TEXELS(unsigned int, uint, 0)
__SIMU_TEXELS(long, long, 1)
__SIMU_TEXELS(unsigned long, ulong, 0)
__SIMU_TEXELS(long long, longlong, 1)
__SIMU_TEXELS(unsigned long long, ulonglong, 0)
__SIMU_TEXELS(float, float, 2)
__SIMU_TEXELS(double, double, 2)
#undef __SIMU_TEXELS
#undef __SIMU_TEXEL

/* (1 - w) * a + w * b per component; only float texels filter (CUDA filters float results). */
template <class T> __SIMU_DEV T __simu_lerp(cudaTextureObject_t tex, T a, T, float) {
  __simu_tex_unfilterable(tex);
  return a;
}
__SIMU_DEV float __simu_lerp(cudaTextureObject_t, float a, float b, float w) { return (1.0f - w) * a + w * b; }
__SIMU_DEV double __simu_lerp(cudaTextureObject_t, double a, double b, float w) { return (1.0 - w) * a + w * b; }
#define __SIMU_LERP(V, S)                                                                          \
  __SIMU_DEV V##1 __simu_lerp(cudaTextureObject_t t, V##1 a, V##1 b, float w) {                   \
    V##1 r;                                                                                      \
    r.x = __simu_lerp(t, a.x, b.x, w);                                                           \
    return r;                                                                                    \
  }                                                                                              \
  __SIMU_DEV V##2 __simu_lerp(cudaTextureObject_t t, V##2 a, V##2 b, float w) {                   \
    V##2 r;                                                                                      \
    r.x = __simu_lerp(t, a.x, b.x, w);                                                           \
    r.y = __simu_lerp(t, a.y, b.y, w);                                                           \
    return r;                                                                                    \
  }                                                                                              \
  __SIMU_DEV V##4 __simu_lerp(cudaTextureObject_t t, V##4 a, V##4 b, float w) {                   \
    V##4 r;                                                                                      \
    r.x = __simu_lerp(t, a.x, b.x, w);                                                           \
    r.y = __simu_lerp(t, a.y, b.y, w);                                                           \
    r.z = __simu_lerp(t, a.z, b.z, w);                                                           \
    r.w = __simu_lerp(t, a.w, b.w, w);                                                           \
    return r;                                                                                    \
  }
__SIMU_LERP(float, float)
__SIMU_LERP(double, double)
#undef __SIMU_LERP

/* A texel index after addressing (-1: outside under border addressing). */
__SIMU_DEV int __simu_tex_address(int i, int n, int mode) {
  const int am = mode & 3;
  if (am == cudaAddressModeBorder) return i < 0 || i >= n ? -1 : i;
  if ((mode & __SIMU_TEX_NORMALIZED) && am == cudaAddressModeWrap) {
    i %= n;
    return i < 0 ? i + n : i;
  }
  if ((mode & __SIMU_TEX_NORMALIZED) && am == cudaAddressModeMirror) {
    int t = i % (2 * n);
    if (t < 0) t += 2 * n;
    return t >= n ? 2 * n - 1 - t : t;
  }
  return i < 0 ? 0 : (i >= n ? n - 1 : i);  /* clamp (also wrap/mirror on unnormalised coordinates) */
}

/* The two texels of one axis a fetch at coordinate c reads, and the weight of the second. */
struct __simu_tap {
  int i0, i1;
  float a;
};
__SIMU_DEV __simu_tap __simu_tex_tap(float c, int n, int mode, int linear) {
  float u = (mode & __SIMU_TEX_NORMALIZED) ? c * (float)n : c;
  u = __builtin_fminf(__builtin_fmaxf(u, -1.0e9f), 1.0e9f);  /* NaN -> -1e9: an edge texel */
  __simu_tap t;
  if (linear) {
    u -= 0.5f;
    const float f = __builtin_floorf(u);
    t.a = __builtin_rintf((u - f) * 256.0f) / 256.0f;  /* 9-bit fixed point, 8 fraction bits */
    t.i0 = __simu_tex_address((int)f, n, mode);
    t.i1 = __simu_tex_address((int)f + 1, n, mode);
  } else {
    t.i0 = t.i1 = __simu_tex_address((int)__builtin_floorf(u), n, mode);
    t.a = 0.0f;
  }
  return t;
}

template <class T> __SIMU_DEV T __simu_tex_at(cudaTextureObject_t tex, int i, int j, int k, int w, int h) {
  if (i < 0 || j < 0 || k < 0) return T();  /* border colour: zero */
  return *(const T *)__simu_tex_texel(tex, (((long long)k * h + j) * w + i) * (long long)sizeof(T));
}

/* A fetch of DIMS filtered axes (x, y, z), plus a layer axis when LAYERED. */
template <class T, int DIMS, int LAYERED>
__SIMU_DEV T __simu_tex_sample(cudaTextureObject_t tex, float x, float y, float z, int layer) {
  enum { code = __simu_texel<T>::code, axes = DIMS + LAYERED };
  const int mode = __simu_tex_mode(tex), linear = mode & __SIMU_TEX_LINEAR;
  const int w = __simu_tex_extent(tex, axes, 0, code);
  const int h = DIMS > 1 ? __simu_tex_extent(tex, axes, 1, code) : 1;
  const int d = DIMS > 2 ? __simu_tex_extent(tex, axes, 2, code) : 1;
  int plane = 0;
  if (LAYERED) {
    const int layers = __simu_tex_extent(tex, axes, DIMS, code);
    plane = (layer < 0 ? 0 : (layer >= layers ? layers - 1 : layer)) * d;  /* layer index: clamped */
  }
  const __simu_tap tx = __simu_tex_tap(x, w, mode, linear);
  const __simu_tap ty = DIMS > 1 ? __simu_tex_tap(y, h, mode, linear) : __simu_tap{0, 0, 0.0f};
  __simu_tap tz = DIMS > 2 ? __simu_tex_tap(z, d, mode, linear) : __simu_tap{0, 0, 0.0f};
  tz.i0 = tz.i0 < 0 ? -1 : tz.i0 + plane;
  tz.i1 = tz.i1 < 0 ? -1 : tz.i1 + plane;
  if (!linear) return __simu_tex_at<T>(tex, tx.i0, ty.i0, tz.i0, w, h);
  T r = __simu_lerp(tex, __simu_tex_at<T>(tex, tx.i0, ty.i0, tz.i0, w, h),
                    __simu_tex_at<T>(tex, tx.i1, ty.i0, tz.i0, w, h), tx.a);
  if (DIMS > 1) {
    const T r1 = __simu_lerp(tex, __simu_tex_at<T>(tex, tx.i0, ty.i1, tz.i0, w, h),
                             __simu_tex_at<T>(tex, tx.i1, ty.i1, tz.i0, w, h), tx.a);
    r = __simu_lerp(tex, r, r1, ty.a);
  }
  if (DIMS > 2) {
    T s = __simu_lerp(tex, __simu_tex_at<T>(tex, tx.i0, ty.i0, tz.i1, w, h),
                      __simu_tex_at<T>(tex, tx.i1, ty.i0, tz.i1, w, h), tx.a);
    const T s1 = __simu_lerp(tex, __simu_tex_at<T>(tex, tx.i0, ty.i1, tz.i1, w, h),
                             __simu_tex_at<T>(tex, tx.i1, ty.i1, tz.i1, w, h), tx.a);
    s = __simu_lerp(tex, s, s1, ty.a);
    r = __simu_lerp(tex, r, s, tz.a);
  }
  return r;
}

template <class T> __SIMU_DEV T tex1Dfetch(cudaTextureObject_t tex, int x) {
  return *(const T *)__simu_tex1Dfetch(tex, (long long)x * (long long)sizeof(T), __simu_texel<T>::code);
}
template <class T> __SIMU_DEV T tex1D(cudaTextureObject_t t, float x) { return __simu_tex_sample<T, 1, 0>(t, x, 0, 0, 0); }
template <class T> __SIMU_DEV T tex2D(cudaTextureObject_t t, float x, float y) {
  return __simu_tex_sample<T, 2, 0>(t, x, y, 0, 0);
}
template <class T> __SIMU_DEV T tex3D(cudaTextureObject_t t, float x, float y, float z) {
  return __simu_tex_sample<T, 3, 0>(t, x, y, z, 0);
}
template <class T> __SIMU_DEV T tex1DLayered(cudaTextureObject_t t, float x, int layer) {
  return __simu_tex_sample<T, 1, 1>(t, x, 0, 0, layer);
}
template <class T> __SIMU_DEV T tex2DLayered(cudaTextureObject_t t, float x, float y, int layer) {
  return __simu_tex_sample<T, 2, 1>(t, x, y, 0, layer);
}
/* Lod and Grad forms: no mipmaps are modelled, every level is level 0. */
template <class T> __SIMU_DEV T tex1DLod(cudaTextureObject_t t, float x, float) { return tex1D<T>(t, x); }
template <class T> __SIMU_DEV T tex2DLod(cudaTextureObject_t t, float x, float y, float) { return tex2D<T>(t, x, y); }
template <class T> __SIMU_DEV T tex3DLod(cudaTextureObject_t t, float x, float y, float z, float) {
  return tex3D<T>(t, x, y, z);
}
template <class T> __SIMU_DEV T tex1DLayeredLod(cudaTextureObject_t t, float x, int layer, float) {
  return tex1DLayered<T>(t, x, layer);
}
template <class T> __SIMU_DEV T tex2DLayeredLod(cudaTextureObject_t t, float x, float y, int layer, float) {
  return tex2DLayered<T>(t, x, y, layer);
}
template <class T> __SIMU_DEV T tex1DGrad(cudaTextureObject_t t, float x, float, float) { return tex1D<T>(t, x); }
template <class T> __SIMU_DEV T tex2DGrad(cudaTextureObject_t t, float x, float y, float2, float2) {
  return tex2D<T>(t, x, y);
}
template <class T> __SIMU_DEV T tex3DGrad(cudaTextureObject_t t, float x, float y, float z, float4, float4) {
  return tex3D<T>(t, x, y, z);
}
/* The four texels bilinear filtering at (x, y) would read, component `comp` of each, in the order
 * (i0, j1), (i1, j1), (i1, j0), (i0, j0) (D3D gather4); T is a 4-vector of that component's type. */
template <class T> __SIMU_DEV T tex2Dgather(cudaTextureObject_t t, float x, float y, int comp = 0) {
  typedef typename __simu_texel<T>::comp C;
  enum { code = (int)sizeof(C) | __simu_texel<T>::kind << 8 | 1 << 12 | __SIMU_TEX_ANY_SIZE };
  const int mode = __simu_tex_mode(t);
  const int w = __simu_tex_extent(t, 2, 0, code), h = __simu_tex_extent(t, 2, 1, code);
  const int tb = __simu_tex_extent(t, 2, -1, code);
  const __simu_tap tx = __simu_tex_tap(x, w, mode, 1), ty = __simu_tex_tap(y, h, mode, 1);
  const int is[4] = {tx.i0, tx.i1, tx.i1, tx.i0}, js[4] = {ty.i1, ty.i1, ty.i0, ty.i0};
  T r = T();
  C *pr = (C *)&r;
  if (comp < 0 || (comp + 1) * (int)sizeof(C) > tb) return r;
  for (int k = 0; k < 4; ++k)
    if (is[k] >= 0 && js[k] >= 0)
      pr[k] = *(const C *)__simu_tex_texel(t, ((long long)js[k] * w + is[k]) * tb + comp * (long long)sizeof(C));
  return r;
}
template <class T> __SIMU_DEV void tex1Dfetch(T *r, cudaTextureObject_t t, int x) { *r = tex1Dfetch<T>(t, x); }
template <class T> __SIMU_DEV void tex1D(T *r, cudaTextureObject_t t, float x) { *r = tex1D<T>(t, x); }
template <class T> __SIMU_DEV void tex2D(T *r, cudaTextureObject_t t, float x, float y) { *r = tex2D<T>(t, x, y); }
template <class T> __SIMU_DEV void tex3D(T *r, cudaTextureObject_t t, float x, float y, float z) {
  *r = tex3D<T>(t, x, y, z);
}
template <class T> __SIMU_DEV void tex2DLayered(T *r, cudaTextureObject_t t, float x, float y, int layer) {
  *r = tex2DLayered<T>(t, x, y, layer);
}
template <class T> __SIMU_DEV T texCubemap(cudaTextureObject_t, float, float, float) {
  __simu_texCubemap();
  return T();
}

/* Surfaces: x in bytes; the boundary mode decides what an access outside the surface does. */
template <class T>
__SIMU_DEV char *__simu_surf_at(cudaSurfaceObject_t s, int axes, int x, int y, int z,
                                enum cudaSurfaceBoundaryMode mode, int write) {
  enum { code = __simu_texel<T>::code | __SIMU_TEX_ANY_SIZE, size = (int)sizeof(T) };
  const long long row = (long long)__simu_tex_extent(s, axes, 0, code) * __simu_tex_extent(s, axes, -1, code);
  const int h = axes > 1 ? __simu_tex_extent(s, axes, 1, code) : 1;
  const int d = axes > 2 ? __simu_tex_extent(s, axes, 2, code) : 1;
  if (x < 0 || x + size > row || y < 0 || y >= h || z < 0 || z >= d) {
    if (mode == cudaBoundaryModeTrap) {
      __simu_surf_trap(s, axes, x, y, z, size, write);
      return 0;
    }
    if (mode == cudaBoundaryModeZero) return 0;
    x = x < 0 ? 0 : (x + size > row ? (int)row - size : x);
    y = y < 0 ? 0 : (y >= h ? h - 1 : y);
    z = z < 0 ? 0 : (z >= d ? d - 1 : z);
  }
  return (char *)__simu_tex_texel(s, ((long long)z * h + y) * row + x);
}
template <class T> __SIMU_DEV T __simu_surf_read(cudaSurfaceObject_t s, int axes, int x, int y, int z,
                                                 enum cudaSurfaceBoundaryMode m) {
  const T *p = (const T *)__simu_surf_at<T>(s, axes, x, y, z, m, 0);
  return p ? *p : T();  /* zero mode and trap: 0 */
}
template <class T> __SIMU_DEV void __simu_surf_write(T v, cudaSurfaceObject_t s, int axes, int x, int y, int z,
                                                     enum cudaSurfaceBoundaryMode m) {
  T *p = (T *)__simu_surf_at<T>(s, axes, x, y, z, m, 1);
  if (p) *p = v;  /* zero mode and trap: the write is dropped */
}
#define __SIMU_SURF_MODE enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap
template <class T> __SIMU_DEV T surf1Dread(cudaSurfaceObject_t s, int x, __SIMU_SURF_MODE) {
  return __simu_surf_read<T>(s, 1, x, 0, 0, m);
}
template <class T> __SIMU_DEV T surf2Dread(cudaSurfaceObject_t s, int x, int y, __SIMU_SURF_MODE) {
  return __simu_surf_read<T>(s, 2, x, y, 0, m);
}
template <class T> __SIMU_DEV T surf3Dread(cudaSurfaceObject_t s, int x, int y, int z, __SIMU_SURF_MODE) {
  return __simu_surf_read<T>(s, 3, x, y, z, m);
}
template <class T> __SIMU_DEV T surf1DLayeredread(cudaSurfaceObject_t s, int x, int layer, __SIMU_SURF_MODE) {
  return __simu_surf_read<T>(s, 2, x, layer, 0, m);
}
template <class T> __SIMU_DEV T surf2DLayeredread(cudaSurfaceObject_t s, int x, int y, int layer, __SIMU_SURF_MODE) {
  return __simu_surf_read<T>(s, 3, x, y, layer, m);
}
template <class T> __SIMU_DEV void surf1Dread(T *r, cudaSurfaceObject_t s, int x, __SIMU_SURF_MODE) {
  *r = surf1Dread<T>(s, x, m);
}
template <class T> __SIMU_DEV void surf2Dread(T *r, cudaSurfaceObject_t s, int x, int y, __SIMU_SURF_MODE) {
  *r = surf2Dread<T>(s, x, y, m);
}
template <class T> __SIMU_DEV void surf3Dread(T *r, cudaSurfaceObject_t s, int x, int y, int z, __SIMU_SURF_MODE) {
  *r = surf3Dread<T>(s, x, y, z, m);
}
template <class T> __SIMU_DEV void surf1Dwrite(T v, cudaSurfaceObject_t s, int x, __SIMU_SURF_MODE) {
  __simu_surf_write<T>(v, s, 1, x, 0, 0, m);
}
template <class T> __SIMU_DEV void surf2Dwrite(T v, cudaSurfaceObject_t s, int x, int y, __SIMU_SURF_MODE) {
  __simu_surf_write<T>(v, s, 2, x, y, 0, m);
}
template <class T> __SIMU_DEV void surf3Dwrite(T v, cudaSurfaceObject_t s, int x, int y, int z, __SIMU_SURF_MODE) {
  __simu_surf_write<T>(v, s, 3, x, y, z, m);
}
template <class T> __SIMU_DEV void surf1DLayeredwrite(T v, cudaSurfaceObject_t s, int x, int layer, __SIMU_SURF_MODE) {
  __simu_surf_write<T>(v, s, 2, x, layer, 0, m);
}
template <class T>
__SIMU_DEV void surf2DLayeredwrite(T v, cudaSurfaceObject_t s, int x, int y, int layer, __SIMU_SURF_MODE) {
  __simu_surf_write<T>(v, s, 3, x, y, layer, m);
}
#undef __SIMU_SURF_MODE
template <class T> __SIMU_DEV T surfCubemapread(cudaSurfaceObject_t, int, int, int, enum cudaSurfaceBoundaryMode =
                                                    cudaBoundaryModeTrap) {
  __simu_surfCubemap();
  return T();
}

/* ---- legacy texture references (removed in CUDA 12, still in older code) --------------------
 * `texture<T, dim, mode> tex;` at file scope, bound on the host (cudaBindTexture...).  clang's
 * device_builtin_texture_type attribute makes the variable a device-side 64-bit handle, read by
 * llvm.nvvm.texsurf.handle.internal; the machine gives each reference the kernel reads a backing
 * array as for a texture object (the launch names it like a parameter: --buffer tex=float32:N),
 * so the fetches below are the object forms on that handle.  cudaReadModeNormalizedFloat is not
 * modelled: a kernel fetching through such a reference is unsupported. */
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC
struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int __cudaReserved[14];
};
template <class T, int dim = cudaTextureType1D, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture : public textureReference {
  __host__ texture(int norm = 0, enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                   enum cudaTextureAddressMode aMode = cudaAddressModeClamp) {
    normalized = norm;
    filterMode = fMode;
    addressMode[0] = addressMode[1] = addressMode[2] = aMode;
    channelDesc = cudaCreateChannelDesc<T>();
    sRGB = 0;
  }
};
template <class T, int dim, enum cudaTextureReadMode mode>
static __host__ inline cudaError_t cudaBindTexture(size_t *offset, const struct texture<T, dim, mode> &tex,
                                                   const void *devPtr, size_t size = ~(size_t)0) {
  return cudaSuccess;
}
template <class T, int dim, enum cudaTextureReadMode mode>
static __host__ inline cudaError_t cudaBindTexture(size_t *offset, const struct texture<T, dim, mode> &tex,
                                                   const void *devPtr, const struct cudaChannelFormatDesc &desc,
                                                   size_t size = ~(size_t)0) {
  return cudaSuccess;
}
template <class T, int dim, enum cudaTextureReadMode mode>
static __host__ inline cudaError_t cudaBindTexture2D(size_t *offset, const struct texture<T, dim, mode> &tex,
                                                     const void *devPtr, size_t width, size_t height,
                                                     size_t pitch) {
  return cudaSuccess;
}
template <class T, int dim, enum cudaTextureReadMode mode>
static __host__ inline cudaError_t cudaBindTexture2D(size_t *offset, const struct texture<T, dim, mode> &tex,
                                                     const void *devPtr, const struct cudaChannelFormatDesc &desc,
                                                     size_t width, size_t height, size_t pitch) {
  return cudaSuccess;
}
template <class T, int dim, enum cudaTextureReadMode mode>
static __host__ inline cudaError_t cudaBindTextureToArray(const struct texture<T, dim, mode> &tex,
                                                          cudaArray_const_t array) {
  return cudaSuccess;
}
template <class T, int dim, enum cudaTextureReadMode mode>
static __host__ inline cudaError_t cudaBindTextureToArray(const struct texture<T, dim, mode> &tex,
                                                          cudaArray_const_t array,
                                                          const struct cudaChannelFormatDesc &desc) {
  return cudaSuccess;
}
template <class T, int dim, enum cudaTextureReadMode mode>
static __host__ inline cudaError_t cudaUnbindTexture(const struct texture<T, dim, mode> &tex) {
  return cudaSuccess;
}

extern "C" __device__ void __simu_texref_normalized_float(void);
/* the handle of a reference passed by value (clang passes the 64-bit handle) */
template <class R> __SIMU_DEV cudaTextureObject_t __simu_texref(const R &t) {
  return *(const cudaTextureObject_t *)(const void *)&t;
}
/* what a cudaReadModeNormalizedFloat fetch returns (float for scalars, floatN for vectors) */
template <class T> struct __simu_normalized { typedef float type; };
#define __SIMU_NORMALIZED(V)                                                                         \
  template <> struct __simu_normalized<V##1> { typedef float1 type; };                              \
  template <> struct __simu_normalized<V##2> { typedef float2 type; };                              \
  template <> struct __simu_normalized<V##4> { typedef float4 type; };
__SIMU_NORMALIZED(char)
__SIMU_NORMALIZED(uchar)
__SIMU_NORMALIZED(short)
__SIMU_NORMALIZED(ushort)
#undef __SIMU_NORMALIZED
#define __SIMU_TEXREF(DIM, NAME, PARAMS, ARGS)                                                       \
  template <class T> __SIMU_DEV T NAME(texture<T, DIM, cudaReadModeElementType> t PARAMS) {          \
    return NAME<T>(__simu_texref(t) ARGS);                                                           \
  }                                                                                                  \
  template <class T>                                                                                 \
  __SIMU_DEV typename __simu_normalized<T>::type NAME(texture<T, DIM, cudaReadModeNormalizedFloat> PARAMS) { \
    __simu_texref_normalized_float();                                                                \
    return typename __simu_normalized<T>::type();                                                    \
  }
#define __SIMU_COMMA ,
__SIMU_TEXREF(cudaTextureType1D, tex1Dfetch, __SIMU_COMMA int x, __SIMU_COMMA x)
__SIMU_TEXREF(cudaTextureType1D, tex1D, __SIMU_COMMA float x, __SIMU_COMMA x)
__SIMU_TEXREF(cudaTextureType2D, tex2D, __SIMU_COMMA float x __SIMU_COMMA float y, __SIMU_COMMA x __SIMU_COMMA y)
__SIMU_TEXREF(cudaTextureType3D, tex3D, __SIMU_COMMA float x __SIMU_COMMA float y __SIMU_COMMA float z,
              __SIMU_COMMA x __SIMU_COMMA y __SIMU_COMMA z)
__SIMU_TEXREF(cudaTextureType1DLayered, tex1DLayered, __SIMU_COMMA float x __SIMU_COMMA int layer,
              __SIMU_COMMA x __SIMU_COMMA layer)
__SIMU_TEXREF(cudaTextureType2DLayered, tex2DLayered,
              __SIMU_COMMA float x __SIMU_COMMA float y __SIMU_COMMA int layer,
              __SIMU_COMMA x __SIMU_COMMA y __SIMU_COMMA layer)
__SIMU_TEXREF(cudaTextureType1D, tex1DLod, __SIMU_COMMA float x __SIMU_COMMA float level,
              __SIMU_COMMA x __SIMU_COMMA level)
__SIMU_TEXREF(cudaTextureType2D, tex2DLod, __SIMU_COMMA float x __SIMU_COMMA float y __SIMU_COMMA float level,
              __SIMU_COMMA x __SIMU_COMMA y __SIMU_COMMA level)
#undef __SIMU_COMMA
#undef __SIMU_TEXREF

#endif /* __SIMU_TEXTURE_H */
