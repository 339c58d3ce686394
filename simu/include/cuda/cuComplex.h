/* simu shim <cuComplex.h>: single and double complex numbers as float2 / double2 with the
 * usual helpers (usable in host and device code). */
#ifndef CU_COMPLEX_H_
#define CU_COMPLEX_H_
#include "cuda_runtime.h"
typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;
static __host__ __device__ inline float cuCrealf(cuFloatComplex x) { return x.x; }
static __host__ __device__ inline float cuCimagf(cuFloatComplex x) { return x.y; }
static __host__ __device__ inline cuFloatComplex make_cuFloatComplex(float r, float i) {
  cuFloatComplex z;
  z.x = r;
  z.y = i;
  return z;
}
static __host__ __device__ inline cuComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
static __host__ __device__ inline cuFloatComplex cuConjf(cuFloatComplex x) { return make_cuFloatComplex(x.x, -x.y); }
static __host__ __device__ inline cuFloatComplex cuCaddf(cuFloatComplex a, cuFloatComplex b) {
  return make_cuFloatComplex(a.x + b.x, a.y + b.y);
}
static __host__ __device__ inline cuFloatComplex cuCsubf(cuFloatComplex a, cuFloatComplex b) {
  return make_cuFloatComplex(a.x - b.x, a.y - b.y);
}
static __host__ __device__ inline cuFloatComplex cuCmulf(cuFloatComplex a, cuFloatComplex b) {
  return make_cuFloatComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
static __host__ __device__ inline cuFloatComplex cuCdivf(cuFloatComplex a, cuFloatComplex b) {
  float d = b.x * b.x + b.y * b.y;
  return make_cuFloatComplex((a.x * b.x + a.y * b.y) / d, (a.y * b.x - a.x * b.y) / d);
}
static __host__ __device__ inline float cuCabsf(cuFloatComplex x) { return sqrtf(x.x * x.x + x.y * x.y); }
static __host__ __device__ inline cuFloatComplex cuCfmaf(cuFloatComplex x, cuFloatComplex y, cuFloatComplex d) {
  return cuCaddf(cuCmulf(x, y), d);
}
static __host__ __device__ inline double cuCreal(cuDoubleComplex x) { return x.x; }
static __host__ __device__ inline double cuCimag(cuDoubleComplex x) { return x.y; }
static __host__ __device__ inline cuDoubleComplex make_cuDoubleComplex(double r, double i) {
  cuDoubleComplex z;
  z.x = r;
  z.y = i;
  return z;
}
static __host__ __device__ inline cuDoubleComplex cuConj(cuDoubleComplex x) { return make_cuDoubleComplex(x.x, -x.y); }
static __host__ __device__ inline cuDoubleComplex cuCadd(cuDoubleComplex a, cuDoubleComplex b) {
  return make_cuDoubleComplex(a.x + b.x, a.y + b.y);
}
static __host__ __device__ inline cuDoubleComplex cuCsub(cuDoubleComplex a, cuDoubleComplex b) {
  return make_cuDoubleComplex(a.x - b.x, a.y - b.y);
}
static __host__ __device__ inline cuDoubleComplex cuCmul(cuDoubleComplex a, cuDoubleComplex b) {
  return make_cuDoubleComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
static __host__ __device__ inline cuDoubleComplex cuCdiv(cuDoubleComplex a, cuDoubleComplex b) {
  double d = b.x * b.x + b.y * b.y;
  return make_cuDoubleComplex((a.x * b.x + a.y * b.y) / d, (a.y * b.x - a.x * b.y) / d);
}
static __host__ __device__ inline double cuCabs(cuDoubleComplex x) { return sqrt(x.x * x.x + x.y * x.y); }
static __host__ __device__ inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return make_cuDoubleComplex(c.x, c.y);
}
static __host__ __device__ inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_cuFloatComplex((float)c.x, (float)c.y);
}
#endif /* CU_COMPLEX_H_ */
