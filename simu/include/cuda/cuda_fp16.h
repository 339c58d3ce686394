/* simu shim <cuda_fp16.h>: a minimal half-precision type.
 *
 * Provides __half (alias half; 2 bytes, the IEEE binary16 bits in member __x) and __half2
 * (alias half2; members x, y), the raw structs __half_raw / __half2_raw (member x, y: the bits),
 * conversions (__float2half[_rn|_rz|_rd|_ru], __half2float,
 * __double2half, __int2half_rn, __half2int_rz/_rn, __ushort_as_half, __half_as_ushort, ...),
 * arithmetic (__hadd, __hsub, __hmul, __hdiv, __hneg, __habs, __hfma, __hmin, __hmax and the
 * operators + - * / += -= *= /= and unary -), comparisons (__heq, __hne, __hlt, __hle,
 * __hgt, __hge, __hisnan, __hisinf, and the operators), a few functions (hsqrt, hrsqrt, hexp,
 * hlog, hsin, hcos, hfloor, hceil, htrunc, hrint), __half2 helpers (__halves2half2,
 * __floats2half2_rn, __float2half2_rn, __half22float2, __low2half, __high2half, __low2float,
 * __high2float, __hadd2, __hsub2, __hmul2, __h2div, __hfma2, make_half2), warp shuffles of
 * __half and atomicAdd(__half *, __half) / atomicAdd(__half2 *, __half2).
 *
 * Lowering: float -> half is `fptrunc float to half` (round to nearest even), half -> float is
 * `fpext half to float` (through `bitcast i16 to half`); arithmetic is done in float (exactly
 * rounded for + - * /, not contracted) and rounded back; atomicAdd(__half*) is
 * `atomicrmw fadd ptr, half`.
 */
#ifndef __SIMU_CUDA_FP16_H
#define __SIMU_CUDA_FP16_H

#include "cuda_runtime.h"

#define __SIMU_H_HD static __host__ __device__ __forceinline__
#define __SIMU_H_NOCONTRACT _Pragma("clang fp contract(off)")

struct __half;
__SIMU_H_HD __half __simu_half_from_bits(unsigned short bits);

typedef struct __half_raw {
  unsigned short x;
} __half_raw;
typedef struct __half2_raw {
  unsigned short x;
  unsigned short y;
} __half2_raw;

struct __attribute__((aligned(2))) __half {
  unsigned short __x;

  __half() = default;
  __host__ __device__ __half(const __half_raw &r) : __x(r.x) {}
  __host__ __device__ operator __half_raw() const {
    __half_raw r;
    r.x = __x;
    return r;
  }
  __host__ __device__ __half(float f) : __x(__builtin_bit_cast(unsigned short, (_Float16)f)) {}
  __host__ __device__ __half(double d) : __x(__builtin_bit_cast(unsigned short, (_Float16)d)) {}
  __host__ __device__ __half(int i) : __x(__builtin_bit_cast(unsigned short, (_Float16)(float)i)) {}
  __host__ __device__ __half(unsigned int i)
      : __x(__builtin_bit_cast(unsigned short, (_Float16)(float)i)) {}
  __host__ __device__ operator float() const { return (float)__builtin_bit_cast(_Float16, __x); }
};
typedef struct __half half;

struct __attribute__((aligned(4))) __half2 {
  __half x, y;
};
typedef struct __half2 half2;

/* ---- conversions --------------------------------------------------------------------------- */
__SIMU_H_HD __half __simu_half_from_bits(unsigned short bits) {
  __half h;
  h.__x = bits;
  return h;
}
__SIMU_H_HD float __half2float(__half h) { return (float)__builtin_bit_cast(_Float16, h.__x); }
__SIMU_H_HD __half __float2half(float f) { return __simu_half_from_bits(__builtin_bit_cast(unsigned short, (_Float16)f)); }
__SIMU_H_HD __half __float2half_rn(float f) { return __float2half(f); }
/* other rounding modes are computed in round-to-nearest */
__SIMU_H_HD __half __float2half_rz(float f) { return __float2half(f); }
__SIMU_H_HD __half __float2half_rd(float f) { return __float2half(f); }
__SIMU_H_HD __half __float2half_ru(float f) { return __float2half(f); }
__SIMU_H_HD __half __double2half(double d) { return __simu_half_from_bits(__builtin_bit_cast(unsigned short, (_Float16)d)); }
__SIMU_H_HD __half __int2half_rn(int i) { return __float2half((float)i); }
__SIMU_H_HD __half __uint2half_rn(unsigned int i) { return __float2half((float)i); }
__SIMU_H_HD __half __short2half_rn(short i) { return __float2half((float)i); }
/* the integer conversions in the other rounding modes, computed in round-to-nearest like the float ones */
__SIMU_H_HD __half __int2half_rz(int i) { return __int2half_rn(i); }
__SIMU_H_HD __half __int2half_rd(int i) { return __int2half_rn(i); }
__SIMU_H_HD __half __int2half_ru(int i) { return __int2half_rn(i); }
__SIMU_H_HD __half __uint2half_rz(unsigned int i) { return __uint2half_rn(i); }
__SIMU_H_HD __half __uint2half_rd(unsigned int i) { return __uint2half_rn(i); }
__SIMU_H_HD __half __uint2half_ru(unsigned int i) { return __uint2half_rn(i); }
__SIMU_H_HD __half __short2half_rz(short i) { return __short2half_rn(i); }
__SIMU_H_HD __half __short2half_rd(short i) { return __short2half_rn(i); }
__SIMU_H_HD __half __short2half_ru(short i) { return __short2half_rn(i); }
__SIMU_H_HD __half __ushort2half_rn(unsigned short i) { return __float2half((float)i); }
__SIMU_H_HD __half __ll2half_rn(long long i) { return __float2half((float)i); }
__SIMU_H_HD __half __ull2half_rn(unsigned long long i) { return __float2half((float)i); }
__SIMU_H_HD unsigned int __half2uint_rn(__half h) { return (unsigned int)__builtin_rintf(__half2float(h)); }
__SIMU_H_HD short __half2short_rn(__half h) { return (short)__builtin_rintf(__half2float(h)); }
__SIMU_H_HD long long __half2ll_rz(__half h) { return (long long)__half2float(h); }
__SIMU_H_HD long long __half2ll_rn(__half h) { return (long long)__builtin_rintf(__half2float(h)); }
__SIMU_H_HD int __half2int_rz(__half h) { return (int)__half2float(h); }
__SIMU_H_HD int __half2int_rn(__half h) { return (int)__builtin_rintf(__half2float(h)); }
__SIMU_H_HD int __half2int_rd(__half h) { return (int)__builtin_floorf(__half2float(h)); }
__SIMU_H_HD int __half2int_ru(__half h) { return (int)__builtin_ceilf(__half2float(h)); }
__SIMU_H_HD unsigned int __half2uint_rz(__half h) { return (unsigned int)__half2float(h); }
__SIMU_H_HD short __half2short_rz(__half h) { return (short)__half2float(h); }
__SIMU_H_HD unsigned short __half_as_ushort(__half h) { return h.__x; }
__SIMU_H_HD short __half_as_short(__half h) { return (short)h.__x; }
__SIMU_H_HD __half __ushort_as_half(unsigned short u) { return __simu_half_from_bits(u); }
__SIMU_H_HD __half __short_as_half(short s) { return __simu_half_from_bits((unsigned short)s); }

/* ---- arithmetic (in float, rounded once) ------------------------------------------------- */
__SIMU_H_HD __half __hadd(__half a, __half b) { __SIMU_H_NOCONTRACT return __float2half(__half2float(a) + __half2float(b)); }
__SIMU_H_HD __half __hsub(__half a, __half b) { __SIMU_H_NOCONTRACT return __float2half(__half2float(a) - __half2float(b)); }
__SIMU_H_HD __half __hmul(__half a, __half b) { __SIMU_H_NOCONTRACT return __float2half(__half2float(a) * __half2float(b)); }
__SIMU_H_HD __half __hdiv(__half a, __half b) { return __float2half(__half2float(a) / __half2float(b)); }
__SIMU_H_HD __half __hneg(__half a) { return __simu_half_from_bits((unsigned short)(a.__x ^ 0x8000u)); }
__SIMU_H_HD __half __habs(__half a) { return __simu_half_from_bits((unsigned short)(a.__x & 0x7fffu)); }
__SIMU_H_HD __half __hfma(__half a, __half b, __half c) {
  return __float2half(__builtin_fmaf(__half2float(a), __half2float(b), __half2float(c)));
}
__SIMU_H_HD __half __hmin(__half a, __half b) { return __float2half(__builtin_fminf(__half2float(a), __half2float(b))); }
__SIMU_H_HD __half __hmax(__half a, __half b) { return __float2half(__builtin_fmaxf(__half2float(a), __half2float(b))); }
__SIMU_H_HD __half __hadd_sat(__half a, __half b) { return __float2half(__saturatef(__half2float(a) + __half2float(b))); }
__SIMU_H_HD __half __hmul_sat(__half a, __half b) { return __float2half(__saturatef(__half2float(a) * __half2float(b))); }

/* ---- comparisons ------------------------------------------------------------------------- */
__SIMU_H_HD bool __heq(__half a, __half b) { return __half2float(a) == __half2float(b); }
__SIMU_H_HD bool __hne(__half a, __half b) { return __half2float(a) != __half2float(b); }
__SIMU_H_HD bool __hlt(__half a, __half b) { return __half2float(a) < __half2float(b); }
__SIMU_H_HD bool __hle(__half a, __half b) { return __half2float(a) <= __half2float(b); }
__SIMU_H_HD bool __hgt(__half a, __half b) { return __half2float(a) > __half2float(b); }
__SIMU_H_HD bool __hge(__half a, __half b) { return __half2float(a) >= __half2float(b); }
__SIMU_H_HD bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
__SIMU_H_HD int __hisinf(__half a) { return a.__x == 0x7c00u ? 1 : (a.__x == 0xfc00u ? -1 : 0); }

/* ---- functions ----------------------------------------------------------------------------- */
__SIMU_H_HD __half hsqrt(__half a) { return __float2half(__builtin_sqrtf(__half2float(a))); }
__SIMU_H_HD __half hrsqrt(__half a) { return __float2half(1.0f / __builtin_sqrtf(__half2float(a))); }
__SIMU_H_HD __half hrcp(__half a) { return __float2half(1.0f / __half2float(a)); }
__SIMU_H_HD __half hexp(__half a) { return __float2half(__builtin_expf(__half2float(a))); }
__SIMU_H_HD __half hlog(__half a) { return __float2half(__builtin_logf(__half2float(a))); }
__SIMU_H_HD __half hsin(__half a) { return __float2half(__builtin_sinf(__half2float(a))); }
__SIMU_H_HD __half hcos(__half a) { return __float2half(__builtin_cosf(__half2float(a))); }
__SIMU_H_HD __half hfloor(__half a) { return __float2half(__builtin_floorf(__half2float(a))); }
__SIMU_H_HD __half hceil(__half a) { return __float2half(__builtin_ceilf(__half2float(a))); }
__SIMU_H_HD __half htrunc(__half a) { return __float2half(__builtin_truncf(__half2float(a))); }
__SIMU_H_HD __half hrint(__half a) { return __float2half(__builtin_rintf(__half2float(a))); }

/* ---- operators ------------------------------------------------------------------------------ */
__SIMU_H_HD __half operator+(__half a, __half b) { return __hadd(a, b); }
__SIMU_H_HD __half operator-(__half a, __half b) { return __hsub(a, b); }
__SIMU_H_HD __half operator*(__half a, __half b) { return __hmul(a, b); }
__SIMU_H_HD __half operator/(__half a, __half b) { return __hdiv(a, b); }
__SIMU_H_HD __half operator-(__half a) { return __hneg(a); }
__SIMU_H_HD __half operator+(__half a) { return a; }
__SIMU_H_HD __half &operator+=(__half &a, __half b) { return a = __hadd(a, b); }
__SIMU_H_HD __half &operator-=(__half &a, __half b) { return a = __hsub(a, b); }
__SIMU_H_HD __half &operator*=(__half &a, __half b) { return a = __hmul(a, b); }
__SIMU_H_HD __half &operator/=(__half &a, __half b) { return a = __hdiv(a, b); }
__SIMU_H_HD bool operator==(__half a, __half b) { return __heq(a, b); }
__SIMU_H_HD bool operator!=(__half a, __half b) { return __hne(a, b); }
__SIMU_H_HD bool operator<(__half a, __half b) { return __hlt(a, b); }
__SIMU_H_HD bool operator<=(__half a, __half b) { return __hle(a, b); }
__SIMU_H_HD bool operator>(__half a, __half b) { return __hgt(a, b); }
__SIMU_H_HD bool operator>=(__half a, __half b) { return __hge(a, b); }

/* ---- __half2 -------------------------------------------------------------------------------- */
__SIMU_H_HD __half2 __halves2half2(__half lo, __half hi) {
  __half2 r;
  r.x = lo;
  r.y = hi;
  return r;
}
__SIMU_H_HD __half2 make_half2(__half x, __half y) { return __halves2half2(x, y); }
__SIMU_H_HD __half2 __floats2half2_rn(float lo, float hi) { return __halves2half2(__float2half(lo), __float2half(hi)); }
__SIMU_H_HD __half2 __float2half2_rn(float f) { return __halves2half2(__float2half(f), __float2half(f)); }
__SIMU_H_HD __half2 __half2half2(__half h) { return __halves2half2(h, h); }
__SIMU_H_HD float2 __half22float2(__half2 h) { return make_float2(__half2float(h.x), __half2float(h.y)); }
__SIMU_H_HD __half2 __float22half2_rn(float2 f) { return __floats2half2_rn(f.x, f.y); }
__SIMU_H_HD __half __low2half(__half2 h) { return h.x; }
__SIMU_H_HD __half __high2half(__half2 h) { return h.y; }
__SIMU_H_HD float __low2float(__half2 h) { return __half2float(h.x); }
__SIMU_H_HD float __high2float(__half2 h) { return __half2float(h.y); }
__SIMU_H_HD __half2 __lows2half2(__half2 a, __half2 b) { return __halves2half2(a.x, b.x); }
__SIMU_H_HD __half2 __highs2half2(__half2 a, __half2 b) { return __halves2half2(a.y, b.y); }
__SIMU_H_HD __half2 __hadd2(__half2 a, __half2 b) { return __halves2half2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }
__SIMU_H_HD __half2 __hsub2(__half2 a, __half2 b) { return __halves2half2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }
__SIMU_H_HD __half2 __hmul2(__half2 a, __half2 b) { return __halves2half2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }
__SIMU_H_HD __half2 __h2div(__half2 a, __half2 b) { return __halves2half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
__SIMU_H_HD __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __halves2half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
__SIMU_H_HD __half2 __hneg2(__half2 a) { return __halves2half2(__hneg(a.x), __hneg(a.y)); }
/* half2 comparisons: the __hb forms are true when both halves compare true; the others give 1.0 or 0.0 per half */
__SIMU_H_HD bool __hbeq2(__half2 a, __half2 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }
__SIMU_H_HD bool __hbne2(__half2 a, __half2 b) { return __hne(a.x, b.x) && __hne(a.y, b.y); }
__SIMU_H_HD bool __hblt2(__half2 a, __half2 b) { return __hlt(a.x, b.x) && __hlt(a.y, b.y); }
__SIMU_H_HD bool __hble2(__half2 a, __half2 b) { return __hle(a.x, b.x) && __hle(a.y, b.y); }
__SIMU_H_HD bool __hbgt2(__half2 a, __half2 b) { return __hgt(a.x, b.x) && __hgt(a.y, b.y); }
__SIMU_H_HD bool __hbge2(__half2 a, __half2 b) { return __hge(a.x, b.x) && __hge(a.y, b.y); }
__SIMU_H_HD __half2 __heq2(__half2 a, __half2 b) {
  return __halves2half2(__float2half(__heq(a.x, b.x) ? 1.0f : 0.0f), __float2half(__heq(a.y, b.y) ? 1.0f : 0.0f));
}
__SIMU_H_HD __half2 __hne2(__half2 a, __half2 b) {
  return __halves2half2(__float2half(__hne(a.x, b.x) ? 1.0f : 0.0f), __float2half(__hne(a.y, b.y) ? 1.0f : 0.0f));
}
__SIMU_H_HD __half2 __hlt2(__half2 a, __half2 b) {
  return __halves2half2(__float2half(__hlt(a.x, b.x) ? 1.0f : 0.0f), __float2half(__hlt(a.y, b.y) ? 1.0f : 0.0f));
}
__SIMU_H_HD __half2 __hgt2(__half2 a, __half2 b) {
  return __halves2half2(__float2half(__hgt(a.x, b.x) ? 1.0f : 0.0f), __float2half(__hgt(a.y, b.y) ? 1.0f : 0.0f));
}
__SIMU_H_HD __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
__SIMU_H_HD __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }
__SIMU_H_HD __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }
__SIMU_H_HD __half2 operator/(__half2 a, __half2 b) { return __h2div(a, b); }
__SIMU_H_HD __half2 &operator+=(__half2 &a, __half2 b) { return a = __hadd2(a, b); }
__SIMU_H_HD __half2 &operator*=(__half2 &a, __half2 b) { return a = __hmul2(a, b); }

/* ---- warp shuffles and atomics -------------------------------------------------------------- */
#define __SIMU_H_SHFL(NAME, ARG)                                                               \
  __SIMU_DEV __half NAME(unsigned int mask, __half var, ARG, int width = 32) {                \
    return __ushort_as_half((unsigned short)NAME(mask, (int)var.__x, __simu_arg, width));      \
  }
__SIMU_H_SHFL(__shfl_sync, int __simu_arg)
__SIMU_H_SHFL(__shfl_up_sync, unsigned int __simu_arg)
__SIMU_H_SHFL(__shfl_down_sync, unsigned int __simu_arg)
__SIMU_H_SHFL(__shfl_xor_sync, int __simu_arg)
#undef __SIMU_H_SHFL

__SIMU_DEV __half atomicAdd(__half *address, __half val) {
  _Float16 old = __scoped_atomic_fetch_add((_Float16 *)address, __builtin_bit_cast(_Float16, val.__x),
                                           __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  return __ushort_as_half(__builtin_bit_cast(unsigned short, old));
}
/* CUDA guarantees atomicity for each of the two halves separately, not for the pair */
__SIMU_DEV __half2 atomicAdd(__half2 *address, __half2 val) {
  __half2 old;
  old.x = atomicAdd(&address->x, val.x);
  old.y = atomicAdd(&address->y, val.y);
  return old;
}

#undef __SIMU_H_HD
#undef __SIMU_H_NOCONTRACT

#endif /* __SIMU_CUDA_FP16_H */
