/* simu shim <helper_math.h> (the CUDA samples' vector helper): for float2/3/4, int2/3/4 and
 * uint2/3/4 the operators + - * / (vector-vector, vector-scalar, scalar-vector), += -= *= /=,
 * unary -, the one-argument and conversion make_* forms (make_float3(s), make_float3(float4),
 * make_float4(float3, w), ...), fminf/fmaxf/min/max/clamp/lerp per component, dot, length,
 * normalize, cross, reflect, floorf, fracf, fabs, and clamp/lerp for scalars.
 * Everything is plain arithmetic on the components (no intrinsics beyond the math library). */
#ifndef __SIMU_HELPER_MATH_H
#define __SIMU_HELPER_MATH_H

#include "cuda_runtime.h"

#define __SIMU_HM static __host__ __device__ __forceinline__

/* ---- scalars ------------------------------------------------------------------------------- */
__SIMU_HM float lerp(float a, float b, float t) { return a + t * (b - a); }
__SIMU_HM float clamp(float f, float a, float b) { return fmaxf(a, fminf(f, b)); }
__SIMU_HM int clamp(int f, int a, int b) { return max(a, min(f, b)); }
__SIMU_HM unsigned int clamp(unsigned int f, unsigned int a, unsigned int b) { return max(a, min(f, b)); }
__SIMU_HM float fracf(float v) { return v - floorf(v); }

/* ---- per-component operators ------------------------------------------------------------- */
#define __SIMU_HM_OPS2(V, S)                                                                   \
  __SIMU_HM V operator+(V a, V b) { return make_##V(a.x + b.x, a.y + b.y); }                 \
  __SIMU_HM V operator-(V a, V b) { return make_##V(a.x - b.x, a.y - b.y); }                 \
  __SIMU_HM V operator*(V a, V b) { return make_##V(a.x * b.x, a.y * b.y); }                 \
  __SIMU_HM V operator/(V a, V b) { return make_##V(a.x / b.x, a.y / b.y); }                 \
  __SIMU_HM V operator+(V a, S s) { return make_##V(a.x + s, a.y + s); }                     \
  __SIMU_HM V operator-(V a, S s) { return make_##V(a.x - s, a.y - s); }                     \
  __SIMU_HM V operator*(V a, S s) { return make_##V(a.x * s, a.y * s); }                     \
  __SIMU_HM V operator/(V a, S s) { return make_##V(a.x / s, a.y / s); }                     \
  __SIMU_HM V operator+(S s, V a) { return make_##V(s + a.x, s + a.y); }                     \
  __SIMU_HM V operator-(S s, V a) { return make_##V(s - a.x, s - a.y); }                     \
  __SIMU_HM V operator*(S s, V a) { return make_##V(s * a.x, s * a.y); }                     \
  __SIMU_HM V operator/(S s, V a) { return make_##V(s / a.x, s / a.y); }                     \
  __SIMU_HM V make_##V(S s) { return make_##V(s, s); }                                       \
  __SIMU_HM S dot(V a, V b) { return a.x * b.x + a.y * b.y; }
#define __SIMU_HM_OPS3(V, S)                                                                   \
  __SIMU_HM V operator+(V a, V b) { return make_##V(a.x + b.x, a.y + b.y, a.z + b.z); }      \
  __SIMU_HM V operator-(V a, V b) { return make_##V(a.x - b.x, a.y - b.y, a.z - b.z); }      \
  __SIMU_HM V operator*(V a, V b) { return make_##V(a.x * b.x, a.y * b.y, a.z * b.z); }      \
  __SIMU_HM V operator/(V a, V b) { return make_##V(a.x / b.x, a.y / b.y, a.z / b.z); }      \
  __SIMU_HM V operator+(V a, S s) { return make_##V(a.x + s, a.y + s, a.z + s); }            \
  __SIMU_HM V operator-(V a, S s) { return make_##V(a.x - s, a.y - s, a.z - s); }            \
  __SIMU_HM V operator*(V a, S s) { return make_##V(a.x * s, a.y * s, a.z * s); }            \
  __SIMU_HM V operator/(V a, S s) { return make_##V(a.x / s, a.y / s, a.z / s); }            \
  __SIMU_HM V operator+(S s, V a) { return make_##V(s + a.x, s + a.y, s + a.z); }            \
  __SIMU_HM V operator-(S s, V a) { return make_##V(s - a.x, s - a.y, s - a.z); }            \
  __SIMU_HM V operator*(S s, V a) { return make_##V(s * a.x, s * a.y, s * a.z); }            \
  __SIMU_HM V operator/(S s, V a) { return make_##V(s / a.x, s / a.y, s / a.z); }            \
  __SIMU_HM V make_##V(S s) { return make_##V(s, s, s); }                                    \
  __SIMU_HM S dot(V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
#define __SIMU_HM_OPS4(V, S)                                                                   \
  __SIMU_HM V operator+(V a, V b) { return make_##V(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); } \
  __SIMU_HM V operator-(V a, V b) { return make_##V(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w); } \
  __SIMU_HM V operator*(V a, V b) { return make_##V(a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w); } \
  __SIMU_HM V operator/(V a, V b) { return make_##V(a.x / b.x, a.y / b.y, a.z / b.z, a.w / b.w); } \
  __SIMU_HM V operator+(V a, S s) { return make_##V(a.x + s, a.y + s, a.z + s, a.w + s); }   \
  __SIMU_HM V operator-(V a, S s) { return make_##V(a.x - s, a.y - s, a.z - s, a.w - s); }   \
  __SIMU_HM V operator*(V a, S s) { return make_##V(a.x * s, a.y * s, a.z * s, a.w * s); }   \
  __SIMU_HM V operator/(V a, S s) { return make_##V(a.x / s, a.y / s, a.z / s, a.w / s); }   \
  __SIMU_HM V operator+(S s, V a) { return make_##V(s + a.x, s + a.y, s + a.z, s + a.w); }   \
  __SIMU_HM V operator-(S s, V a) { return make_##V(s - a.x, s - a.y, s - a.z, s - a.w); }   \
  __SIMU_HM V operator*(S s, V a) { return make_##V(s * a.x, s * a.y, s * a.z, s * a.w); }   \
  __SIMU_HM V operator/(S s, V a) { return make_##V(s / a.x, s / a.y, s / a.z, s / a.w); }   \
  __SIMU_HM V make_##V(S s) { return make_##V(s, s, s, s); }                                 \
  __SIMU_HM S dot(V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
/* compound assignment and negation through the operators above */
#define __SIMU_HM_ASSIGN(V, S)                                                                 \
  __SIMU_HM void operator+=(V &a, V b) { a = a + b; }                                        \
  __SIMU_HM void operator-=(V &a, V b) { a = a - b; }                                        \
  __SIMU_HM void operator*=(V &a, V b) { a = a * b; }                                        \
  __SIMU_HM void operator/=(V &a, V b) { a = a / b; }                                        \
  __SIMU_HM void operator+=(V &a, S s) { a = a + s; }                                        \
  __SIMU_HM void operator-=(V &a, S s) { a = a - s; }                                        \
  __SIMU_HM void operator*=(V &a, S s) { a = a * s; }                                        \
  __SIMU_HM void operator/=(V &a, S s) { a = a / s; }

__SIMU_HM_OPS2(float2, float)
__SIMU_HM_OPS3(float3, float)
__SIMU_HM_OPS4(float4, float)
__SIMU_HM_OPS2(int2, int)
__SIMU_HM_OPS3(int3, int)
__SIMU_HM_OPS4(int4, int)
__SIMU_HM_OPS2(uint2, unsigned int)
__SIMU_HM_OPS3(uint3, unsigned int)
__SIMU_HM_OPS4(uint4, unsigned int)
__SIMU_HM_ASSIGN(float2, float)
__SIMU_HM_ASSIGN(float3, float)
__SIMU_HM_ASSIGN(float4, float)
__SIMU_HM_ASSIGN(int2, int)
__SIMU_HM_ASSIGN(int3, int)
__SIMU_HM_ASSIGN(int4, int)
__SIMU_HM_ASSIGN(uint2, unsigned int)
__SIMU_HM_ASSIGN(uint3, unsigned int)
__SIMU_HM_ASSIGN(uint4, unsigned int)
#undef __SIMU_HM_OPS2
#undef __SIMU_HM_OPS3
#undef __SIMU_HM_OPS4
#undef __SIMU_HM_ASSIGN

__SIMU_HM float2 operator-(float2 a) { return make_float2(-a.x, -a.y); }
__SIMU_HM float3 operator-(float3 a) { return make_float3(-a.x, -a.y, -a.z); }
__SIMU_HM float4 operator-(float4 a) { return make_float4(-a.x, -a.y, -a.z, -a.w); }
__SIMU_HM int2 operator-(int2 a) { return make_int2(-a.x, -a.y); }
__SIMU_HM int3 operator-(int3 a) { return make_int3(-a.x, -a.y, -a.z); }
__SIMU_HM int4 operator-(int4 a) { return make_int4(-a.x, -a.y, -a.z, -a.w); }

/* ---- conversions between sizes and types ------------------------------------------------ */
__SIMU_HM float2 make_float2(int2 a) { return make_float2((float)a.x, (float)a.y); }
__SIMU_HM float3 make_float3(float2 a) { return make_float3(a.x, a.y, 0.0f); }
__SIMU_HM float3 make_float3(float2 a, float s) { return make_float3(a.x, a.y, s); }
__SIMU_HM float3 make_float3(float4 a) { return make_float3(a.x, a.y, a.z); }
__SIMU_HM float3 make_float3(int3 a) { return make_float3((float)a.x, (float)a.y, (float)a.z); }
__SIMU_HM float3 make_float3(uint3 a) { return make_float3((float)a.x, (float)a.y, (float)a.z); }
__SIMU_HM float4 make_float4(float3 a) { return make_float4(a.x, a.y, a.z, 0.0f); }
__SIMU_HM float4 make_float4(float3 a, float w) { return make_float4(a.x, a.y, a.z, w); }
__SIMU_HM float4 make_float4(int4 a) { return make_float4((float)a.x, (float)a.y, (float)a.z, (float)a.w); }
__SIMU_HM int3 make_int3(float3 a) { return make_int3((int)a.x, (int)a.y, (int)a.z); }
__SIMU_HM int3 make_int3(uint3 a) { return make_int3((int)a.x, (int)a.y, (int)a.z); }
__SIMU_HM uint3 make_uint3(int3 a) { return make_uint3((unsigned int)a.x, (unsigned int)a.y, (unsigned int)a.z); }

/* ---- geometry and per-component functions ------------------------------------------------- */
__SIMU_HM float length(float2 v) { return sqrtf(dot(v, v)); }
__SIMU_HM float length(float3 v) { return sqrtf(dot(v, v)); }
__SIMU_HM float length(float4 v) { return sqrtf(dot(v, v)); }
__SIMU_HM float2 normalize(float2 v) { return v * rsqrtf(dot(v, v)); }
__SIMU_HM float3 normalize(float3 v) { return v * rsqrtf(dot(v, v)); }
__SIMU_HM float4 normalize(float4 v) { return v * rsqrtf(dot(v, v)); }
__SIMU_HM float3 cross(float3 a, float3 b) {
  return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
__SIMU_HM float3 reflect(float3 i, float3 n) { return i - 2.0f * n * dot(n, i); }
__SIMU_HM float2 lerp(float2 a, float2 b, float t) { return a + t * (b - a); }
__SIMU_HM float3 lerp(float3 a, float3 b, float t) { return a + t * (b - a); }
__SIMU_HM float4 lerp(float4 a, float4 b, float t) { return a + t * (b - a); }
__SIMU_HM float2 fminf(float2 a, float2 b) { return make_float2(fminf(a.x, b.x), fminf(a.y, b.y)); }
__SIMU_HM float3 fminf(float3 a, float3 b) { return make_float3(fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z)); }
__SIMU_HM float4 fminf(float4 a, float4 b) {
  return make_float4(fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z), fminf(a.w, b.w));
}
__SIMU_HM float2 fmaxf(float2 a, float2 b) { return make_float2(fmaxf(a.x, b.x), fmaxf(a.y, b.y)); }
__SIMU_HM float3 fmaxf(float3 a, float3 b) { return make_float3(fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z)); }
__SIMU_HM float4 fmaxf(float4 a, float4 b) {
  return make_float4(fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z), fmaxf(a.w, b.w));
}
__SIMU_HM int3 min(int3 a, int3 b) { return make_int3(min(a.x, b.x), min(a.y, b.y), min(a.z, b.z)); }
__SIMU_HM int3 max(int3 a, int3 b) { return make_int3(max(a.x, b.x), max(a.y, b.y), max(a.z, b.z)); }
__SIMU_HM float2 clamp(float2 v, float a, float b) { return make_float2(clamp(v.x, a, b), clamp(v.y, a, b)); }
__SIMU_HM float3 clamp(float3 v, float a, float b) {
  return make_float3(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b));
}
__SIMU_HM float4 clamp(float4 v, float a, float b) {
  return make_float4(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b), clamp(v.w, a, b));
}
__SIMU_HM float3 clamp(float3 v, float3 a, float3 b) {
  return make_float3(clamp(v.x, a.x, b.x), clamp(v.y, a.y, b.y), clamp(v.z, a.z, b.z));
}
__SIMU_HM float2 floorf(float2 v) { return make_float2(floorf(v.x), floorf(v.y)); }
__SIMU_HM float3 floorf(float3 v) { return make_float3(floorf(v.x), floorf(v.y), floorf(v.z)); }
__SIMU_HM float4 floorf(float4 v) { return make_float4(floorf(v.x), floorf(v.y), floorf(v.z), floorf(v.w)); }
__SIMU_HM float3 fracf(float3 v) { return make_float3(fracf(v.x), fracf(v.y), fracf(v.z)); }
__SIMU_HM float2 fabs(float2 v) { return make_float2(fabsf(v.x), fabsf(v.y)); }
__SIMU_HM float3 fabs(float3 v) { return make_float3(fabsf(v.x), fabsf(v.y), fabsf(v.z)); }
__SIMU_HM float4 fabs(float4 v) { return make_float4(fabsf(v.x), fabsf(v.y), fabsf(v.z), fabsf(v.w)); }

#undef __SIMU_HM

#endif /* __SIMU_HELPER_MATH_H */
