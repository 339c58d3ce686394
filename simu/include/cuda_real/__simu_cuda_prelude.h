/* simu's prelude for a real CUDA toolkit's headers (`--cuda-path DIR`, `cuda-path = "DIR"`).
 *
 * clang compiles CUDA against a toolkit by pre-including its own wrapper header
 * (__clang_cuda_runtime_wrapper.h), which the clang in the ziglang wheel does not ship. This file does
 * that job for simu, in simu's own terms:
 *
 *  1. the toolkit's host_defines.h is read with __CUDACC__ defined (so __global__, __device__, ...
 *     become clang's attributes), then its <cuda_runtime.h>, as clang's wrapper does, *without*
 *     __CUDACC__: the host API, the runtime types (dim3, vector types, cudaError_t, ...) and the
 *     execution-space macros are the toolkit's own; nvcc-only device headers (crt/*.hpp, whose
 *     bodies call nvcc built-ins) stay out;
 *  2. then __CUDACC__, __CUDACC_VER_*__ and CUDA_VERSION (from the toolkit's CUDART_VERSION) for the
 *     user's code and the headers it includes later (Thrust/CUB/libcu++ read them);
 *  3. the device side: the built-in variables threadIdx/blockIdx/blockDim/gridDim/warpSize as NVVM
 *     special-register reads, clang's launch hook cudaConfigureCall, and simu's own device functions
 *     (barriers and atomics: __simu_sync.h; warp shuffles/votes/matches/reductions: __simu_warp.h;
 *     the math library: __simu_cuda_math.h, libdevice __nv_* calls) and device overloads of printf,
 *     malloc, free, __assertfail, __ldg & co., clock64: exactly the built-ins simu's machine models.
 */
#ifndef __SIMU_CUDA_PRELUDE_H
#define __SIMU_CUDA_PRELUDE_H

/* the execution-space macros expand to attributes only under __CUDACC__ (otherwise to nothing) */
#define __CUDACC__ 1
#if __has_include(<crt/host_defines.h>)
#include <crt/host_defines.h>
#else
#include <host_defines.h>
#endif
#undef __CUDACC__
#include <cuda_runtime.h>
#define __CUDACC__ 1
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ (CUDART_VERSION / 1000)
#define __CUDACC_VER_MINOR__ ((CUDART_VERSION % 1000) / 10)
#define __CUDACC_VER_BUILD__ 0
#endif
#ifndef CUDA_VERSION
#define CUDA_VERSION CUDART_VERSION
#endif
#define __SIMU_CUDA__ 1
#define __SIMU_REAL_CUDA_HEADERS__ 1

#ifndef __forceinline__
#define __forceinline__ __inline__ __attribute__((always_inline))
#endif
#define __SIMU_HD static __host__ __device__ __forceinline__
#define __SIMU_DEV static __device__ __forceinline__

/* ---- built-in variables: one special-register read per component ---------------------- */
#define __SIMU_SREG_VAR(TYPE, REG)                                                            \
  struct TYPE {                                                                               \
    static __device__ __forceinline__ unsigned int __get_x() { return __nvvm_read_ptx_sreg_##REG##_x(); } \
    static __device__ __forceinline__ unsigned int __get_y() { return __nvvm_read_ptx_sreg_##REG##_y(); } \
    static __device__ __forceinline__ unsigned int __get_z() { return __nvvm_read_ptx_sreg_##REG##_z(); } \
    __declspec(property(get = __get_x)) unsigned int x;                                       \
    __declspec(property(get = __get_y)) unsigned int y;                                       \
    __declspec(property(get = __get_z)) unsigned int z;                                       \
    __device__ __forceinline__ operator uint3() const { return make_uint3(__get_x(), __get_y(), __get_z()); } \
    __device__ __forceinline__ operator dim3() const { return dim3(__get_x(), __get_y(), __get_z()); } \
                                                                                              \
   private:                                                                                   \
    __device__ TYPE() = delete;                                                               \
    __device__ TYPE(const TYPE &) = delete;                                                   \
    __device__ void operator=(const TYPE &) const = delete;                                   \
    __device__ TYPE *operator&() const = delete;                                              \
  };
__SIMU_SREG_VAR(__simu_threadIdx_t, tid)
__SIMU_SREG_VAR(__simu_blockIdx_t, ctaid)
__SIMU_SREG_VAR(__simu_blockDim_t, ntid)
__SIMU_SREG_VAR(__simu_gridDim_t, nctaid)
#undef __SIMU_SREG_VAR
extern const __device__ __simu_threadIdx_t threadIdx;
extern const __device__ __simu_blockIdx_t blockIdx;
extern const __device__ __simu_blockDim_t blockDim;
extern const __device__ __simu_gridDim_t gridDim;

struct __simu_warpSize_t {
  __device__ __forceinline__ operator int() const { return __nvvm_read_ptx_sreg_warpsize(); }

 private:
  __device__ __simu_warpSize_t() = delete;
  __device__ __simu_warpSize_t(const __simu_warpSize_t &) = delete;
  __device__ void operator=(const __simu_warpSize_t &) const = delete;
  __device__ __simu_warpSize_t *operator&() const = delete;
};
extern const __device__ __simu_warpSize_t warpSize;
__SIMU_DEV unsigned int __simu_laneid() { return __nvvm_read_ptx_sreg_laneid(); }

/* clang lowers kernel<<<g, b, s, t>>>(...) through this declaration (host side only) */
extern "C" int cudaConfigureCall(dim3 __grid, dim3 __block, size_t __shmem = 0, cudaStream_t __stream = 0);

/* simu's device functions: exactly what the machine models */
#include "../cuda/__simu_sync.h"
#include "../cuda/__simu_warp.h"
#include "__simu_cuda_math.h"
/* what NVIDIA's CCCL (Thrust, CUB, libcu++) needs beyond the above, as in shim mode */
#include "../cuda/__simu_cccl.h"
#include "../cuda/__simu_gpuverify.h"

/* C library functions of device code: device overloads next to the system's host declarations */
extern "C" {
__device__ int printf(const char *__restrict __format, ...);
__device__ void *malloc(size_t __size) noexcept;
__device__ void free(void *__ptr) noexcept;
__device__ void __assertfail(const char *__message, const char *__file, unsigned int __line,
                             const char *__function, size_t __char_size);
}
static __device__ __forceinline__ void *memcpy(void *__d, const void *__s, size_t __n) {
  return __builtin_memcpy(__d, __s, __n);
}
static __device__ __forceinline__ void *memset(void *__d, int __c, size_t __n) { return __builtin_memset(__d, __c, __n); }
static __device__ __forceinline__ void *memmove(void *__d, const void *__s, size_t __n) {
  return __builtin_memmove(__d, __s, __n);
}
/* nvcc's named-barrier built-ins that the toolkit's cooperative_groups headers call */
static __device__ __forceinline__ void __barrier_sync(unsigned int __id) { (void)__id; __syncthreads(); }
__SIMU_DEV void __trap() { __builtin_trap(); }
__SIMU_DEV void __brkpt() { __builtin_debugtrap(); }
/* cache-hinted loads and stores: plain accesses on the machine */
#define __SIMU_LOAD(NAME) template <typename T> __SIMU_DEV T NAME(const T *__p) { return *__p; }
#define __SIMU_STORE(NAME) template <typename T> __SIMU_DEV void NAME(T *__p, T __v) { *__p = __v; }
__SIMU_LOAD(__ldg) __SIMU_LOAD(__ldcg) __SIMU_LOAD(__ldca) __SIMU_LOAD(__ldcs) __SIMU_LOAD(__ldlu) __SIMU_LOAD(__ldcv)
__SIMU_STORE(__stwb) __SIMU_STORE(__stcg) __SIMU_STORE(__stcs) __SIMU_STORE(__stwt)
#undef __SIMU_LOAD
#undef __SIMU_STORE
__SIMU_DEV long long clock64() { return (long long)__nvvm_read_ptx_sreg_clock64(); }
__device__ inline __attribute__((always_inline)) long clock() { return (long)__nvvm_read_ptx_sreg_clock(); }
__SIMU_DEV void __nanosleep(unsigned int __ns) { (void)__ns; }

#endif /* __SIMU_CUDA_PRELUDE_H */
