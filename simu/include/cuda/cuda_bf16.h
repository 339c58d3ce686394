/* simu shim <cuda_bf16.h>: the bfloat16 types.
 *
 * Provides __nv_bfloat16 (alias nv_bfloat16; 2 bytes, the upper 16 bits of the float it stands for in
 * member __x), __nv_bfloat162 (alias nv_bfloat162; members x, y), __nv_bfloat16_raw /
 * __nv_bfloat162_raw, conversions (__float2bfloat16[_rn|_rz|_rd|_ru], __bfloat162float,
 * __double2bfloat16, __int2bfloat16_rn and the other integer types, __bfloat162int_rz/_rn/_rd/_ru and
 * the other integer types, __ushort_as_bfloat16, __bfloat16_as_ushort, ...), arithmetic (__hadd,
 * __hsub, __hmul, __hdiv, __hneg, __habs, __hfma, __hmin, __hmax overloaded for __nv_bfloat16, and
 * the operators + - * / += -= *= /= ++ -- and unary -, host and device), comparisons (__heq ...
 * __hge, __hisnan, __hisinf and the operators), functions (hsqrt, hrsqrt, hrcp, hexp, hexp2, hlog,
 * hlog2, hsin, hcos, hfloor, hceil, htrunc, hrint), __nv_bfloat162 helpers (__halves2bfloat162,
 * __floats2bfloat162_rn, __float2bfloat162_rn, __bfloat1622float2, __low2bfloat16,
 * __high2bfloat16, __low2float, __high2float, __hadd2, __hsub2, __hmul2, __h2div, __hfma2,
 * make_bfloat162 and the operators), warp shuffles and atomicAdd.
 *
 * Lowering: unlike __half (cuda_fp16.h: LLVM's `half`), a bfloat16 never becomes LLVM's `bfloat`
 * type.  bf16 -> float is exact: the 16 bits shifted left by 16 and bit-cast to float.  float ->
 * bf16 rounds in integer arithmetic (to nearest even; NaN stays a quiet NaN; _rz/_rd/_ru round as
 * named); double -> bf16 goes through float rounded to odd, so it is rounded once.  Arithmetic is done
 * in float (not contracted) and rounded back, which is exactly rounded for + - * / and sqrt (float
 * has more than 2 * 8 + 2 bits).  atomicAdd is a compare-and-swap loop on the 16 bits (atomicCAS of
 * unsigned short), whose accesses are all atomic.
 */
#ifndef __SIMU_CUDA_BF16_H
#define __SIMU_CUDA_BF16_H
#define __CUDA_BF16_H__
#define __CUDA_BF16_HPP__
#define __CUDA_BF16_TYPES_EXIST__

#include "cuda_runtime.h"

#define __SIMU_B_HD static __host__ __device__ __forceinline__
#define __SIMU_B_NOCONTRACT _Pragma("clang fp contract(off)")

/* ---- bit-level conversions ------------------------------------------------------------------- */
__SIMU_B_HD float __simu_bf16_bits_to_float(unsigned short bits) {
  return __builtin_bit_cast(float, (unsigned int)bits << 16);
}
/* round to nearest even; a NaN keeps its sign and top payload bits and is made quiet */
__SIMU_B_HD unsigned short __simu_float_to_bf16_bits(float f) {
  unsigned int u = __builtin_bit_cast(unsigned int, f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (unsigned short)(u >> 16);
}
/* toward zero (mode 0), toward -infinity (1), toward +infinity (2) */
__SIMU_B_HD unsigned short __simu_float_to_bf16_bits_directed(float f, int mode) {
  unsigned int u = __builtin_bit_cast(unsigned int, f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x0040u);
  unsigned short t = (unsigned short)(u >> 16);
  bool inexact = (u & 0xffffu) != 0u, negative = (u >> 31) != 0u;
  if (inexact && ((mode == 1 && negative) || (mode == 2 && !negative))) ++t; /* away from zero */
  return t;
}
/* double -> float rounded to odd (exact when it fits), then to nearest even: one rounding in all */
__SIMU_B_HD unsigned short __simu_double_to_bf16_bits(double d) {
  float f = (float)d;
  if (f == f && (double)f != d) {
    unsigned int u = __builtin_bit_cast(unsigned int, f);
    double af = f < 0.0f ? -(double)f : (double)f, ad = d < 0.0 ? -d : d;
    if (af > ad) --u; /* toward zero */
    u |= 1u;          /* sticky */
    f = __builtin_bit_cast(float, u);
  }
  return __simu_float_to_bf16_bits(f);
}

/* ---- types ----------------------------------------------------------------------------------- */
typedef struct __nv_bfloat16_raw {
  unsigned short x;
} __nv_bfloat16_raw;
typedef struct __nv_bfloat162_raw {
  unsigned short x;
  unsigned short y;
} __nv_bfloat162_raw;

struct __attribute__((aligned(2))) __nv_bfloat16 {
  unsigned short __x;

  __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
  __host__ __device__ __nv_bfloat16(float f) : __x(__simu_float_to_bf16_bits(f)) {}
  __host__ __device__ __nv_bfloat16(double d) : __x(__simu_double_to_bf16_bits(d)) {}
  __host__ __device__ __nv_bfloat16(short i) : __x(__simu_float_to_bf16_bits((float)i)) {}
  __host__ __device__ __nv_bfloat16(unsigned short i) : __x(__simu_float_to_bf16_bits((float)i)) {}
  __host__ __device__ __nv_bfloat16(int i) : __x(__simu_double_to_bf16_bits((double)i)) {}
  __host__ __device__ __nv_bfloat16(unsigned int i) : __x(__simu_double_to_bf16_bits((double)i)) {}
  __host__ __device__ __nv_bfloat16(long i) : __x(__simu_double_to_bf16_bits((double)i)) {}
  __host__ __device__ __nv_bfloat16(unsigned long i) : __x(__simu_double_to_bf16_bits((double)i)) {}
  __host__ __device__ __nv_bfloat16(long long i) : __x(__simu_double_to_bf16_bits((double)i)) {}
  __host__ __device__ __nv_bfloat16(unsigned long long i) : __x(__simu_double_to_bf16_bits((double)i)) {}
  __host__ __device__ __nv_bfloat16 &operator=(const __nv_bfloat16_raw &r) {
    __x = r.x;
    return *this;
  }
  __host__ __device__ operator __nv_bfloat16_raw() const {
    __nv_bfloat16_raw r;
    r.x = __x;
    return r;
  }
  __host__ __device__ operator float() const { return __simu_bf16_bits_to_float(__x); }
};
typedef struct __nv_bfloat16 nv_bfloat16;

struct __attribute__((aligned(4))) __nv_bfloat162 {
  __nv_bfloat16 x, y;

  __nv_bfloat162() = default;
  __host__ __device__ __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
  __host__ __device__ __nv_bfloat162(const __nv_bfloat162_raw &r) {
    x.__x = r.x;
    y.__x = r.y;
  }
  __host__ __device__ operator __nv_bfloat162_raw() const {
    __nv_bfloat162_raw r;
    r.x = x.__x;
    r.y = y.__x;
    return r;
  }
};
typedef struct __nv_bfloat162 nv_bfloat162;

/* ---- conversions ----------------------------------------------------------------------------- */
__SIMU_B_HD __nv_bfloat16 __simu_bf16_from_bits(unsigned short bits) {
  __nv_bfloat16 h;
  h.__x = bits;
  return h;
}
__SIMU_B_HD float __bfloat162float(__nv_bfloat16 h) { return __simu_bf16_bits_to_float(h.__x); }
__SIMU_B_HD __nv_bfloat16 __float2bfloat16(float f) { return __simu_bf16_from_bits(__simu_float_to_bf16_bits(f)); }
__SIMU_B_HD __nv_bfloat16 __float2bfloat16_rn(float f) { return __float2bfloat16(f); }
__SIMU_B_HD __nv_bfloat16 __float2bfloat16_rz(float f) {
  return __simu_bf16_from_bits(__simu_float_to_bf16_bits_directed(f, 0));
}
__SIMU_B_HD __nv_bfloat16 __float2bfloat16_rd(float f) {
  return __simu_bf16_from_bits(__simu_float_to_bf16_bits_directed(f, 1));
}
__SIMU_B_HD __nv_bfloat16 __float2bfloat16_ru(float f) {
  return __simu_bf16_from_bits(__simu_float_to_bf16_bits_directed(f, 2));
}
__SIMU_B_HD __nv_bfloat16 __double2bfloat16(double d) { return __simu_bf16_from_bits(__simu_double_to_bf16_bits(d)); }
__SIMU_B_HD __nv_bfloat16 __int2bfloat16_rn(int i) { return __double2bfloat16((double)i); }
__SIMU_B_HD __nv_bfloat16 __uint2bfloat16_rn(unsigned int i) { return __double2bfloat16((double)i); }
__SIMU_B_HD __nv_bfloat16 __short2bfloat16_rn(short i) { return __float2bfloat16((float)i); }
__SIMU_B_HD __nv_bfloat16 __ushort2bfloat16_rn(unsigned short i) { return __float2bfloat16((float)i); }
__SIMU_B_HD __nv_bfloat16 __ll2bfloat16_rn(long long i) { return __double2bfloat16((double)i); }
__SIMU_B_HD __nv_bfloat16 __ull2bfloat16_rn(unsigned long long i) { return __double2bfloat16((double)i); }
__SIMU_B_HD int __bfloat162int_rz(__nv_bfloat16 h) { return (int)__bfloat162float(h); }
__SIMU_B_HD int __bfloat162int_rn(__nv_bfloat16 h) { return (int)__builtin_rintf(__bfloat162float(h)); }
__SIMU_B_HD int __bfloat162int_rd(__nv_bfloat16 h) { return (int)__builtin_floorf(__bfloat162float(h)); }
__SIMU_B_HD int __bfloat162int_ru(__nv_bfloat16 h) { return (int)__builtin_ceilf(__bfloat162float(h)); }
__SIMU_B_HD unsigned int __bfloat162uint_rz(__nv_bfloat16 h) { return (unsigned int)__bfloat162float(h); }
__SIMU_B_HD unsigned int __bfloat162uint_rn(__nv_bfloat16 h) {
  return (unsigned int)__builtin_rintf(__bfloat162float(h));
}
__SIMU_B_HD short __bfloat162short_rz(__nv_bfloat16 h) { return (short)__bfloat162float(h); }
__SIMU_B_HD short __bfloat162short_rn(__nv_bfloat16 h) { return (short)__builtin_rintf(__bfloat162float(h)); }
__SIMU_B_HD unsigned short __bfloat162ushort_rz(__nv_bfloat16 h) { return (unsigned short)__bfloat162float(h); }
__SIMU_B_HD long long __bfloat162ll_rz(__nv_bfloat16 h) { return (long long)__bfloat162float(h); }
__SIMU_B_HD long long __bfloat162ll_rn(__nv_bfloat16 h) { return (long long)__builtin_rintf(__bfloat162float(h)); }
__SIMU_B_HD unsigned long long __bfloat162ull_rz(__nv_bfloat16 h) {
  return (unsigned long long)__bfloat162float(h);
}
__SIMU_B_HD unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
__SIMU_B_HD short __bfloat16_as_short(__nv_bfloat16 h) { return (short)h.__x; }
__SIMU_B_HD __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) { return __simu_bf16_from_bits(u); }
__SIMU_B_HD __nv_bfloat16 __short_as_bfloat16(short s) { return __simu_bf16_from_bits((unsigned short)s); }

/* ---- arithmetic (in float, rounded once) ----------------------------------------------------- */
__SIMU_B_HD __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) {
  __SIMU_B_NOCONTRACT return __float2bfloat16(__bfloat162float(a) + __bfloat162float(b));
}
__SIMU_B_HD __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b) {
  __SIMU_B_NOCONTRACT return __float2bfloat16(__bfloat162float(a) - __bfloat162float(b));
}
__SIMU_B_HD __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) {
  __SIMU_B_NOCONTRACT return __float2bfloat16(__bfloat162float(a) * __bfloat162float(b));
}
__SIMU_B_HD __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __float2bfloat16(__bfloat162float(a) / __bfloat162float(b));
}
__SIMU_B_HD __nv_bfloat16 __hadd_rn(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(a, b); }
__SIMU_B_HD __nv_bfloat16 __hsub_rn(__nv_bfloat16 a, __nv_bfloat16 b) { return __hsub(a, b); }
__SIMU_B_HD __nv_bfloat16 __hmul_rn(__nv_bfloat16 a, __nv_bfloat16 b) { return __hmul(a, b); }
__SIMU_B_HD __nv_bfloat16 __hneg(__nv_bfloat16 a) { return __simu_bf16_from_bits((unsigned short)(a.__x ^ 0x8000u)); }
__SIMU_B_HD __nv_bfloat16 __habs(__nv_bfloat16 a) { return __simu_bf16_from_bits((unsigned short)(a.__x & 0x7fffu)); }
__SIMU_B_HD __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  return __float2bfloat16(__builtin_fmaf(__bfloat162float(a), __bfloat162float(b), __bfloat162float(c)));
}
__SIMU_B_HD __nv_bfloat16 __hfma_relu(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  __nv_bfloat16 r = __hfma(a, b, c);
  return __bfloat162float(r) < 0.0f ? __simu_bf16_from_bits(0) : r;
}
__SIMU_B_HD __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __float2bfloat16(__builtin_fminf(__bfloat162float(a), __bfloat162float(b)));
}
__SIMU_B_HD __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __float2bfloat16(__builtin_fmaxf(__bfloat162float(a), __bfloat162float(b)));
}
__SIMU_B_HD __nv_bfloat16 __hadd_sat(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __float2bfloat16(__saturatef(__bfloat162float(a) + __bfloat162float(b)));
}
__SIMU_B_HD __nv_bfloat16 __hmul_sat(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __float2bfloat16(__saturatef(__bfloat162float(a) * __bfloat162float(b)));
}

/* ---- comparisons ----------------------------------------------------------------------------- */
__SIMU_B_HD bool __heq(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) == __bfloat162float(b); }
__SIMU_B_HD bool __hne(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) != __bfloat162float(b); }
__SIMU_B_HD bool __hlt(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) < __bfloat162float(b); }
__SIMU_B_HD bool __hle(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) <= __bfloat162float(b); }
__SIMU_B_HD bool __hgt(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) > __bfloat162float(b); }
__SIMU_B_HD bool __hge(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) >= __bfloat162float(b); }
__SIMU_B_HD bool __hisnan(__nv_bfloat16 a) { return (a.__x & 0x7fffu) > 0x7f80u; }
__SIMU_B_HD int __hisinf(__nv_bfloat16 a) { return a.__x == 0x7f80u ? 1 : (a.__x == 0xff80u ? -1 : 0); }

/* ---- functions ------------------------------------------------------------------------------- */
#define __SIMU_B_FN(NAME, EXPR)                                                                   \
  __SIMU_B_HD __nv_bfloat16 NAME(__nv_bfloat16 a) {                                               \
    float x = __bfloat162float(a);                                                                \
    return __float2bfloat16(EXPR);                                                                \
  }
__SIMU_B_FN(hsqrt, __builtin_sqrtf(x))
__SIMU_B_FN(hrsqrt, 1.0f / __builtin_sqrtf(x))
__SIMU_B_FN(hrcp, 1.0f / x)
__SIMU_B_FN(hexp, __builtin_expf(x))
__SIMU_B_FN(hexp2, __builtin_exp2f(x))
__SIMU_B_FN(hlog, __builtin_logf(x))
__SIMU_B_FN(hlog2, __builtin_log2f(x))
__SIMU_B_FN(hlog10, __builtin_log10f(x))
__SIMU_B_FN(hsin, __builtin_sinf(x))
__SIMU_B_FN(hcos, __builtin_cosf(x))
__SIMU_B_FN(hfloor, __builtin_floorf(x))
__SIMU_B_FN(hceil, __builtin_ceilf(x))
__SIMU_B_FN(htrunc, __builtin_truncf(x))
__SIMU_B_FN(hrint, __builtin_rintf(x))
#undef __SIMU_B_FN

/* ---- operators (host and device) ------------------------------------------------------------- */
__SIMU_B_HD __nv_bfloat16 operator+(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(a, b); }
__SIMU_B_HD __nv_bfloat16 operator-(__nv_bfloat16 a, __nv_bfloat16 b) { return __hsub(a, b); }
__SIMU_B_HD __nv_bfloat16 operator*(__nv_bfloat16 a, __nv_bfloat16 b) { return __hmul(a, b); }
__SIMU_B_HD __nv_bfloat16 operator/(__nv_bfloat16 a, __nv_bfloat16 b) { return __hdiv(a, b); }
__SIMU_B_HD __nv_bfloat16 operator-(__nv_bfloat16 a) { return __hneg(a); }
__SIMU_B_HD __nv_bfloat16 operator+(__nv_bfloat16 a) { return a; }
__SIMU_B_HD __nv_bfloat16 &operator+=(__nv_bfloat16 &a, __nv_bfloat16 b) { return a = __hadd(a, b); }
__SIMU_B_HD __nv_bfloat16 &operator-=(__nv_bfloat16 &a, __nv_bfloat16 b) { return a = __hsub(a, b); }
__SIMU_B_HD __nv_bfloat16 &operator*=(__nv_bfloat16 &a, __nv_bfloat16 b) { return a = __hmul(a, b); }
__SIMU_B_HD __nv_bfloat16 &operator/=(__nv_bfloat16 &a, __nv_bfloat16 b) { return a = __hdiv(a, b); }
__SIMU_B_HD __nv_bfloat16 &operator++(__nv_bfloat16 &a) { return a = __hadd(a, __simu_bf16_from_bits(0x3f80u)); }
__SIMU_B_HD __nv_bfloat16 &operator--(__nv_bfloat16 &a) { return a = __hsub(a, __simu_bf16_from_bits(0x3f80u)); }
__SIMU_B_HD __nv_bfloat16 operator++(__nv_bfloat16 &a, int) {
  __nv_bfloat16 old = a;
  ++a;
  return old;
}
__SIMU_B_HD __nv_bfloat16 operator--(__nv_bfloat16 &a, int) {
  __nv_bfloat16 old = a;
  --a;
  return old;
}
__SIMU_B_HD bool operator==(__nv_bfloat16 a, __nv_bfloat16 b) { return __heq(a, b); }
__SIMU_B_HD bool operator!=(__nv_bfloat16 a, __nv_bfloat16 b) { return __hne(a, b); }
__SIMU_B_HD bool operator<(__nv_bfloat16 a, __nv_bfloat16 b) { return __hlt(a, b); }
__SIMU_B_HD bool operator<=(__nv_bfloat16 a, __nv_bfloat16 b) { return __hle(a, b); }
__SIMU_B_HD bool operator>(__nv_bfloat16 a, __nv_bfloat16 b) { return __hgt(a, b); }
__SIMU_B_HD bool operator>=(__nv_bfloat16 a, __nv_bfloat16 b) { return __hge(a, b); }

/* ---- __nv_bfloat162 -------------------------------------------------------------------------- */
__SIMU_B_HD __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 lo, __nv_bfloat16 hi) { return __nv_bfloat162(lo, hi); }
__SIMU_B_HD __nv_bfloat162 make_bfloat162(__nv_bfloat16 x, __nv_bfloat16 y) { return __nv_bfloat162(x, y); }
__SIMU_B_HD __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 h) { return __nv_bfloat162(h, h); }
__SIMU_B_HD __nv_bfloat162 __floats2bfloat162_rn(float lo, float hi) {
  return __nv_bfloat162(__float2bfloat16(lo), __float2bfloat16(hi));
}
__SIMU_B_HD __nv_bfloat162 __float2bfloat162_rn(float f) { return __bfloat162bfloat162(__float2bfloat16(f)); }
__SIMU_B_HD __nv_bfloat162 __float22bfloat162_rn(float2 f) { return __floats2bfloat162_rn(f.x, f.y); }
__SIMU_B_HD float2 __bfloat1622float2(__nv_bfloat162 h) {
  return make_float2(__bfloat162float(h.x), __bfloat162float(h.y));
}
__SIMU_B_HD __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) { return h.x; }
__SIMU_B_HD __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) { return h.y; }
__SIMU_B_HD float __low2float(__nv_bfloat162 h) { return __bfloat162float(h.x); }
__SIMU_B_HD float __high2float(__nv_bfloat162 h) { return __bfloat162float(h.y); }
__SIMU_B_HD __nv_bfloat162 __low2bfloat162(__nv_bfloat162 h) { return __nv_bfloat162(h.x, h.x); }
__SIMU_B_HD __nv_bfloat162 __high2bfloat162(__nv_bfloat162 h) { return __nv_bfloat162(h.y, h.y); }
__SIMU_B_HD __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.x, b.x); }
__SIMU_B_HD __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.y, b.y); }
__SIMU_B_HD __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 a) { return __nv_bfloat162(a.y, a.x); }
#define __SIMU_B2_OP(NAME, ONE)                                                                   \
  __SIMU_B_HD __nv_bfloat162 NAME(__nv_bfloat162 a, __nv_bfloat162 b) {                           \
    return __nv_bfloat162(ONE(a.x, b.x), ONE(a.y, b.y));                                          \
  }
__SIMU_B2_OP(__hadd2, __hadd)
__SIMU_B2_OP(__hsub2, __hsub)
__SIMU_B2_OP(__hmul2, __hmul)
__SIMU_B2_OP(__h2div, __hdiv)
__SIMU_B2_OP(__hmin2, __hmin)
__SIMU_B2_OP(__hmax2, __hmax)
__SIMU_B2_OP(__hadd2_sat, __hadd_sat)
#undef __SIMU_B2_OP
__SIMU_B_HD __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
  return __nv_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
__SIMU_B_HD __nv_bfloat162 __hneg2(__nv_bfloat162 a) { return __nv_bfloat162(__hneg(a.x), __hneg(a.y)); }
__SIMU_B_HD __nv_bfloat162 __habs2(__nv_bfloat162 a) { return __nv_bfloat162(__habs(a.x), __habs(a.y)); }
__SIMU_B_HD bool __hbeq2(__nv_bfloat162 a, __nv_bfloat162 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }
__SIMU_B_HD __nv_bfloat162 operator+(__nv_bfloat162 a, __nv_bfloat162 b) { return __hadd2(a, b); }
__SIMU_B_HD __nv_bfloat162 operator-(__nv_bfloat162 a, __nv_bfloat162 b) { return __hsub2(a, b); }
__SIMU_B_HD __nv_bfloat162 operator*(__nv_bfloat162 a, __nv_bfloat162 b) { return __hmul2(a, b); }
__SIMU_B_HD __nv_bfloat162 operator/(__nv_bfloat162 a, __nv_bfloat162 b) { return __h2div(a, b); }
__SIMU_B_HD __nv_bfloat162 operator-(__nv_bfloat162 a) { return __hneg2(a); }
__SIMU_B_HD __nv_bfloat162 &operator+=(__nv_bfloat162 &a, __nv_bfloat162 b) { return a = __hadd2(a, b); }
__SIMU_B_HD __nv_bfloat162 &operator-=(__nv_bfloat162 &a, __nv_bfloat162 b) { return a = __hsub2(a, b); }
__SIMU_B_HD __nv_bfloat162 &operator*=(__nv_bfloat162 &a, __nv_bfloat162 b) { return a = __hmul2(a, b); }
__SIMU_B_HD __nv_bfloat162 &operator/=(__nv_bfloat162 &a, __nv_bfloat162 b) { return a = __h2div(a, b); }
__SIMU_B_HD bool operator==(__nv_bfloat162 a, __nv_bfloat162 b) { return __hbeq2(a, b); }
__SIMU_B_HD bool operator!=(__nv_bfloat162 a, __nv_bfloat162 b) { return !__hbeq2(a, b); }

/* ---- warp shuffles and atomics --------------------------------------------------------------- */
#define __SIMU_B_SHFL(NAME, ARG)                                                                  \
  __SIMU_DEV __nv_bfloat16 NAME(unsigned int mask, __nv_bfloat16 var, ARG, int width = 32) {      \
    return __ushort_as_bfloat16((unsigned short)NAME(mask, (int)var.__x, __simu_arg, width));     \
  }                                                                                              \
  __SIMU_DEV __nv_bfloat162 NAME(unsigned int mask, __nv_bfloat162 var, ARG, int width = 32) {    \
    return __nv_bfloat162(NAME(mask, var.x, __simu_arg, width), NAME(mask, var.y, __simu_arg, width)); \
  }
__SIMU_B_SHFL(__shfl_sync, int __simu_arg)
__SIMU_B_SHFL(__shfl_up_sync, unsigned int __simu_arg)
__SIMU_B_SHFL(__shfl_down_sync, unsigned int __simu_arg)
__SIMU_B_SHFL(__shfl_xor_sync, int __simu_arg)
#undef __SIMU_B_SHFL

/* a compare-and-swap loop on the 16 bits; the first guess is +0.0, so every access is atomic */
__SIMU_DEV __nv_bfloat16 atomicAdd(__nv_bfloat16 *address, __nv_bfloat16 val) {
  unsigned short *bits = (unsigned short *)address;
  unsigned short old = 0, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, __bfloat16_as_ushort(__hadd(__ushort_as_bfloat16(assumed), val)));
  } while (old != assumed);
  return __ushort_as_bfloat16(old);
}
/* CUDA guarantees atomicity for each of the two halves separately, not for the pair */
__SIMU_DEV __nv_bfloat162 atomicAdd(__nv_bfloat162 *address, __nv_bfloat162 val) {
  __nv_bfloat162 old;
  old.x = atomicAdd(&address->x, val.x);
  old.y = atomicAdd(&address->y, val.y);
  return old;
}

#undef __SIMU_B_HD
#undef __SIMU_B_NOCONTRACT

#endif /* __SIMU_CUDA_BF16_H */
