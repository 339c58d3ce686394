/* simu shim <cuda_fp8.h>: the 8-bit floating-point storage types.
 *
 * Provides __nv_fp8_e4m3 and __nv_fp8_e5m2 (1 byte, the bits in member __x of type
 * __nv_fp8_storage_t), __nv_fp8x2_e4m3 / __nv_fp8x2_e5m2 (__nv_fp8x2_storage_t) and
 * __nv_fp8x4_e4m3 / __nv_fp8x4_e5m2 (__nv_fp8x4_storage_t), the enums __nv_saturation_t
 * (__NV_NOSAT, __NV_SATFINITE) and __nv_fp8_interpretation_t (__NV_E4M3, __NV_E5M2), and the
 * conversions __nv_cvt_float_to_fp8, __nv_cvt_double_to_fp8, __nv_cvt_float2_to_fp8x2,
 * __nv_cvt_double2_to_fp8x2, __nv_cvt_halfraw_to_fp8, __nv_cvt_bfloat16raw_to_fp8,
 * __nv_cvt_fp8_to_halfraw, __nv_cvt_fp8x2_to_halfraw2.  As in CUDA, the types are storage only
 * (no arithmetic): explicit constructors from float, double, __half, __nv_bfloat16 and the integer
 * types (which saturate to the largest finite value, __NV_SATFINITE), conversions to float
 * (implicit here), double, __half, __nv_bfloat16 and the integer types.
 *
 * Formats: e4m3 has bias 7, no infinities, NaN S.1111.111, largest finite 448 (0x7e); e5m2 has
 * bias 15, infinities 0x7c / 0xfc, NaN S.11111.xx (!= 00), largest finite 57344 (0x7b).
 *
 * Lowering: integer arithmetic on the float's bits (round to nearest even, subnormals included;
 * out of range: the largest finite value with __NV_SATFINITE, else NaN (e4m3) or infinity (e5m2));
 * fp8 -> float is exact (bits put in place, subnormals an integer times 2^-9 or 2^-16).  The
 * interpreter sees only integer and float instructions.
 */
#ifndef __SIMU_CUDA_FP8_H
#define __SIMU_CUDA_FP8_H
#define __CUDA_FP8_H__
#define __CUDA_FP8_HPP__
#define __CUDA_FP8_TYPES_EXIST__

#include "cuda_runtime.h"
#include "cuda_fp16.h"
#include "cuda_bf16.h"

#define __SIMU_F8_HD static __host__ __device__ __forceinline__

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

/* ---- bit-level conversions ------------------------------------------------------------------- */
__SIMU_F8_HD __nv_fp8_storage_t __simu_float_to_fp8(float f, __nv_saturation_t sat, __nv_fp8_interpretation_t fmt) {
  const bool e4m3 = fmt == __NV_E4M3;
  const int mbits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  const unsigned int maxcode = e4m3 ? 0x7eu : 0x7bu;
  unsigned int u = __builtin_bit_cast(unsigned int, f);
  unsigned int sign = (u >> 24) & 0x80u, a = u & 0x7fffffffu;
  unsigned int code;
  if (a > 0x7f800000u) return (__nv_fp8_storage_t)0x7fu; /* NaN */
  if (a == 0x7f800000u) {
    code = 0xffu; /* infinity: out of range */
  } else if (a < 0x00800000u) {
    return (__nv_fp8_storage_t)sign; /* zero, or a float subnormal: far below the smallest fp8 */
  } else {
    int e = (int)(a >> 23) - 127;
    unsigned int m = (a & 0x7fffffu) | 0x800000u;
    int below = (1 - bias) - e; /* > 0: an fp8 subnormal */
    int shift = 23 - mbits + (below > 0 ? below : 0);
    if (shift >= 25) return (__nv_fp8_storage_t)sign; /* under half the smallest subnormal */
    unsigned int q = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1u))) ++q; /* to nearest even */
    code = below > 0 ? q : ((unsigned int)(e + bias - 1) << mbits) + q;
  }
  if (code > maxcode) /* out of range */
    code = sat == __NV_SATFINITE ? maxcode : (e4m3 ? 0x7fu : 0x7cu);
  return (__nv_fp8_storage_t)(sign | code);
}
__SIMU_F8_HD float __simu_fp8_to_float(__nv_fp8_storage_t x, __nv_fp8_interpretation_t fmt) {
  const bool e4m3 = fmt == __NV_E4M3;
  const int mbits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  unsigned int sign = (unsigned int)(x & 0x80u) << 24;
  unsigned int e = (x & 0x7fu) >> mbits, m = x & ((1u << mbits) - 1u);
  if (e4m3 ? (x & 0x7fu) == 0x7fu : (e == 31u && m != 0u))
    return __builtin_bit_cast(float, sign | 0x7fffffffu); /* NaN */
  if (!e4m3 && e == 31u) return __builtin_bit_cast(float, sign | 0x7f800000u);
  if (e == 0u) {
    float v = (float)m * (e4m3 ? 0.001953125f /* 2^-9 */ : 1.52587890625e-05f /* 2^-16 */);
    return sign ? -v : v;
  }
  return __builtin_bit_cast(float, sign | ((e - (unsigned int)bias + 127u) << 23) | (m << (23 - mbits)));
}

/* ---- C-style conversions --------------------------------------------------------------------- */
__SIMU_F8_HD __nv_fp8_storage_t __nv_cvt_float_to_fp8(float x, __nv_saturation_t saturate,
                                                      __nv_fp8_interpretation_t fp8_interpretation) {
  return __simu_float_to_fp8(x, saturate, fp8_interpretation);
}
/* through float rounded to odd (bf16's helper does the same for 16 bits): one rounding */
__SIMU_F8_HD __nv_fp8_storage_t __nv_cvt_double_to_fp8(double x, __nv_saturation_t saturate,
                                                       __nv_fp8_interpretation_t fp8_interpretation) {
  float f = (float)x;
  if (f == f && (double)f != x && f - f == 0.0f) {
    unsigned int u = __builtin_bit_cast(unsigned int, f);
    double af = f < 0.0f ? -(double)f : (double)f, ax = x < 0.0 ? -x : x;
    if (af > ax) --u;
    f = __builtin_bit_cast(float, u | 1u);
  }
  return __simu_float_to_fp8(f, saturate, fp8_interpretation);
}
__SIMU_F8_HD __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(float2 x, __nv_saturation_t saturate,
                                                           __nv_fp8_interpretation_t fp8_interpretation) {
  return (__nv_fp8x2_storage_t)(__simu_float_to_fp8(x.x, saturate, fp8_interpretation) |
                                (__simu_float_to_fp8(x.y, saturate, fp8_interpretation) << 8));
}
__SIMU_F8_HD __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(double2 x, __nv_saturation_t saturate,
                                                            __nv_fp8_interpretation_t fp8_interpretation) {
  return (__nv_fp8x2_storage_t)(__nv_cvt_double_to_fp8(x.x, saturate, fp8_interpretation) |
                                (__nv_cvt_double_to_fp8(x.y, saturate, fp8_interpretation) << 8));
}
__SIMU_F8_HD __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(__half_raw x, __nv_saturation_t saturate,
                                                        __nv_fp8_interpretation_t fp8_interpretation) {
  return __simu_float_to_fp8(__half2float(__half(x)), saturate, fp8_interpretation);
}
__SIMU_F8_HD __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw x, __nv_saturation_t saturate,
                                                            __nv_fp8_interpretation_t fp8_interpretation) {
  return __simu_float_to_fp8(__bfloat162float(__nv_bfloat16(x)), saturate, fp8_interpretation);
}
__SIMU_F8_HD __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t x, __nv_fp8_interpretation_t fp8_interpretation) {
  return (__half_raw)__float2half(__simu_fp8_to_float(x, fp8_interpretation)); /* exact: fp8 fits in half */
}
__SIMU_F8_HD __half2_raw __nv_cvt_fp8x2_to_halfraw2(__nv_fp8x2_storage_t x,
                                                    __nv_fp8_interpretation_t fp8_interpretation) {
  __half2_raw r;
  r.x = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)(x & 0xffu), fp8_interpretation).x;
  r.y = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)(x >> 8), fp8_interpretation).x;
  return r;
}

/* ---- the types ------------------------------------------------------------------------------- */
#define __SIMU_FP8_TYPE(NAME, FMT)                                                                \
  struct __attribute__((aligned(1))) NAME {                                                       \
    __nv_fp8_storage_t __x;                                                                       \
    NAME() = default;                                                                             \
    explicit __host__ __device__ NAME(float f) : __x(__simu_float_to_fp8(f, __NV_SATFINITE, FMT)) {} \
    explicit __host__ __device__ NAME(double d) : __x(__nv_cvt_double_to_fp8(d, __NV_SATFINITE, FMT)) {} \
    explicit __host__ __device__ NAME(__half h) : NAME(__half2float(h)) {}                        \
    explicit __host__ __device__ NAME(__nv_bfloat16 h) : NAME(__bfloat162float(h)) {}             \
    explicit __host__ __device__ NAME(short i) : NAME((float)i) {}                                \
    explicit __host__ __device__ NAME(unsigned short i) : NAME((float)i) {}                       \
    explicit __host__ __device__ NAME(int i) : NAME((double)i) {}                                 \
    explicit __host__ __device__ NAME(unsigned int i) : NAME((double)i) {}                        \
    explicit __host__ __device__ NAME(long i) : NAME((double)i) {}                                \
    explicit __host__ __device__ NAME(unsigned long i) : NAME((double)i) {}                       \
    explicit __host__ __device__ NAME(long long i) : NAME((double)i) {}                           \
    explicit __host__ __device__ NAME(unsigned long long i) : NAME((double)i) {}                  \
    __host__ __device__ operator float() const { return __simu_fp8_to_float(__x, FMT); }           \
    explicit __host__ __device__ operator double() const { return (double)__simu_fp8_to_float(__x, FMT); } \
    explicit __host__ __device__ operator __half() const { return __float2half(__simu_fp8_to_float(__x, FMT)); } \
    explicit __host__ __device__ operator __nv_bfloat16() const {                                 \
      return __float2bfloat16(__simu_fp8_to_float(__x, FMT));                                     \
    }                                                                                             \
    explicit __host__ __device__ operator bool() const { return (__x & 0x7fu) != 0u; }            \
  };
__SIMU_FP8_TYPE(__nv_fp8_e4m3, __NV_E4M3)
__SIMU_FP8_TYPE(__nv_fp8_e5m2, __NV_E5M2)
#undef __SIMU_FP8_TYPE

#define __SIMU_FP8X2_TYPE(NAME, FMT)                                                              \
  struct __attribute__((aligned(2))) NAME {                                                       \
    __nv_fp8x2_storage_t __x;                                                                     \
    NAME() = default;                                                                             \
    explicit __host__ __device__ NAME(float2 f) : __x(__nv_cvt_float2_to_fp8x2(f, __NV_SATFINITE, FMT)) {} \
    explicit __host__ __device__ NAME(double2 d) : __x(__nv_cvt_double2_to_fp8x2(d, __NV_SATFINITE, FMT)) {} \
    explicit __host__ __device__ NAME(__half2 h)                                                   \
        : __x(__nv_cvt_float2_to_fp8x2(__half22float2(h), __NV_SATFINITE, FMT)) {}                \
    explicit __host__ __device__ NAME(__nv_bfloat162 h)                                            \
        : __x(__nv_cvt_float2_to_fp8x2(__bfloat1622float2(h), __NV_SATFINITE, FMT)) {}            \
    explicit __host__ __device__ operator float2() const {                                        \
      return make_float2(__simu_fp8_to_float((__nv_fp8_storage_t)(__x & 0xffu), FMT),             \
                         __simu_fp8_to_float((__nv_fp8_storage_t)(__x >> 8), FMT));               \
    }                                                                                             \
    explicit __host__ __device__ operator __half2() const {                                       \
      return __floats2half2_rn(__simu_fp8_to_float((__nv_fp8_storage_t)(__x & 0xffu), FMT),       \
                               __simu_fp8_to_float((__nv_fp8_storage_t)(__x >> 8), FMT));         \
    }                                                                                             \
  };
__SIMU_FP8X2_TYPE(__nv_fp8x2_e4m3, __NV_E4M3)
__SIMU_FP8X2_TYPE(__nv_fp8x2_e5m2, __NV_E5M2)
#undef __SIMU_FP8X2_TYPE

#define __SIMU_FP8X4_TYPE(NAME, FMT)                                                              \
  struct __attribute__((aligned(4))) NAME {                                                       \
    __nv_fp8x4_storage_t __x;                                                                     \
    NAME() = default;                                                                             \
    explicit __host__ __device__ NAME(float4 f)                                                   \
        : __x((__nv_fp8x4_storage_t)__nv_cvt_float2_to_fp8x2(make_float2(f.x, f.y), __NV_SATFINITE, FMT) | \
              ((__nv_fp8x4_storage_t)__nv_cvt_float2_to_fp8x2(make_float2(f.z, f.w), __NV_SATFINITE, FMT) << 16)) {} \
    explicit __host__ __device__ operator float4() const {                                        \
      return make_float4(__simu_fp8_to_float((__nv_fp8_storage_t)(__x & 0xffu), FMT),             \
                         __simu_fp8_to_float((__nv_fp8_storage_t)((__x >> 8) & 0xffu), FMT),      \
                         __simu_fp8_to_float((__nv_fp8_storage_t)((__x >> 16) & 0xffu), FMT),     \
                         __simu_fp8_to_float((__nv_fp8_storage_t)(__x >> 24), FMT));              \
    }                                                                                             \
  };
__SIMU_FP8X4_TYPE(__nv_fp8x4_e4m3, __NV_E4M3)
__SIMU_FP8X4_TYPE(__nv_fp8x4_e5m2, __NV_E5M2)
#undef __SIMU_FP8X4_TYPE

#undef __SIMU_F8_HD

#endif /* __SIMU_CUDA_FP8_H */
