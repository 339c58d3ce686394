// Device helpers, templates, __constant__ memory, structs and vector types, integer and
// floating-point arithmetic, grid-stride loops and 3-D indexing.

// ---- __device__ helpers with loops and early returns ---------------------------------------
__device__ int collatz_len(unsigned x, int cap) {
  int steps = 0;
  while (x != 1u) {
    if (steps >= cap) return -1;
    x = (x & 1u) ? 3u * x + 1u : x / 2u;
    ++steps;
  }
  return steps;
}

__device__ bool is_prime(int n) {
  if (n < 2) return false;
  if (n % 2 == 0) return n == 2;
  for (int d = 3; d * d <= n; d += 2)
    if (n % d == 0) return false;
  return true;
}

__device__ int digit_sum(int n) {
  int s = 0;
  if (n < 0) n = -n;
  do {
    s += n % 10;
    n /= 10;
  } while (n != 0);
  return s;
}

__global__ void helpers(const int *in, int *clen, int *prime, int *dsum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  clen[i] = collatz_len(v > 0 ? (unsigned)v : 1u, 60);
  prime[i] = is_prime(v);
  dsum[i] = digit_sum(v);
}

// ---- templates ------------------------------------------------------------------------------
template <typename T>
__device__ T clamp_t(T v, T lo, T hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

template <typename T, int UNROLL>
__global__ void axpy_clamp(T a, const T *x, T *y, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
#pragma unroll
  for (int u = 0; u < UNROLL; ++u)
    if (i + u < n) y[i + u] = clamp_t(a * x[i + u] + y[i + u], (T)-50, (T)50);
}
template __global__ void axpy_clamp<int, 2>(int, const int *, int *, int);
template __global__ void axpy_clamp<float, 1>(float, const float *, float *, int);

template <typename T>
__global__ void scale_t(T *data, T factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * factor;
}

// A host function launching the double instantiation (instantiated by the launch).
void launch_scale(double *d, int n) { scale_t<double><<<(n + 63) / 64, 64>>>(d, 2.5, n); }

// ---- __constant__ memory ------------------------------------------------------------------
__constant__ float c_weights[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
__constant__ int c_offsets[5] = {-2, -1, 0, 1, 2};
__constant__ int c_scale_bias[2] = {3, -7};
__constant__ short c_lut[4] = {10, 20, 30, 40};
__global__ void stencil_const(const float *in, float *out, int *iout, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float s = 0.0f;
    for (int k = 0; k < 5; ++k) {
      int j = i + c_offsets[k];
      j = j < 0 ? 0 : (j >= n ? n - 1 : j);
      s += c_weights[k] * in[j];
    }
    out[i] = s;
    iout[i] = (int)in[i] * c_scale_bias[0] + c_scale_bias[1] + c_lut[i & 3];
  }
}

// ---- integer exactness --------------------------------------------------------------------
__global__ void int_ops(const int *a, const int *b, const unsigned *ua, const unsigned *ub,
                        const long long *la, const long long *lb, int *add_wrap, int *mul_wrap,
                        unsigned *udiv, unsigned *umod, int *sdiv, int *smod, int *shl, int *ashr,
                        unsigned *lshr, long long *lmul, unsigned long long *ulmul, long long *ldiv,
                        int *narrow, int *bitfns, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i];
  unsigned ux = ua[i], uy = ub[i];
  add_wrap[i] = (int)((unsigned)x + 2147483647u);
  mul_wrap[i] = (int)((unsigned)x * (unsigned)y);
  udiv[i] = ux / uy;
  umod[i] = ux % uy;
  sdiv[i] = x / y;
  smod[i] = x % y;
  shl[i] = (int)((unsigned)x << (i % 32));
  ashr[i] = x >> (i % 32);
  lshr[i] = ux >> (i % 32);
  lmul[i] = (long long)((unsigned long long)la[i] * (unsigned long long)lb[i]);
  ulmul[i] = (unsigned long long)ux * (unsigned long long)uy;
  ldiv[i] = la[i] / (lb[i] | 1);
  narrow[4 * i + 0] = (signed char)x;
  narrow[4 * i + 1] = (unsigned short)x;
  narrow[4 * i + 2] = (short)(ux >> 7);
  narrow[4 * i + 3] = (int)(unsigned char)(x ^ y);
  bitfns[4 * i + 0] = __popc(ux);
  bitfns[4 * i + 1] = __clz(x);
  bitfns[4 * i + 2] = __ffs(x);
  bitfns[4 * i + 3] = (int)__brev(ux);
}

// ---- float math ---------------------------------------------------------------------------
__global__ void float_math(const float *x, const float *y, const float *z, float *o_sqrt,
                           float *o_exp, float *o_sin, float *o_fmin, float *o_fma, float *o_fdiv,
                           float *o_log, float *o_pow, float *o_rsqrt, float *o_atan2, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float a = x[i], b = y[i], c = z[i];
    o_sqrt[i] = sqrtf(fabsf(a));
    o_exp[i] = expf(a * 0.25f);
    o_sin[i] = sinf(a);
    o_fmin[i] = fminf(a, b);
    o_fma[i] = fmaf(a, b, c);
    o_fdiv[i] = __fdividef(a, b);
    o_log[i] = logf(fabsf(b) + 1.0f);
    o_pow[i] = powf(fabsf(a), 0.75f);
    o_rsqrt[i] = rsqrtf(fabsf(b) + 0.5f);
    o_atan2[i] = atan2f(a, b);
  }
}

// fma in double precision (one rounding) and the 64-bit high multiply.
__global__ void fma_double(const double *a, const double *b, const double *c, double *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = fma(a[i], b[i], c[i]);
}

__global__ void mul64hi(const unsigned long long *x, const unsigned long long *y,
                        unsigned long long *hi, long long *shi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    hi[i] = __umul64hi(x[i], y[i]);
    shi[i] = __mul64hi((long long)x[i], (long long)y[i]);
  }
}

// ---- 3-D grid / block indexing with a grid-stride loop in z ----------------------------------
__global__ void coords3d(int *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  for (int z = blockIdx.z * blockDim.z + threadIdx.z; z < nz; z += blockDim.z * gridDim.z)
    if (x < nx && y < ny) out[(z * ny + y) * nx + x] = x * 10000 + y * 100 + z;
}
