/* simu shim: what NVIDIA's CCCL headers (Thrust, CUB, libcu++: the `nvidia-cuda-cccl-cu12` wheel,
 * put on the include path by simu) need beyond simu's runtime shim. Force-included after
 * cuda_runtime.h; everything here is also declared by the real toolkit headers, so a file that does
 * not use CCCL sees only standard names.
 *
 *   CUDA_VERSION              = CUDART_VERSION: clang-cuda CCCL reads the toolkit version from it
 *   placement new             as clang's wrapper headers define it
 *   CCCL_DISABLE_NVTX         CUB's host-side NVTX ranges off
 *   CUDARTAPI                 the runtime's calling-convention macro (empty on Linux)
 *   _LIBCUDACXX_ATOMIC_UNSAFE_AUTOMATIC_STORAGE  atomics take the plain path (see below)
 *   CCCL_DISABLE_FP16/BF16    CCCL's __half/__nv_bfloat16 support needs the real cuda_fp16.h
 *                             internals (__half_raw); simu's __half stays usable on its own
 *   double_t, float_t, the long double and nexttoward libm names that libcu++'s <cmath> re-exports
 *   __vmins2/__vminu2/__vmaxs2/__vmaxu2  per-halfword SIMD min/max (CUB's thread operators)
 *   __cvta_generic_to_shared & co.       address-space conversions: the identity in simu's
 *                                        pointer model (allocation id + offset in every space)
 * (the cudaError_t / cudaDevAttr values Thrust's host code names are the shim's driver_types.h) */
#ifndef __SIMU_CCCL_H
#define __SIMU_CCCL_H

#ifndef CUDA_VERSION
#define CUDA_VERSION CUDART_VERSION
#endif
#ifndef CCCL_DISABLE_FP16_SUPPORT
#define CCCL_DISABLE_FP16_SUPPORT
#endif
#ifndef CCCL_DISABLE_BF16_SUPPORT
#define CCCL_DISABLE_BF16_SUPPORT
#endif

/* libcu++ works around an nvcc miscompile of atomics on local memory by calling its operators
 * through function pointers; simu's machine has no such bug, so the plain atomic path is taken */
#ifndef _LIBCUDACXX_ATOMIC_UNSAFE_AUTOMATIC_STORAGE
#define _LIBCUDACXX_ATOMIC_UNSAFE_AUTOMATIC_STORAGE
#endif
/* CUB's NVTX ranges are host-side profiling annotations; simu's NVTX shim is declarations only */
#ifndef CCCL_DISABLE_NVTX
#define CCCL_DISABLE_NVTX
#endif
#ifndef CUDARTAPI
#define CUDARTAPI
#endif

/* placement new, as clang's CUDA wrapper headers provide it (CUB constructs items in place) */
#ifndef __SIMU_PLACEMENT_NEW
#define __SIMU_PLACEMENT_NEW
__device__ inline void *operator new(__SIZE_TYPE__, void *__p) noexcept { return __p; }
__device__ inline void *operator new[](__SIZE_TYPE__, void *__p) noexcept { return __p; }
__device__ inline void operator delete(void *, void *) noexcept {}
__device__ inline void operator delete[](void *, void *) noexcept {}
#endif

#ifndef __SIMU_REAL_CUDA_HEADERS__ /* with a real toolkit (--cuda-path) the system <math.h> has these */
typedef float float_t;
typedef double double_t;

/* declarations only (never called in device code): libcu++'s <cmath> names them with `using ::` */
extern "C" {
long double frexpl(long double, int *);
long double ldexpl(long double, int);
long double modfl(long double, long double *);
long double fmal(long double, long double, long double);
long double scalbnl(long double, int);
long double scalblnl(long double, long);
long double remquol(long double, long double, int *);
long double nanl(const char *);
long long llrintl(long double);
long long llroundl(long double);
long lrintl(long double);
long lroundl(long double);
long double nexttowardl(long double, long double);
}
__host__ __device__ __forceinline__ double nexttoward(double x, long double y) noexcept {
  return __builtin_nextafter(x, (double)y);
}
__host__ __device__ __forceinline__ float nexttowardf(float x, long double y) noexcept {
  return __builtin_nextafterf(x, (float)y);
}
#endif

/* per-halfword SIMD min/max */
#define __SIMU_CCCL_V2(name, T, op)                                                       \
  static __device__ __forceinline__ unsigned int name(unsigned int a, unsigned int b) {    \
    T al = (T)(a & 0xffffu), bl = (T)(b & 0xffffu), ah = (T)(a >> 16), bh = (T)(b >> 16); \
    T lo = (al op bl) ? al : bl, hi = (ah op bh) ? ah : bh;                                \
    return ((unsigned int)(unsigned short)lo) | ((unsigned int)(unsigned short)hi << 16);  \
  }
__SIMU_CCCL_V2(__vmins2, short, <)
__SIMU_CCCL_V2(__vminu2, unsigned short, <)
__SIMU_CCCL_V2(__vmaxs2, short, >)
__SIMU_CCCL_V2(__vmaxu2, unsigned short, >)
#undef __SIMU_CCCL_V2

/* address-space conversions: identities in simu's pointer model */
static __device__ __forceinline__ size_t __cvta_generic_to_shared(const void *p) { return (size_t)p; }
static __device__ __forceinline__ size_t __cvta_generic_to_global(const void *p) { return (size_t)p; }
static __device__ __forceinline__ size_t __cvta_generic_to_constant(const void *p) { return (size_t)p; }
static __device__ __forceinline__ size_t __cvta_generic_to_local(const void *p) { return (size_t)p; }
static __device__ __forceinline__ void *__cvta_shared_to_generic(size_t a) { return (void *)a; }
static __device__ __forceinline__ void *__cvta_global_to_generic(size_t a) { return (void *)a; }
static __device__ __forceinline__ void *__cvta_constant_to_generic(size_t a) { return (void *)a; }
static __device__ __forceinline__ void *__cvta_local_to_generic(size_t a) { return (void *)a; }


#endif
