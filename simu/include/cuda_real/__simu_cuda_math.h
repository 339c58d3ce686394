/* simu's device math library for real toolkit headers (included by __simu_cuda_prelude.h).
 *
 * The system's <math.h>/<cmath>/<stdlib.h> declare the C library host-only; as clang's wrapper
 * headers do, device code gets static __device__ overloads of the same names, each calling its
 * libdevice function (__nv_sinf, __nv_sin, ...), which simu's machine evaluates through its math
 * tables (simu/interp/mathlib.py: the __nv_ and __nv_fast_ prefixes), plus float overloads of the
 * double names and the std:: names for device code. */
#ifndef __SIMU_CUDA_MATH_H
#define __SIMU_CUDA_MATH_H

#define __SIMU_NV1(NAME)                                                                       \
  extern "C" __device__ float __nv_##NAME##f(float);                                            \
  extern "C" __device__ double __nv_##NAME(double);                                             \
  static __device__ __forceinline__ float NAME##f(float __x) { return __nv_##NAME##f(__x); }    \
  static __device__ __forceinline__ double NAME(double __x) { return __nv_##NAME(__x); }        \
  static __device__ __forceinline__ float NAME(float __x) { return __nv_##NAME##f(__x); }       \
  namespace std { using ::NAME; using ::NAME##f; }
#define __SIMU_NV2(NAME)                                                                       \
  extern "C" __device__ float __nv_##NAME##f(float, float);                                     \
  extern "C" __device__ double __nv_##NAME(double, double);                                     \
  static __device__ __forceinline__ float NAME##f(float __x, float __y) { return __nv_##NAME##f(__x, __y); } \
  static __device__ __forceinline__ double NAME(double __x, double __y) { return __nv_##NAME(__x, __y); }   \
  static __device__ __forceinline__ float NAME(float __x, float __y) { return __nv_##NAME##f(__x, __y); }   \
  namespace std { using ::NAME; using ::NAME##f; }

__SIMU_NV1(sqrt) __SIMU_NV1(rsqrt) __SIMU_NV1(cbrt) __SIMU_NV1(exp) __SIMU_NV1(exp2) __SIMU_NV1(exp10)
__SIMU_NV1(expm1) __SIMU_NV1(log) __SIMU_NV1(log2) __SIMU_NV1(log10) __SIMU_NV1(log1p) __SIMU_NV1(sin)
__SIMU_NV1(cos) __SIMU_NV1(tan) __SIMU_NV1(asin) __SIMU_NV1(acos) __SIMU_NV1(atan) __SIMU_NV1(sinh)
__SIMU_NV1(cosh) __SIMU_NV1(tanh) __SIMU_NV1(asinh) __SIMU_NV1(acosh) __SIMU_NV1(atanh) __SIMU_NV1(fabs)
__SIMU_NV1(floor) __SIMU_NV1(ceil) __SIMU_NV1(trunc) __SIMU_NV1(round) __SIMU_NV1(rint) __SIMU_NV1(nearbyint)
__SIMU_NV1(erf) __SIMU_NV1(erfc) __SIMU_NV1(lgamma) __SIMU_NV1(tgamma) __SIMU_NV1(sinpi) __SIMU_NV1(cospi)
__SIMU_NV1(logb)
__SIMU_NV2(pow) __SIMU_NV2(atan2) __SIMU_NV2(hypot) __SIMU_NV2(fmod) __SIMU_NV2(fmin) __SIMU_NV2(fmax)
__SIMU_NV2(copysign) __SIMU_NV2(fdim) __SIMU_NV2(remainder) __SIMU_NV2(nextafter)
#undef __SIMU_NV1
#undef __SIMU_NV2

extern "C" __device__ float __nv_fmaf(float, float, float);
extern "C" __device__ double __nv_fma(double, double, double);
static __device__ __forceinline__ float fmaf(float __a, float __b, float __c) { return __nv_fmaf(__a, __b, __c); }
static __device__ __forceinline__ double fma(double __a, double __b, double __c) { return __nv_fma(__a, __b, __c); }
static __device__ __forceinline__ float fma(float __a, float __b, float __c) { return __nv_fmaf(__a, __b, __c); }
static __device__ __forceinline__ void sincosf(float __x, float *__s, float *__c) {
  *__s = sinf(__x);
  *__c = cosf(__x);
}
static __device__ __forceinline__ void sincos(double __x, double *__s, double *__c) {
  *__s = sin(__x);
  *__c = cos(__x);
}
namespace std { using ::fma; using ::fmaf; }

/* fast intrinsics: libdevice's __nv_fast_* forms, evaluated exactly */
extern "C" __device__ float __nv_fast_expf(float);
extern "C" __device__ float __nv_fast_logf(float);
extern "C" __device__ float __nv_fast_sinf(float);
extern "C" __device__ float __nv_fast_cosf(float);
extern "C" __device__ float __nv_fast_tanf(float);
extern "C" __device__ float __nv_fast_exp10f(float);
extern "C" __device__ float __nv_fast_log2f(float);
extern "C" __device__ float __nv_fast_log10f(float);
extern "C" __device__ float __nv_fast_powf(float, float);
static __device__ __forceinline__ float __expf(float __x) { return __nv_fast_expf(__x); }
static __device__ __forceinline__ float __logf(float __x) { return __nv_fast_logf(__x); }
static __device__ __forceinline__ float __sinf(float __x) { return __nv_fast_sinf(__x); }
static __device__ __forceinline__ float __cosf(float __x) { return __nv_fast_cosf(__x); }
static __device__ __forceinline__ float __tanf(float __x) { return __nv_fast_tanf(__x); }
static __device__ __forceinline__ float __exp10f(float __x) { return __nv_fast_exp10f(__x); }
static __device__ __forceinline__ float __log2f(float __x) { return __nv_fast_log2f(__x); }
static __device__ __forceinline__ float __log10f(float __x) { return __nv_fast_log10f(__x); }
static __device__ __forceinline__ float __powf(float __x, float __y) { return __nv_fast_powf(__x, __y); }
static __device__ __forceinline__ float __fdividef(float __x, float __y) { return __x / __y; }
static __device__ __forceinline__ float __saturatef(float __x) { return __x < 0.f ? 0.f : (__x > 1.f ? 1.f : __x); }
static __device__ __forceinline__ float __frsqrt_rn(float __x) { return rsqrtf(__x); }

/* integers */
static __device__ __forceinline__ int abs(int __a) { return __builtin_abs(__a); }
static __device__ __forceinline__ long labs(long __a) { return __builtin_labs(__a); }
static __device__ __forceinline__ long long llabs(long long __a) { return __builtin_llabs(__a); }
static __device__ __forceinline__ int min(int __a, int __b) { return __a < __b ? __a : __b; }
static __device__ __forceinline__ int max(int __a, int __b) { return __a < __b ? __b : __a; }
static __device__ __forceinline__ unsigned int min(unsigned int __a, unsigned int __b) { return __a < __b ? __a : __b; }
static __device__ __forceinline__ unsigned int max(unsigned int __a, unsigned int __b) { return __a < __b ? __b : __a; }
static __device__ __forceinline__ long long min(long long __a, long long __b) { return __a < __b ? __a : __b; }
static __device__ __forceinline__ long long max(long long __a, long long __b) { return __a < __b ? __b : __a; }
static __device__ __forceinline__ float min(float __a, float __b) { return fminf(__a, __b); }
static __device__ __forceinline__ float max(float __a, float __b) { return fmaxf(__a, __b); }
static __device__ __forceinline__ double min(double __a, double __b) { return fmin(__a, __b); }
static __device__ __forceinline__ double max(double __a, double __b) { return fmax(__a, __b); }
static __device__ __forceinline__ int __popc(unsigned int __a) { return __builtin_popcount(__a); }
static __device__ __forceinline__ int __popcll(unsigned long long __a) { return __builtin_popcountll(__a); }
static __device__ __forceinline__ int __clz(int __a) { return __a == 0 ? 32 : __builtin_clz((unsigned)__a); }
static __device__ __forceinline__ int __ffs(int __a) { return __builtin_ffs(__a); }
static __device__ __forceinline__ unsigned int __brev(unsigned int __a) { return __builtin_bitreverse32(__a); }
static __device__ __forceinline__ int __mul24(int __a, int __b) { return (__a << 8 >> 8) * (__b << 8 >> 8); }
static __device__ __forceinline__ unsigned int __umul24(unsigned int __a, unsigned int __b) {
  return (__a & 0xffffffu) * (__b & 0xffffffu);
}
static __device__ __forceinline__ unsigned int __umulhi(unsigned int __a, unsigned int __b) {
  return (unsigned int)(((unsigned long long)__a * __b) >> 32);
}
static __device__ __forceinline__ int __mulhi(int __a, int __b) { return (int)(((long long)__a * __b) >> 32); }
static __device__ __forceinline__ int __clzll(long long __a) {
  return __a == 0 ? 64 : __builtin_clzll((unsigned long long)__a);
}
static __device__ __forceinline__ int __ffsll(long long __a) { return __builtin_ffsll(__a); }
static __device__ __forceinline__ unsigned long long __brevll(unsigned long long __a) {
  return __builtin_bitreverse64(__a);
}
static __device__ __forceinline__ unsigned int __funnelshift_l(unsigned int __lo, unsigned int __hi, unsigned int __s) {
  return (unsigned int)((((unsigned long long)__hi << 32) | __lo) << (__s & 31) >> 32);
}
static __device__ __forceinline__ unsigned int __funnelshift_r(unsigned int __lo, unsigned int __hi, unsigned int __s) {
  return (unsigned int)((((unsigned long long)__hi << 32) | __lo) >> (__s & 31));
}
static __device__ __forceinline__ unsigned int __funnelshift_lc(unsigned int __lo, unsigned int __hi, unsigned int __s) {
  return __s >= 32 ? __lo : __funnelshift_l(__lo, __hi, __s);
}
static __device__ __forceinline__ unsigned int __funnelshift_rc(unsigned int __lo, unsigned int __hi, unsigned int __s) {
  return __s >= 32 ? __hi : __funnelshift_r(__lo, __hi, __s);
}
static __device__ __forceinline__ unsigned int __byte_perm(unsigned int __x, unsigned int __y, unsigned int __s) {
  unsigned long long __v = ((unsigned long long)__y << 32) | __x;
  unsigned int __r = 0;
  for (int __i = 0; __i < 4; ++__i) __r |= (unsigned int)((__v >> (8 * ((__s >> (4 * __i)) & 7))) & 0xff) << (8 * __i);
  return __r;
}
static __device__ __forceinline__ unsigned long long __umul64hi(unsigned long long __a, unsigned long long __b) {
  return (unsigned long long)(((unsigned __int128)__a * __b) >> 64);
}
static __device__ __forceinline__ long long __mul64hi(long long __a, long long __b) {
  return (long long)(((__int128)__a * __b) >> 64);
}
namespace std { using ::abs; using ::min; using ::max; }

#endif /* __SIMU_CUDA_MATH_H */
