/* simu shim <curand_kernel.h>: device-side random numbers.
 *
 * Provides curandState (and the names curandState_t, curandStateXORWOW[_t],
 * curandStatePhilox4_32_10[_t], curandStateMRG32k3a[_t], all the same generator),
 * curand_init(seed, subsequence, offset, &state), curand(&state), curand_uniform,
 * curand_uniform_double, curand_normal, curand_normal_double, curand_normal2,
 * curand_log_normal, curand_uniform4, curand_normal4 (for the Philox name); and 32-bit Sobol /
 * scrambled Sobol quasi-random states (curand_init with direction vectors, curand, curand_uniform,
 * curand_normal, skipahead).
 *
 * The generator is an xorshift/Weyl ("xorwow"-style) generator seeded through splitmix64 of
 * (seed, subsequence, offset): statistically reasonable and deterministic, but NOT the same
 * sequence as NVIDIA's cuRAND (subsequences are decorrelated by hashing, not by skip-ahead).
 * Everything is plain integer/float code plus logf/sqrtf/cosf/sinf. */
#ifndef __SIMU_CURAND_KERNEL_H
#define __SIMU_CURAND_KERNEL_H

#include "cuda_runtime.h"
#include "curand.h"

struct curandStateXORWOW {
  unsigned int d;
  unsigned int v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;
typedef struct curandStateXORWOW curandStatePhilox4_32_10;
typedef struct curandStateXORWOW curandStatePhilox4_32_10_t;
typedef struct curandStateXORWOW curandStateMRG32k3a;
typedef struct curandStateXORWOW curandStateMRG32k3a_t;

#define CURAND_2POW32_INV (2.3283064e-10f)
#define CURAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#define CURAND_PI_DOUBLE (3.1415926535897932)

__SIMU_HD unsigned long long __simu_splitmix64(unsigned long long *x) {
  unsigned long long z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

__SIMU_DEV void curand_init(unsigned long long seed, unsigned long long subsequence,
                            unsigned long long offset, curandState *state) {
  unsigned long long s = seed ^ (subsequence * 0xd1342543de82ef95ull) ^ (offset * 0x2545f4914f6cdd1dull);
  unsigned long long a = __simu_splitmix64(&s), b = __simu_splitmix64(&s), c = __simu_splitmix64(&s);
  state->v[0] = (unsigned int)a;
  state->v[1] = (unsigned int)(a >> 32);
  state->v[2] = (unsigned int)b;
  state->v[3] = (unsigned int)(b >> 32);
  state->v[4] = (unsigned int)c | 1u; /* never all zero */
  state->d = (unsigned int)(c >> 32);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.0f;
  state->boxmuller_extra_double = 0.0;
}

__SIMU_DEV unsigned int curand(curandState *state) {
  unsigned int t = state->v[0] ^ (state->v[0] >> 2);
  state->v[0] = state->v[1];
  state->v[1] = state->v[2];
  state->v[2] = state->v[3];
  state->v[3] = state->v[4];
  state->v[4] = (state->v[4] ^ (state->v[4] << 4)) ^ (t ^ (t << 1));
  state->d += 362437u;
  return state->v[4] + state->d;
}

/* uniform in (0, 1] */
__SIMU_DEV float curand_uniform(curandState *state) {
  return curand(state) * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f);
}
__SIMU_DEV double curand_uniform_double(curandState *state) {
  unsigned int hi = curand(state), lo = curand(state);
  unsigned long long x = ((unsigned long long)hi << 21) ^ lo; /* 53 random bits */
  x &= (1ull << 53) - 1ull;
  return (double)x * (1.0 / 9007199254740992.0) + (0.5 / 9007199254740992.0);
}

/* standard normal (Box-Muller; the second value of each pair is kept for the next call) */
__SIMU_DEV float2 curand_normal2(curandState *state) {
  float u = curand_uniform(state), v = curand_uniform(state);
  float r = sqrtf(-2.0f * logf(u));
  float th = 2.0f * (float)CURAND_PI_DOUBLE * v;
  return make_float2(r * cosf(th), r * sinf(th));
}
__SIMU_DEV float curand_normal(curandState *state) {
  if (state->boxmuller_flag) {
    state->boxmuller_flag = 0;
    return state->boxmuller_extra;
  }
  float2 p = curand_normal2(state);
  state->boxmuller_flag = 1;
  state->boxmuller_extra = p.y;
  return p.x;
}
__SIMU_DEV double2 curand_normal2_double(curandState *state) {
  double u = curand_uniform_double(state), v = curand_uniform_double(state);
  double r = sqrt(-2.0 * log(u));
  double th = 2.0 * CURAND_PI_DOUBLE * v;
  return make_double2(r * cos(th), r * sin(th));
}
__SIMU_DEV double curand_normal_double(curandState *state) {
  if (state->boxmuller_flag_double) {
    state->boxmuller_flag_double = 0;
    return state->boxmuller_extra_double;
  }
  double2 p = curand_normal2_double(state);
  state->boxmuller_flag_double = 1;
  state->boxmuller_extra_double = p.y;
  return p.x;
}
__SIMU_DEV float curand_log_normal(curandState *state, float mean, float stddev) {
  return expf(mean + stddev * curand_normal(state));
}
__SIMU_DEV double curand_log_normal_double(curandState *state, double mean, double stddev) {
  return exp(mean + stddev * curand_normal_double(state));
}
__SIMU_DEV uint4 curand4(curandState *state) {
  unsigned int a = curand(state), b = curand(state), c = curand(state), d = curand(state);
  return make_uint4(a, b, c, d);
}
__SIMU_DEV float4 curand_uniform4(curandState *state) {
  float a = curand_uniform(state), b = curand_uniform(state), c = curand_uniform(state), d = curand_uniform(state);
  return make_float4(a, b, c, d);
}
__SIMU_DEV float4 curand_normal4(curandState *state) {
  float2 a = curand_normal2(state), b = curand_normal2(state);
  return make_float4(a.x, a.y, b.x, b.y);
}
__SIMU_DEV void skipahead(unsigned long long n, curandState *state) {
  for (unsigned long long i = 0; i < n; ++i) curand(state);
}

/* ---- quasi-random: 32-bit Sobol (plain and scrambled), Gray-code order ---------------------
 * The caller passes the direction vectors (host: curandGetDirectionVectors32); the n-th point is
 * the XOR of the direction vectors selected by the bits of gray(n) = n ^ (n >> 1), and each
 * step XORs in the vector of the lowest zero bit of the current index. */
struct curandStateSobol32 {
  unsigned int i, x, c;
  unsigned int direction_vectors[32];
};
typedef struct curandStateSobol32 curandStateSobol32_t;
struct curandStateScrambledSobol32 {
  unsigned int i, x, c;
  unsigned int direction_vectors[32];
};
typedef struct curandStateScrambledSobol32 curandStateScrambledSobol32_t;

__SIMU_DEV unsigned int __simu_sobol32_point(const unsigned int *v, unsigned int n) {
  unsigned int g = n ^ (n >> 1), x = 0;
  for (int b = 0; b < 32; ++b)
    if (g & (1u << b)) x ^= v[b];
  return x;
}
__SIMU_DEV void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int offset,
                            curandStateSobol32_t *state) {
  for (int b = 0; b < 32; ++b) state->direction_vectors[b] = direction_vectors[b];
  state->i = offset;
  state->c = 0;
  state->x = __simu_sobol32_point(state->direction_vectors, offset);
}
__SIMU_DEV void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int scramble_c,
                            unsigned int offset, curandStateScrambledSobol32_t *state) {
  for (int b = 0; b < 32; ++b) state->direction_vectors[b] = direction_vectors[b];
  state->i = offset;
  state->c = scramble_c;
  state->x = scramble_c ^ __simu_sobol32_point(state->direction_vectors, offset);
}
#define __SIMU_SOBOL32_NEXT(TYPE)                                                               \
  __SIMU_DEV unsigned int curand(TYPE *state) {                                                 \
    unsigned int r = state->x;                                                                  \
    state->x ^= state->direction_vectors[(__ffs((int)~state->i) - 1) & 31];                    \
    state->i += 1;                                                                              \
    return r;                                                                                   \
  }                                                                                             \
  __SIMU_DEV float curand_uniform(TYPE *state) {                                                \
    return curand(state) * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f);                      \
  }                                                                                             \
  __SIMU_DEV double curand_uniform_double(TYPE *state) {                                        \
    return curand(state) * CURAND_2POW32_INV_DOUBLE + (CURAND_2POW32_INV_DOUBLE / 2.0);         \
  }                                                                                             \
  __SIMU_DEV float curand_normal(TYPE *state) { return normcdfinvf(curand_uniform(state)); }    \
  __SIMU_DEV double curand_normal_double(TYPE *state) {                                         \
    return normcdfinv(curand_uniform_double(state));                                            \
  }                                                                                             \
  __SIMU_DEV void skipahead(unsigned int n, TYPE *state) {                                      \
    state->i += n;                                                                              \
    state->x = state->c ^ __simu_sobol32_point(state->direction_vectors, state->i);             \
  }
__SIMU_SOBOL32_NEXT(curandStateSobol32_t)
__SIMU_SOBOL32_NEXT(curandStateScrambledSobol32_t)
#undef __SIMU_SOBOL32_NEXT

#endif /* __SIMU_CURAND_KERNEL_H */
