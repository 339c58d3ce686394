// Atomic operations whose final results do not depend on the order of the threads.

__global__ void atomic_mix(const int *vals, int *iacc, unsigned *uacc, float *facc,
                           unsigned long long *ullacc, int *tickets, int *mn, int *mx,
                           unsigned *umn, unsigned *umx, unsigned *inc, unsigned *inc_old,
                           unsigned *bits_and, unsigned *bits_or, unsigned *bits_xor, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int v = vals[t];
  tickets[t] = atomicAdd(&iacc[0], 1);
  atomicAdd(&iacc[1], v);
  atomicSub(&iacc[2], v);
  atomicAdd(&uacc[0], (unsigned)v * 2654435761u);  // wraps modulo 2^32
  atomicSub(&uacc[1], 3u);                         // goes below zero and wraps
  atomicAdd(&facc[0], (float)(v & 15) * 0.5f);     // exact in float: order independent
  atomicAdd(&ullacc[0], ((unsigned long long)(unsigned)v) << 29);
  atomicMin(&mn[0], v);
  atomicMax(&mx[0], v);
  atomicMin(&umn[0], (unsigned)v);  // negative values are huge when unsigned
  atomicMax(&umx[0], (unsigned)v);
  inc_old[t] = atomicInc(&inc[0], 6u);  // counts 0..6 then wraps to 0
  atomicAnd(&bits_and[0], ~(1u << (t % 32)));
  atomicOr(&bits_or[t % 4], 1u << (v & 31));
  atomicXor(&bits_xor[0], (unsigned)v);
}

// Lock-free maximum through atomicCAS (float via its bit pattern, and int).
__device__ float atomic_max_float(float *addr, float val) {
  int *ai = (int *)addr;
  int old = *ai;
  while (__int_as_float(old) < val) {
    int assumed = old;
    old = atomicCAS(ai, assumed, __float_as_int(val));
    if (old == assumed) break;
  }
  return __int_as_float(old);
}

__device__ int atomic_max_int_cas(int *addr, int val) {
  int old = *addr, assumed;
  do {
    assumed = old;
    if (assumed >= val) return assumed;
    old = atomicCAS(addr, assumed, val);
  } while (old != assumed);
  return old;
}

__global__ void cas_max(const float *x, float *fmax_out, int *imax_out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomic_max_float(fmax_out, x[i]);
    atomic_max_int_cas(imax_out, (int)(x[i] * 4.0f));
  }
}

// atomicExch: the old values plus the final value are a permutation of the inputs.
__global__ void exch(int *slot, int *olds, float *fslot, float *folds,
                     unsigned long long *uslot, unsigned long long *uolds, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    olds[t] = atomicExch(slot, t + 1);
    folds[t] = atomicExch(fslot, (float)t * 0.25f);
    uolds[t] = atomicExch(uslot, 0x100000000ull * (unsigned long long)t + 7ull);
  }
}

// Histogram in dynamic shared memory, merged into global memory.
__global__ void shared_hist(const unsigned char *data, unsigned *hist, int n, int nbins) {
  extern __shared__ unsigned sh_hist[];
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) sh_hist[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&sh_hist[data[i] % nbins], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) atomicAdd(&hist[b], sh_hist[b]);
}
