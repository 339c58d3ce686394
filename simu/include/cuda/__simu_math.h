/* simu CUDA shim: the CUDA math library and integer/bit intrinsics.
 *
 * Provides the C99 float/double math functions (sinf/sin, ...), their C++ overloads in the
 * global namespace and in std (sqrt(float), abs, fabs, min, max, ...), CUDA's extra functions
 * (rsqrtf, sincosf, sinpif, exp10f, normcdff, ...), the fast and explicitly rounded forms
 * (__expf, __sinf, __fdividef, __saturatef, __fmul_rn, __fadd_rn, __frcp_rn, __fsqrt_rn, ...),
 * classification (isnan, isinf, isfinite, signbit), reinterpretation and conversion
 * intrinsics (__int_as_float, __float2int_rn, ...), and the integer intrinsics (__clz, __ffs,
 * __popc, __brev, __mul24, __umul24, __mulhi, __umulhi, __sad, __byte_perm, __funnelshift_*,
 * __dp4a, ... and the ll forms), min/max/umin/umax/llmin/llmax/ullmin/ullmax.
 *
 * Lowering (relied on by the simu interpreter), float shown, double is the same with f64:
 *   LLVM intrinsics: sqrtf, fabsf, floorf, ceilf, truncf, roundf, rintf, nearbyintf, sinf,
 *     cosf, tanf, asinf, acosf, atanf, sinhf, coshf, tanhf, expf, exp2f, exp10f, logf, log2f,
 *     log10f, powf, atan2f, copysignf, fmaf, fminf/fmaxf (llvm.minnum/maxnum), frexpf, ldexpf,
 *     modff, lroundf/llroundf/lrintf/llrintf -> llvm.<name>.f32 (llvm.frexp/ldexp/modf/...);
 *     fmodf -> frem instruction; int min/max -> llvm.smin/smax/umin/umax; abs -> llvm.abs;
 *     __clz -> llvm.ctlz, __ffs -> llvm.cttz, __popc -> llvm.ctpop, __brev -> llvm.bitreverse,
 *     __funnelshift_* -> llvm.fshl/fshr; __mulhi/__umulhi -> 64-bit mul + shift;
 *     __mul64hi/__umul64hi -> 32-bit halves in i64 arithmetic (no i128).
 *   calls of plain libm names (no intrinsic exists): acoshf asinhf atanhf cbrtf erff erfcf
 *     expm1f lgammaf log1pf logbf tgammaf fdimf hypotf nextafterf remainderf scalbnf ilogbf
 *     remquof and the double forms (acosh, ..., remquo); CUDA-only functions without an LLVM
 *     equivalent are calls too: erfinvf erfcinvf normcdfinvf j0f j1f jnf y0f y1f ynf
 *     (and erfinv, erfcinv, normcdfinv, j0, j1, jn, y0, y1, yn).
 *   isnan(x) -> fcmp uno; isinf(x) -> fabs + fcmp oeq inf; isfinite(x) -> fabs + fcmp one inf.
 *   Rounding-mode suffixes other than _rn (_rz, _ru, _rd) are computed in round-to-nearest,
 *   except the float->int conversions, which use trunc/ceil/floor/rint as their mode says.
 */
#ifndef __SIMU_MATH_H
#define __SIMU_MATH_H

/* C library functions: external linkage, C names, no exceptions (matches glibc's prototypes) */
#define __SIMU_LIBM extern "C" __host__ __device__
#define __SIMU_LIBM_INLINE extern "C" inline __host__ __device__ __attribute__((always_inline))
/* C++ overloads and CUDA-only helpers */
#define __SIMU_MATH_HD inline __host__ __device__ __attribute__((always_inline))

/* ---- constants (glibc / POSIX names that CUDA code commonly uses) --------------------- */
#define HUGE_VALF __builtin_huge_valf()
#define HUGE_VAL __builtin_huge_val()
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#define MAXFLOAT 3.40282347e+38F
#define FP_NAN 0
#define FP_INFINITE 1
#define FP_ZERO 2
#define FP_SUBNORMAL 3
#define FP_NORMAL 4
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440

/* ---- C math functions that clang lowers to LLVM intrinsics ----------------------------- */
#define __SIMU_UNARY_INTRINSIC(FN)                                                              \
  __SIMU_LIBM_INLINE float FN##f(float x) noexcept { return __builtin_##FN##f(x); }            \
  __SIMU_LIBM_INLINE double FN(double x) noexcept { return __builtin_##FN(x); }
#define __SIMU_BINARY_INTRINSIC(FN)                                                             \
  __SIMU_LIBM_INLINE float FN##f(float x, float y) noexcept { return __builtin_##FN##f(x, y); } \
  __SIMU_LIBM_INLINE double FN(double x, double y) noexcept { return __builtin_##FN(x, y); }

__SIMU_UNARY_INTRINSIC(acos)
__SIMU_UNARY_INTRINSIC(asin)
__SIMU_UNARY_INTRINSIC(atan)
__SIMU_UNARY_INTRINSIC(ceil)
__SIMU_UNARY_INTRINSIC(cos)
__SIMU_UNARY_INTRINSIC(cosh)
__SIMU_UNARY_INTRINSIC(exp)
__SIMU_UNARY_INTRINSIC(exp2)
__SIMU_UNARY_INTRINSIC(exp10)
__SIMU_UNARY_INTRINSIC(fabs)
__SIMU_UNARY_INTRINSIC(floor)
__SIMU_UNARY_INTRINSIC(log)
__SIMU_UNARY_INTRINSIC(log10)
__SIMU_UNARY_INTRINSIC(log2)
__SIMU_UNARY_INTRINSIC(nearbyint)
__SIMU_UNARY_INTRINSIC(rint)
__SIMU_UNARY_INTRINSIC(round)
__SIMU_UNARY_INTRINSIC(sin)
__SIMU_UNARY_INTRINSIC(sinh)
__SIMU_UNARY_INTRINSIC(sqrt)
__SIMU_UNARY_INTRINSIC(tan)
__SIMU_UNARY_INTRINSIC(tanh)
__SIMU_UNARY_INTRINSIC(trunc)
__SIMU_BINARY_INTRINSIC(atan2)
__SIMU_BINARY_INTRINSIC(copysign)
__SIMU_BINARY_INTRINSIC(fmax)
__SIMU_BINARY_INTRINSIC(fmin)
__SIMU_BINARY_INTRINSIC(fmod)
__SIMU_BINARY_INTRINSIC(pow)
#undef __SIMU_UNARY_INTRINSIC
#undef __SIMU_BINARY_INTRINSIC

__SIMU_LIBM_INLINE float fmaf(float x, float y, float z) noexcept { return __builtin_fmaf(x, y, z); }
__SIMU_LIBM_INLINE double fma(double x, double y, double z) noexcept { return __builtin_fma(x, y, z); }
__SIMU_LIBM_INLINE float frexpf(float x, int *e) noexcept { return __builtin_frexpf(x, e); }
__SIMU_LIBM_INLINE double frexp(double x, int *e) noexcept { return __builtin_frexp(x, e); }
__SIMU_LIBM_INLINE float ldexpf(float x, int e) noexcept { return __builtin_ldexpf(x, e); }
__SIMU_LIBM_INLINE double ldexp(double x, int e) noexcept { return __builtin_ldexp(x, e); }
__SIMU_LIBM_INLINE float modff(float x, float *ip) noexcept { return __builtin_modff(x, ip); }
__SIMU_LIBM_INLINE double modf(double x, double *ip) noexcept { return __builtin_modf(x, ip); }
__SIMU_LIBM_INLINE long lroundf(float x) noexcept { return __builtin_lroundf(x); }
__SIMU_LIBM_INLINE long lround(double x) noexcept { return __builtin_lround(x); }
__SIMU_LIBM_INLINE long long llroundf(float x) noexcept { return __builtin_llroundf(x); }
__SIMU_LIBM_INLINE long long llround(double x) noexcept { return __builtin_llround(x); }
__SIMU_LIBM_INLINE long lrintf(float x) noexcept { return __builtin_lrintf(x); }
__SIMU_LIBM_INLINE long lrint(double x) noexcept { return __builtin_lrint(x); }
__SIMU_LIBM_INLINE long long llrintf(float x) noexcept { return __builtin_llrintf(x); }
__SIMU_LIBM_INLINE long long llrint(double x) noexcept { return __builtin_llrint(x); }
__SIMU_LIBM_INLINE float nanf(const char *) noexcept { return __builtin_nanf(""); }
__SIMU_LIBM_INLINE double nan(const char *) noexcept { return __builtin_nan(""); }
__SIMU_LIBM_INLINE float scalblnf(float x, long n) noexcept { return __builtin_ldexpf(x, (int)n); }
__SIMU_LIBM_INLINE double scalbln(double x, long n) noexcept { return __builtin_ldexp(x, (int)n); }

/* ---- C math functions that stay calls of their libm name ------------------------------- */
#define __SIMU_UNARY_CALL(FN)                                                                   \
  __SIMU_LIBM float FN##f(float x) noexcept;                                                   \
  __SIMU_LIBM double FN(double x) noexcept;
#define __SIMU_BINARY_CALL(FN)                                                                  \
  __SIMU_LIBM float FN##f(float x, float y) noexcept;                                          \
  __SIMU_LIBM double FN(double x, double y) noexcept;

__SIMU_UNARY_CALL(acosh)
__SIMU_UNARY_CALL(asinh)
__SIMU_UNARY_CALL(atanh)
__SIMU_UNARY_CALL(cbrt)
__SIMU_UNARY_CALL(erf)
__SIMU_UNARY_CALL(erfc)
__SIMU_UNARY_CALL(expm1)
__SIMU_UNARY_CALL(lgamma)
__SIMU_UNARY_CALL(log1p)
__SIMU_UNARY_CALL(logb)
__SIMU_UNARY_CALL(tgamma)
__SIMU_UNARY_CALL(j0)
__SIMU_UNARY_CALL(j1)
__SIMU_UNARY_CALL(y0)
__SIMU_UNARY_CALL(y1)
/* CUDA-only functions with no LLVM equivalent: the interpreter implements these names */
__SIMU_UNARY_CALL(erfinv)
__SIMU_UNARY_CALL(erfcinv)
__SIMU_UNARY_CALL(normcdfinv)
__SIMU_BINARY_CALL(fdim)
__SIMU_BINARY_CALL(hypot)
__SIMU_BINARY_CALL(nextafter)
__SIMU_BINARY_CALL(remainder)
#undef __SIMU_UNARY_CALL
#undef __SIMU_BINARY_CALL
__SIMU_LIBM float scalbnf(float x, int n) noexcept;
__SIMU_LIBM double scalbn(double x, int n) noexcept;
__SIMU_LIBM int ilogbf(float x) noexcept;
__SIMU_LIBM int ilogb(double x) noexcept;
__SIMU_LIBM float remquof(float x, float y, int *quo) noexcept;
__SIMU_LIBM double remquo(double x, double y, int *quo) noexcept;
__SIMU_LIBM float jnf(int n, float x) noexcept;
__SIMU_LIBM double jn(int n, double x) noexcept;
__SIMU_LIBM float ynf(int n, float x) noexcept;
__SIMU_LIBM double yn(int n, double x) noexcept;

/* ---- CUDA's additional functions ---------------------------------------------------------- */
__SIMU_MATH_HD float rsqrtf(float x) { return 1.0f / __builtin_sqrtf(x); }
__SIMU_MATH_HD double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
__SIMU_MATH_HD float rcbrtf(float x) { return 1.0f / cbrtf(x); }
__SIMU_MATH_HD double rcbrt(double x) { return 1.0 / cbrt(x); }
__SIMU_MATH_HD float sinpif(float x) { return __builtin_sinf((float)M_PI * x); }
__SIMU_MATH_HD double sinpi(double x) { return __builtin_sin(M_PI * x); }
__SIMU_MATH_HD float cospif(float x) { return __builtin_cosf((float)M_PI * x); }
__SIMU_MATH_HD double cospi(double x) { return __builtin_cos(M_PI * x); }
__SIMU_MATH_HD void sincosf(float x, float *s, float *c) { *s = __builtin_sinf(x); *c = __builtin_cosf(x); }
__SIMU_MATH_HD void sincos(double x, double *s, double *c) { *s = __builtin_sin(x); *c = __builtin_cos(x); }
__SIMU_MATH_HD void sincospif(float x, float *s, float *c) { *s = sinpif(x); *c = cospif(x); }
__SIMU_MATH_HD void sincospi(double x, double *s, double *c) { *s = sinpi(x); *c = cospi(x); }
__SIMU_MATH_HD float normcdff(float x) { return 0.5f * erfcf(-x * (float)M_SQRT1_2); }
__SIMU_MATH_HD double normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
__SIMU_MATH_HD float rhypotf(float x, float y) { return 1.0f / hypotf(x, y); }
__SIMU_MATH_HD double rhypot(double x, double y) { return 1.0 / hypot(x, y); }
__SIMU_MATH_HD float norm3df(float a, float b, float c) { return __builtin_sqrtf(a * a + b * b + c * c); }
__SIMU_MATH_HD double norm3d(double a, double b, double c) { return __builtin_sqrt(a * a + b * b + c * c); }
__SIMU_MATH_HD float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
__SIMU_MATH_HD double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
__SIMU_MATH_HD float norm4df(float a, float b, float c, float d) {
  return __builtin_sqrtf(a * a + b * b + c * c + d * d);
}
__SIMU_MATH_HD double norm4d(double a, double b, double c, double d) {
  return __builtin_sqrt(a * a + b * b + c * c + d * d);
}
__SIMU_MATH_HD float fdividef(float x, float y) { return x / y; }

/* ---- classification ---------------------------------------------------------------------- */
/* plain comparisons, so that the IR needs no llvm.is.fpclass */
__SIMU_MATH_HD bool isnan(float x) { return x != x; }
__SIMU_MATH_HD bool isnan(double x) { return x != x; }
__SIMU_MATH_HD bool isinf(float x) { return __builtin_fabsf(x) == __builtin_inff(); }
__SIMU_MATH_HD bool isinf(double x) { return __builtin_fabs(x) == __builtin_inf(); }
__SIMU_MATH_HD bool isfinite(float x) { return __builtin_fabsf(x) < __builtin_inff(); }
__SIMU_MATH_HD bool isfinite(double x) { return __builtin_fabs(x) < __builtin_inf(); }
__SIMU_MATH_HD bool signbit(float x) { return (__builtin_bit_cast(unsigned int, x) >> 31) != 0; }
__SIMU_MATH_HD bool signbit(double x) {
  return (__builtin_bit_cast(unsigned long long, x) >> 63) != 0;
}
__SIMU_MATH_HD bool isnormal(float x) {
  return __builtin_fabsf(x) >= __FLT_MIN__ && __builtin_fabsf(x) < __builtin_inff();
}
__SIMU_MATH_HD bool isnormal(double x) {
  return __builtin_fabs(x) >= __DBL_MIN__ && __builtin_fabs(x) < __builtin_inf();
}
__SIMU_MATH_HD int __isnanf(float x) { return isnan(x); }
__SIMU_MATH_HD int __isnan(double x) { return isnan(x); }
__SIMU_MATH_HD int __isinff(float x) { return isinf(x); }
__SIMU_MATH_HD int __isinf(double x) { return isinf(x); }
__SIMU_MATH_HD int __finitef(float x) { return isfinite(x); }
__SIMU_MATH_HD int __finite(double x) { return isfinite(x); }
__SIMU_MATH_HD int __signbitf(float x) { return signbit(x); }
__SIMU_MATH_HD int __signbit(double x) { return signbit(x); }

/* ---- fast / explicitly rounded single-precision intrinsics -------------------------------- */
__SIMU_MATH_HD float __sinf(float x) { return __builtin_sinf(x); }
__SIMU_MATH_HD float __cosf(float x) { return __builtin_cosf(x); }
__SIMU_MATH_HD float __tanf(float x) { return __builtin_tanf(x); }
__SIMU_MATH_HD void __sincosf(float x, float *s, float *c) { *s = __builtin_sinf(x); *c = __builtin_cosf(x); }
__SIMU_MATH_HD float __expf(float x) { return __builtin_expf(x); }
__SIMU_MATH_HD float __exp10f(float x) { return __builtin_exp10f(x); }
__SIMU_MATH_HD float __logf(float x) { return __builtin_logf(x); }
__SIMU_MATH_HD float __log2f(float x) { return __builtin_log2f(x); }
__SIMU_MATH_HD float __log10f(float x) { return __builtin_log10f(x); }
__SIMU_MATH_HD float __powf(float x, float y) { return __builtin_powf(x, y); }
__SIMU_MATH_HD float __fdividef(float x, float y) { return x / y; }
__SIMU_MATH_HD float __saturatef(float x) { return __builtin_fminf(__builtin_fmaxf(x, 0.0f), 1.0f); }
/* single operations that must not be contracted into an fma */
#define __SIMU_NOCONTRACT _Pragma("clang fp contract(off)")
#define __SIMU_ROUNDED_OPS(SUF)                                                                \
  __SIMU_MATH_HD float __fadd_##SUF(float x, float y) { __SIMU_NOCONTRACT return x + y; }    \
  __SIMU_MATH_HD float __fsub_##SUF(float x, float y) { __SIMU_NOCONTRACT return x - y; }    \
  __SIMU_MATH_HD float __fmul_##SUF(float x, float y) { __SIMU_NOCONTRACT return x * y; }    \
  __SIMU_MATH_HD float __fdiv_##SUF(float x, float y) { return x / y; }                      \
  __SIMU_MATH_HD float __frcp_##SUF(float x) { return 1.0f / x; }                            \
  __SIMU_MATH_HD float __fsqrt_##SUF(float x) { return __builtin_sqrtf(x); }                 \
  __SIMU_MATH_HD float __fmaf_##SUF(float x, float y, float z) { return __builtin_fmaf(x, y, z); } \
  __SIMU_MATH_HD double __dadd_##SUF(double x, double y) { __SIMU_NOCONTRACT return x + y; } \
  __SIMU_MATH_HD double __dsub_##SUF(double x, double y) { __SIMU_NOCONTRACT return x - y; } \
  __SIMU_MATH_HD double __dmul_##SUF(double x, double y) { __SIMU_NOCONTRACT return x * y; } \
  __SIMU_MATH_HD double __ddiv_##SUF(double x, double y) { return x / y; }                   \
  __SIMU_MATH_HD double __drcp_##SUF(double x) { return 1.0 / x; }                           \
  __SIMU_MATH_HD double __dsqrt_##SUF(double x) { return __builtin_sqrt(x); }                \
  __SIMU_MATH_HD double __fma_##SUF(double x, double y, double z) { return __builtin_fma(x, y, z); }
__SIMU_ROUNDED_OPS(rn)
__SIMU_ROUNDED_OPS(rz)
__SIMU_ROUNDED_OPS(ru)
__SIMU_ROUNDED_OPS(rd)
#undef __SIMU_ROUNDED_OPS
__SIMU_MATH_HD float __frsqrt_rn(float x) { return 1.0f / __builtin_sqrtf(x); }
__SIMU_MATH_HD float __fmaf_ieee_rn(float x, float y, float z) { return __builtin_fmaf(x, y, z); }

/* ---- reinterpretation and conversions ----------------------------------------------------- */
__SIMU_MATH_HD float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
__SIMU_MATH_HD int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
__SIMU_MATH_HD float __uint_as_float(unsigned int x) { return __builtin_bit_cast(float, x); }
__SIMU_MATH_HD unsigned int __float_as_uint(float x) { return __builtin_bit_cast(unsigned int, x); }
__SIMU_MATH_HD double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
__SIMU_MATH_HD long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
__SIMU_MATH_HD int __double2hiint(double x) { return (int)(__builtin_bit_cast(unsigned long long, x) >> 32); }
__SIMU_MATH_HD int __double2loint(double x) { return (int)__builtin_bit_cast(unsigned long long, x); }
__SIMU_MATH_HD double __hiloint2double(int hi, int lo) {
  return __builtin_bit_cast(double, ((unsigned long long)(unsigned int)hi << 32) | (unsigned int)lo);
}
/* float/double -> integer with a rounding mode: rn = rint, rz = trunc, ru = ceil, rd = floor */
#define __SIMU_F2I(SRC, S, DST, D)                                                             \
  __SIMU_MATH_HD DST __##S##2##D##_rn(SRC x) { return (DST)__builtin_elementwise_rint(x); }   \
  __SIMU_MATH_HD DST __##S##2##D##_rz(SRC x) { return (DST)x; }                               \
  __SIMU_MATH_HD DST __##S##2##D##_ru(SRC x) { return (DST)__builtin_elementwise_ceil(x); }   \
  __SIMU_MATH_HD DST __##S##2##D##_rd(SRC x) { return (DST)__builtin_elementwise_floor(x); }
__SIMU_F2I(float, float, int, int)
__SIMU_F2I(float, float, unsigned int, uint)
__SIMU_F2I(float, float, long long, ll)
__SIMU_F2I(float, float, unsigned long long, ull)
__SIMU_F2I(double, double, int, int)
__SIMU_F2I(double, double, unsigned int, uint)
__SIMU_F2I(double, double, long long, ll)
__SIMU_F2I(double, double, unsigned long long, ull)
#undef __SIMU_F2I
/* integer -> floating point and double -> float (computed in round-to-nearest) */
#define __SIMU_I2F(SRC, S, DST, D)                                                             \
  __SIMU_MATH_HD DST __##S##2##D##_rn(SRC x) { return (DST)x; }                               \
  __SIMU_MATH_HD DST __##S##2##D##_rz(SRC x) { return (DST)x; }                               \
  __SIMU_MATH_HD DST __##S##2##D##_ru(SRC x) { return (DST)x; }                               \
  __SIMU_MATH_HD DST __##S##2##D##_rd(SRC x) { return (DST)x; }
__SIMU_I2F(int, int, float, float)
__SIMU_I2F(unsigned int, uint, float, float)
__SIMU_I2F(long long, ll, float, float)
__SIMU_I2F(unsigned long long, ull, float, float)
__SIMU_I2F(long long, ll, double, double)
__SIMU_I2F(unsigned long long, ull, double, double)
__SIMU_I2F(double, double, float, float)
#undef __SIMU_I2F
__SIMU_MATH_HD double __int2double_rn(int x) { return (double)x; }
__SIMU_MATH_HD double __uint2double_rn(unsigned int x) { return (double)x; }
__SIMU_MATH_HD float __float2float_rn(float x) { return x; }

/* ---- integer intrinsics ------------------------------------------------------------------- */
__SIMU_MATH_HD int __clz(int x) { return __builtin_clzg((unsigned int)x, 32); }
__SIMU_MATH_HD int __clzll(long long x) { return __builtin_clzg((unsigned long long)x, 64); }
__SIMU_MATH_HD int __ffs(int x) { return __builtin_ffs(x); }
__SIMU_MATH_HD int __ffsll(long long x) { return __builtin_ffsll(x); }
__SIMU_MATH_HD int __popc(unsigned int x) { return __builtin_popcount(x); }
__SIMU_MATH_HD int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__SIMU_MATH_HD unsigned int __brev(unsigned int x) { return __builtin_bitreverse32(x); }
__SIMU_MATH_HD unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
/* 24-bit multiplies: the low 24 bits of each operand (sign-extended for __mul24) */
__SIMU_MATH_HD int __mul24(int x, int y) {
  /* low 32 bits of the 48-bit product: multiply as unsigned so that it wraps (no nsw) */
  unsigned int a = (unsigned int)((int)((unsigned int)x << 8) >> 8);
  unsigned int b = (unsigned int)((int)((unsigned int)y << 8) >> 8);
  return (int)(a * b);
}
__SIMU_MATH_HD unsigned int __umul24(unsigned int x, unsigned int y) {
  return (x & 0xffffffu) * (y & 0xffffffu);
}
__SIMU_MATH_HD int __mulhi(int x, int y) { return (int)(((long long)x * (long long)y) >> 32); }
__SIMU_MATH_HD unsigned int __umulhi(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x * (unsigned long long)y) >> 32);
}
/* high 64 bits of a 128-bit product, from 32-bit halves (no i128 in the IR) */
__SIMU_MATH_HD unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  unsigned long long xl = x & 0xffffffffull, xh = x >> 32, yl = y & 0xffffffffull, yh = y >> 32;
  unsigned long long ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
  unsigned long long mid = (ll >> 32) + (lh & 0xffffffffull) + (hl & 0xffffffffull);
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
__SIMU_MATH_HD long long __mul64hi(long long x, long long y) {
  unsigned long long hi = __umul64hi((unsigned long long)x, (unsigned long long)y);
  if (x < 0) hi -= (unsigned long long)y;
  if (y < 0) hi -= (unsigned long long)x;
  return (long long)hi;
}
__SIMU_MATH_HD unsigned int __sad(int x, int y, unsigned int z) {
  return z + (x > y ? (unsigned int)x - (unsigned int)y : (unsigned int)y - (unsigned int)x);
}
__SIMU_MATH_HD unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) {
  return z + (x > y ? x - y : y - x);
}
__SIMU_MATH_HD int __hadd(int x, int y) { return (int)(((long long)x + (long long)y) >> 1); }
__SIMU_MATH_HD int __rhadd(int x, int y) { return (int)(((long long)x + (long long)y + 1) >> 1); }
__SIMU_MATH_HD unsigned int __uhadd(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x + y) >> 1);
}
__SIMU_MATH_HD unsigned int __urhadd(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x + y + 1) >> 1);
}
/* byte s of the 8-byte value {y,x} selected by each nibble of selector */
__SIMU_MATH_HD unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  unsigned long long v = ((unsigned long long)y << 32) | x;
  unsigned int r = 0;
  for (int i = 0; i < 4; ++i) {
    unsigned int sel = (s >> (4 * i)) & 7u;
    r |= (unsigned int)((v >> (8 * sel)) & 0xffu) << (8 * i);
  }
  return r;
}
__SIMU_MATH_HD unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  return __builtin_elementwise_fshl(hi, lo, shift);
}
__SIMU_MATH_HD unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  return __builtin_elementwise_fshr(hi, lo, shift);
}
__SIMU_MATH_HD unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
  return __builtin_elementwise_fshl(hi, lo, shift > 32u ? 32u : shift);
}
__SIMU_MATH_HD unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
  return __builtin_elementwise_fshr(hi, lo, shift > 32u ? 32u : shift);
}
/* four-way byte dot product with accumulate */
__SIMU_MATH_HD int __dp4a(int a, int b, int c) {
  unsigned int acc = (unsigned int)c; /* wraps like the hardware */
  for (int i = 0; i < 4; ++i)
    acc += (unsigned int)((int)(signed char)(a >> (8 * i)) * (int)(signed char)(b >> (8 * i)));
  return (int)acc;
}
__SIMU_MATH_HD unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) {
  for (int i = 0; i < 4; ++i) c += ((a >> (8 * i)) & 0xffu) * ((b >> (8 * i)) & 0xffu);
  return c;
}

/* ---- abs / min / max ---------------------------------------------------------------------- */
extern "C" __host__ __device__ inline __attribute__((always_inline)) int abs(int x) noexcept {
  return __builtin_abs(x);
}
extern "C" __host__ __device__ inline __attribute__((always_inline)) long labs(long x) noexcept {
  return __builtin_labs(x);
}
extern "C" __host__ __device__ inline __attribute__((always_inline)) long long llabs(long long x) noexcept {
  return __builtin_llabs(x);
}
__SIMU_MATH_HD long abs(long x) { return __builtin_labs(x); }
__SIMU_MATH_HD long long abs(long long x) { return __builtin_llabs(x); }
__SIMU_MATH_HD float abs(float x) { return __builtin_fabsf(x); }
__SIMU_MATH_HD double abs(double x) { return __builtin_fabs(x); }

#define __SIMU_MINMAX(T)                                                                       \
  __SIMU_MATH_HD T min(T a, T b) { return __builtin_elementwise_min(a, b); }                  \
  __SIMU_MATH_HD T max(T a, T b) { return __builtin_elementwise_max(a, b); }
__SIMU_MINMAX(int)
__SIMU_MINMAX(unsigned int)
__SIMU_MINMAX(long)
__SIMU_MINMAX(unsigned long)
__SIMU_MINMAX(long long)
__SIMU_MINMAX(unsigned long long)
#undef __SIMU_MINMAX
__SIMU_MATH_HD float min(float a, float b) { return __builtin_fminf(a, b); }
__SIMU_MATH_HD float max(float a, float b) { return __builtin_fmaxf(a, b); }
__SIMU_MATH_HD double min(double a, double b) { return __builtin_fmin(a, b); }
__SIMU_MATH_HD double max(double a, double b) { return __builtin_fmax(a, b); }
/* mixed argument types: both converted to their common type, as C++ arithmetic does
 * (so min(int, unsigned) compares as unsigned, like CUDA's overload) */
template <bool, typename T = void> struct __simu_enable_if {};
template <typename T> struct __simu_enable_if<true, T> { typedef T type; };
#define __SIMU_IF_INT(T, R) typename __simu_enable_if<__is_integral(T), R>::type
#define __SIMU_IF_ARITH2(A, B, R)                                                              \
  typename __simu_enable_if<__is_arithmetic(A) && __is_arithmetic(B), R>::type
template <typename A, typename B>
__SIMU_MATH_HD __SIMU_IF_ARITH2(A, B, decltype(A() + B())) min(A a, B b) {
  typedef decltype(A() + B()) R;
  return min((R)a, (R)b);
}
template <typename A, typename B>
__SIMU_MATH_HD __SIMU_IF_ARITH2(A, B, decltype(A() + B())) max(A a, B b) {
  typedef decltype(A() + B()) R;
  return max((R)a, (R)b);
}
__SIMU_MATH_HD unsigned int umin(unsigned int a, unsigned int b) { return min(a, b); }
__SIMU_MATH_HD unsigned int umax(unsigned int a, unsigned int b) { return max(a, b); }
__SIMU_MATH_HD long long llmin(long long a, long long b) { return min(a, b); }
__SIMU_MATH_HD long long llmax(long long a, long long b) { return max(a, b); }
__SIMU_MATH_HD unsigned long long ullmin(unsigned long long a, unsigned long long b) { return min(a, b); }
__SIMU_MATH_HD unsigned long long ullmax(unsigned long long a, unsigned long long b) { return max(a, b); }

/* ---- C++ overloads: f(float) -> f##f, integers -> double (as <cmath>) ------------------- */

#define __SIMU_OVERLOAD1(FN)                                                                    \
  __SIMU_MATH_HD float FN(float x) { return FN##f(x); }                                         \
  template <typename T> __SIMU_MATH_HD __SIMU_IF_INT(T, double) FN(T x) { return FN((double)x); }
#define __SIMU_OVERLOAD2(FN)                                                                    \
  __SIMU_MATH_HD float FN(float x, float y) { return FN##f(x, y); }                             \
  template <typename A, typename B>                                                           \
  __SIMU_MATH_HD __SIMU_IF_ARITH2(A, B, double) FN(A x, B y) { return FN((double)x, (double)y); }

__SIMU_OVERLOAD1(acos)
__SIMU_OVERLOAD1(acosh)
__SIMU_OVERLOAD1(asin)
__SIMU_OVERLOAD1(asinh)
__SIMU_OVERLOAD1(atan)
__SIMU_OVERLOAD1(atanh)
__SIMU_OVERLOAD1(cbrt)
__SIMU_OVERLOAD1(ceil)
__SIMU_OVERLOAD1(cos)
__SIMU_OVERLOAD1(cosh)
__SIMU_OVERLOAD1(erf)
__SIMU_OVERLOAD1(erfc)
__SIMU_OVERLOAD1(exp)
__SIMU_OVERLOAD1(exp2)
__SIMU_OVERLOAD1(exp10)
__SIMU_OVERLOAD1(expm1)
__SIMU_OVERLOAD1(fabs)
__SIMU_OVERLOAD1(floor)
__SIMU_OVERLOAD1(lgamma)
__SIMU_OVERLOAD1(log)
__SIMU_OVERLOAD1(log10)
__SIMU_OVERLOAD1(log1p)
__SIMU_OVERLOAD1(log2)
__SIMU_OVERLOAD1(logb)
__SIMU_OVERLOAD1(nearbyint)
__SIMU_OVERLOAD1(rint)
__SIMU_OVERLOAD1(round)
__SIMU_OVERLOAD1(sin)
__SIMU_OVERLOAD1(sinh)
__SIMU_OVERLOAD1(sqrt)
__SIMU_OVERLOAD1(tan)
__SIMU_OVERLOAD1(tanh)
__SIMU_OVERLOAD1(tgamma)
__SIMU_OVERLOAD1(trunc)
__SIMU_OVERLOAD1(rsqrt)
__SIMU_OVERLOAD1(rcbrt)
__SIMU_OVERLOAD1(sinpi)
__SIMU_OVERLOAD1(cospi)
__SIMU_OVERLOAD1(erfinv)
__SIMU_OVERLOAD1(erfcinv)
__SIMU_OVERLOAD1(normcdf)
__SIMU_OVERLOAD1(normcdfinv)
__SIMU_OVERLOAD2(atan2)
__SIMU_OVERLOAD2(copysign)
__SIMU_OVERLOAD2(fdim)
__SIMU_OVERLOAD2(fmax)
__SIMU_OVERLOAD2(fmin)
__SIMU_OVERLOAD2(fmod)
__SIMU_OVERLOAD2(hypot)
__SIMU_OVERLOAD2(nextafter)
__SIMU_OVERLOAD2(pow)
__SIMU_OVERLOAD2(remainder)
#undef __SIMU_OVERLOAD1
#undef __SIMU_OVERLOAD2

/* long double: host code only (libstdc++ calls these, e.g. in <random>); never compiled */
#define __SIMU_LONG_DOUBLE1(FN)                                                                 \
  extern "C" __host__ long double FN##l(long double x) noexcept;                              \
  __host__ inline long double FN(long double x) { return FN##l(x); }
#define __SIMU_LONG_DOUBLE2(FN)                                                                 \
  extern "C" __host__ long double FN##l(long double x, long double y) noexcept;               \
  __host__ inline long double FN(long double x, long double y) { return FN##l(x, y); }
__SIMU_LONG_DOUBLE1(acos)
__SIMU_LONG_DOUBLE1(acosh)
__SIMU_LONG_DOUBLE1(asin)
__SIMU_LONG_DOUBLE1(asinh)
__SIMU_LONG_DOUBLE1(atan)
__SIMU_LONG_DOUBLE1(atanh)
__SIMU_LONG_DOUBLE1(cbrt)
__SIMU_LONG_DOUBLE1(ceil)
__SIMU_LONG_DOUBLE1(cos)
__SIMU_LONG_DOUBLE1(cosh)
__SIMU_LONG_DOUBLE1(erf)
__SIMU_LONG_DOUBLE1(erfc)
__SIMU_LONG_DOUBLE1(exp)
__SIMU_LONG_DOUBLE1(exp2)
__SIMU_LONG_DOUBLE1(expm1)
__SIMU_LONG_DOUBLE1(fabs)
__SIMU_LONG_DOUBLE1(floor)
__SIMU_LONG_DOUBLE1(lgamma)
__SIMU_LONG_DOUBLE1(log)
__SIMU_LONG_DOUBLE1(log10)
__SIMU_LONG_DOUBLE1(log1p)
__SIMU_LONG_DOUBLE1(log2)
__SIMU_LONG_DOUBLE1(logb)
__SIMU_LONG_DOUBLE1(nearbyint)
__SIMU_LONG_DOUBLE1(rint)
__SIMU_LONG_DOUBLE1(round)
__SIMU_LONG_DOUBLE1(sin)
__SIMU_LONG_DOUBLE1(sinh)
__SIMU_LONG_DOUBLE1(sqrt)
__SIMU_LONG_DOUBLE1(tan)
__SIMU_LONG_DOUBLE1(tanh)
__SIMU_LONG_DOUBLE1(tgamma)
__SIMU_LONG_DOUBLE1(trunc)
__SIMU_LONG_DOUBLE2(atan2)
__SIMU_LONG_DOUBLE2(copysign)
__SIMU_LONG_DOUBLE2(fdim)
__SIMU_LONG_DOUBLE2(fmax)
__SIMU_LONG_DOUBLE2(fmin)
__SIMU_LONG_DOUBLE2(fmod)
__SIMU_LONG_DOUBLE2(hypot)
__SIMU_LONG_DOUBLE2(nextafter)
__SIMU_LONG_DOUBLE2(pow)
__SIMU_LONG_DOUBLE2(remainder)
#undef __SIMU_LONG_DOUBLE1
#undef __SIMU_LONG_DOUBLE2
__host__ inline long double abs(long double x) { return fabs(x); }
__host__ inline bool isnan(long double x) { return x != x; }
__host__ inline bool isinf(long double x) { return fabs(x) == __builtin_infl(); }
__host__ inline bool isfinite(long double x) { return fabs(x) < __builtin_infl(); }
__SIMU_MATH_HD float pow(float x, int n) { return __builtin_powf(x, (float)n); }
__SIMU_MATH_HD double pow(double x, int n) { return __builtin_pow(x, (double)n); }
__SIMU_MATH_HD float fma(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
__SIMU_MATH_HD float frexp(float x, int *e) { return __builtin_frexpf(x, e); }
__SIMU_MATH_HD float ldexp(float x, int e) { return __builtin_ldexpf(x, e); }
__SIMU_MATH_HD float modf(float x, float *ip) { return __builtin_modff(x, ip); }
__SIMU_MATH_HD float scalbn(float x, int n) { return scalbnf(x, n); }
__SIMU_MATH_HD float scalbln(float x, long n) { return scalblnf(x, n); }
__SIMU_MATH_HD int ilogb(float x) { return ilogbf(x); }
__SIMU_MATH_HD float remquo(float x, float y, int *q) { return remquof(x, y, q); }
__SIMU_MATH_HD long lround(float x) { return lroundf(x); }
__SIMU_MATH_HD long long llround(float x) { return llroundf(x); }
__SIMU_MATH_HD long lrint(float x) { return lrintf(x); }
__SIMU_MATH_HD long long llrint(float x) { return llrintf(x); }
__SIMU_MATH_HD void sincos(float x, float *s, float *c) { sincosf(x, s, c); }
__SIMU_MATH_HD void sincospi(float x, float *s, float *c) { sincospif(x, s, c); }
/* an integer argument is a double, as <cmath>'s overloads for integral types (json.hpp: ldexp(unsigned, int)) */
template <typename T> __SIMU_MATH_HD __SIMU_IF_INT(T, double) ldexp(T x, int e) { return ldexp((double)x, e); }
template <typename T> __SIMU_MATH_HD __SIMU_IF_INT(T, double) frexp(T x, int *e) { return frexp((double)x, e); }
template <typename T> __SIMU_MATH_HD __SIMU_IF_INT(T, double) scalbn(T x, int n) { return scalbn((double)x, n); }
template <typename T> __SIMU_MATH_HD __SIMU_IF_INT(T, double) scalbln(T x, long n) { return scalbln((double)x, n); }
template <typename T> __SIMU_MATH_HD __SIMU_IF_INT(T, int) ilogb(T x) { return ilogb((double)x); }
template <typename T> __SIMU_MATH_HD __SIMU_IF_INT(T, long) lround(T x) { return lround((double)x); }
template <typename T> __SIMU_MATH_HD __SIMU_IF_INT(T, long long) llround(T x) { return llround((double)x); }
template <typename T> __SIMU_MATH_HD __SIMU_IF_INT(T, long) lrint(T x) { return lrint((double)x); }
template <typename T> __SIMU_MATH_HD __SIMU_IF_INT(T, long long) llrint(T x) { return llrint((double)x); }
template <typename T> __SIMU_MATH_HD __SIMU_IF_INT(T, bool) isnan(T) { return false; }
template <typename T> __SIMU_MATH_HD __SIMU_IF_INT(T, bool) isinf(T) { return false; }
template <typename T> __SIMU_MATH_HD __SIMU_IF_INT(T, bool) isfinite(T) { return true; }
#undef __SIMU_IF_INT
#undef __SIMU_IF_ARITH2

/* ---- the same names in namespace std ------------------------------------------------------ */
namespace std {
using ::abs; using ::labs; using ::llabs;
using ::acos; using ::acosf; using ::acosh; using ::acoshf; using ::asin; using ::asinf;
using ::asinh; using ::asinhf; using ::atan; using ::atanf; using ::atan2; using ::atan2f;
using ::atanh; using ::atanhf; using ::cbrt; using ::cbrtf; using ::ceil; using ::ceilf;
using ::copysign; using ::copysignf; using ::cos; using ::cosf; using ::cosh; using ::coshf;
using ::erf; using ::erff; using ::erfc; using ::erfcf; using ::exp; using ::expf;
using ::exp2; using ::exp2f; using ::expm1; using ::expm1f; using ::fabs; using ::fabsf;
using ::fdim; using ::fdimf; using ::floor; using ::floorf; using ::fma; using ::fmaf;
using ::fmax; using ::fmaxf; using ::fmin; using ::fminf; using ::fmod; using ::fmodf;
using ::frexp; using ::frexpf; using ::hypot; using ::hypotf; using ::ilogb; using ::ilogbf;
using ::ldexp; using ::ldexpf; using ::lgamma; using ::lgammaf; using ::llrint; using ::llrintf;
using ::llround; using ::llroundf; using ::log; using ::logf; using ::log10; using ::log10f;
using ::log1p; using ::log1pf; using ::log2; using ::log2f; using ::logb; using ::logbf;
using ::lrint; using ::lrintf; using ::lround; using ::lroundf; using ::modf; using ::modff;
using ::nan; using ::nanf; using ::nearbyint; using ::nearbyintf; using ::nextafter;
using ::nextafterf; using ::pow; using ::powf; using ::remainder; using ::remainderf;
using ::remquo; using ::remquof; using ::rint; using ::rintf; using ::round; using ::roundf;
using ::scalbln; using ::scalblnf; using ::scalbn; using ::scalbnf; using ::sin; using ::sinf;
using ::sinh; using ::sinhf; using ::sqrt; using ::sqrtf; using ::tan; using ::tanf;
using ::tanh; using ::tanhf; using ::tgamma; using ::tgammaf; using ::trunc; using ::truncf;
using ::isnan; using ::isinf; using ::isfinite; using ::isnormal; using ::signbit;
}  // namespace std

#endif /* __SIMU_MATH_H */
