/* simu shim <curand.h>: the host cuRAND API's types and a few declarations (host only). */
#ifndef __SIMU_CURAND_H
#define __SIMU_CURAND_H
#include "cuda_runtime.h"
typedef enum curandStatus {
  CURAND_STATUS_SUCCESS = 0,
  CURAND_STATUS_VERSION_MISMATCH = 100,
  CURAND_STATUS_NOT_INITIALIZED = 101,
  CURAND_STATUS_ALLOCATION_FAILED = 102,
  CURAND_STATUS_TYPE_ERROR = 103,
  CURAND_STATUS_OUT_OF_RANGE = 104,
  CURAND_STATUS_LAUNCH_FAILURE = 201,
  CURAND_STATUS_INTERNAL_ERROR = 999
} curandStatus_t;
typedef enum curandRngType {
  CURAND_RNG_PSEUDO_DEFAULT = 100,
  CURAND_RNG_PSEUDO_XORWOW = 101,
  CURAND_RNG_PSEUDO_MRG32K3A = 121,
  CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
  CURAND_RNG_QUASI_DEFAULT = 200
} curandRngType_t;
typedef struct curandGenerator_st *curandGenerator_t;
extern "C" {
__host__ curandStatus_t curandCreateGenerator(curandGenerator_t *generator, curandRngType_t rng_type);
__host__ curandStatus_t curandDestroyGenerator(curandGenerator_t generator);
__host__ curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed);
__host__ curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int *out, size_t num);
__host__ curandStatus_t curandGenerateUniform(curandGenerator_t generator, float *out, size_t num);
__host__ curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double *out, size_t num);
__host__ curandStatus_t curandGenerateNormal(curandGenerator_t generator, float *out, size_t n, float mean,
                                             float stddev);
}
#endif
