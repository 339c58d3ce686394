/* simu CUDA shim: core definitions.
 *
 * Provides: version macros (__CUDACC__, CUDART_VERSION, ...), the execution-space and memory
 * qualifiers (__global__, __device__, __host__, __shared__, __constant__, __managed__,
 * __forceinline__, __launch_bounds__, __align__, ...), the CUDA vector types
 * (char1..4 ... double4, dim3, uint3) with their make_<type>N() functions, and the built-in
 * variables threadIdx, blockIdx, blockDim, gridDim and warpSize.
 *
 * Lowering (relied on by the simu interpreter):
 *   threadIdx.{x,y,z} -> llvm.nvvm.read.ptx.sreg.tid.{x,y,z}
 *   blockIdx.{x,y,z}  -> llvm.nvvm.read.ptx.sreg.ctaid.{x,y,z}
 *   blockDim.{x,y,z}  -> llvm.nvvm.read.ptx.sreg.ntid.{x,y,z}
 *   gridDim.{x,y,z}   -> llvm.nvvm.read.ptx.sreg.nctaid.{x,y,z}
 *   warpSize          -> llvm.nvvm.read.ptx.sreg.warpsize
 *   __simu_laneid()   -> llvm.nvvm.read.ptx.sreg.laneid
 * Each component is a __declspec(property) whose getter reads only that one register.
 */
#ifndef __SIMU_DEFS_H
#define __SIMU_DEFS_H

#include <stddef.h>

/* ---- version and compiler identification ---------------------------------------------- */
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 0
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 12000
#endif
#ifndef __CUDART_API_VERSION
#define __CUDART_API_VERSION CUDART_VERSION
#endif
#define __SIMU_CUDA__ 1

/* ---- qualifiers ------------------------------------------------------------------------ */
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
/* clang honours the managed attribute for HIP only: a managed variable is a device variable
 * that host code may also use (host code is never compiled by simu). */
#define __managed__ __attribute__((device))
#define __grid_constant__ __attribute__((grid_constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
/* __noinline__ is a keyword of clang in CUDA mode (so that __attribute__((__noinline__)) in
 * library headers keeps working); it must not be a macro here. */
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __cudart_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))
#ifndef CUDART_CB
#define CUDART_CB
#endif
#ifndef __CUDA_DEPRECATED
#define __CUDA_DEPRECATED
#endif

/* Every helper of the shims: a host-and-device inline function. */
#define __SIMU_HD static __host__ __device__ __forceinline__
#define __SIMU_DEV static __device__ __forceinline__

/* ---- vector types ------------------------------------------------------------------------ */
/* __SIMU_VECTOR(name, T, a1, a2, a4): name1..name4 with CUDA's alignments (3-vectors keep
 * the element alignment) and make_name1..4(). */
#define __SIMU_VECTOR(N, T, A1, A2, A4)                                                        \
  struct __attribute__((aligned(A1))) N##1 { T x; };                                          \
  struct __attribute__((aligned(A2))) N##2 { T x, y; };                                       \
  struct N##3 { T x, y, z; };                                                                 \
  struct __attribute__((aligned(A4))) N##4 { T x, y, z, w; };                                 \
  typedef struct N##1 N##1;                                                                   \
  typedef struct N##2 N##2;                                                                   \
  typedef struct N##3 N##3;                                                                   \
  typedef struct N##4 N##4;                                                                   \
  __SIMU_HD N##1 make_##N##1(T x) { N##1 v; v.x = x; return v; }                            \
  __SIMU_HD N##2 make_##N##2(T x, T y) { N##2 v; v.x = x; v.y = y; return v; }              \
  __SIMU_HD N##3 make_##N##3(T x, T y, T z) {                                               \
    N##3 v; v.x = x; v.y = y; v.z = z; return v;                                             \
  }                                                                                          \
  __SIMU_HD N##4 make_##N##4(T x, T y, T z, T w) {                                          \
    N##4 v; v.x = x; v.y = y; v.z = z; v.w = w; return v;                                    \
  }

__SIMU_VECTOR(char, signed char, 1, 2, 4)
__SIMU_VECTOR(uchar, unsigned char, 1, 2, 4)
__SIMU_VECTOR(short, short, 2, 4, 8)
__SIMU_VECTOR(ushort, unsigned short, 2, 4, 8)
__SIMU_VECTOR(int, int, 4, 8, 16)
__SIMU_VECTOR(uint, unsigned int, 4, 8, 16)
__SIMU_VECTOR(long, long, sizeof(long), 2 * sizeof(long), 16)
__SIMU_VECTOR(ulong, unsigned long, sizeof(long), 2 * sizeof(long), 16)
__SIMU_VECTOR(longlong, long long, 8, 16, 16)
__SIMU_VECTOR(ulonglong, unsigned long long, 8, 16, 16)
__SIMU_VECTOR(float, float, 4, 8, 16)
__SIMU_VECTOR(double, double, 8, 16, 16)
#undef __SIMU_VECTOR

/* dim3: three unsigned extents, each defaulting to 1; usable on host and device. */
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};
typedef struct dim3 dim3;

/* ---- built-in variables ------------------------------------------------------------------ */
/* __SIMU_SREG_VAR(type, reg): a type whose x/y/z properties read one special register each.
 * The objects are only declared: property getters are static, so no code refers to them. */
#define __SIMU_SREG_VAR(TYPE, REG)                                                             \
  struct TYPE {                                                                               \
    static __device__ __forceinline__ unsigned int __get_x() {                               \
      return __nvvm_read_ptx_sreg_##REG##_x();                                               \
    }                                                                                         \
    static __device__ __forceinline__ unsigned int __get_y() {                               \
      return __nvvm_read_ptx_sreg_##REG##_y();                                               \
    }                                                                                         \
    static __device__ __forceinline__ unsigned int __get_z() {                               \
      return __nvvm_read_ptx_sreg_##REG##_z();                                               \
    }                                                                                         \
    __declspec(property(get = __get_x)) unsigned int x;                                       \
    __declspec(property(get = __get_y)) unsigned int y;                                       \
    __declspec(property(get = __get_z)) unsigned int z;                                       \
    __device__ __forceinline__ operator uint3() const {                                       \
      return uint3{__get_x(), __get_y(), __get_z()};                                          \
    }                                                                                         \
    __device__ __forceinline__ operator dim3() const {                                        \
      return dim3(__get_x(), __get_y(), __get_z());                                          \
    }                                                                                         \
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

/* warpSize behaves as a device int (32); it is an object (not a macro) so that members named
 * warpSize, e.g. cudaDeviceProp::warpSize, stay usable. */
struct __simu_warpSize_t {
  __device__ __forceinline__ operator int() const { return __nvvm_read_ptx_sreg_warpsize(); }

 private:
  __device__ __simu_warpSize_t() = delete;
  __device__ __simu_warpSize_t(const __simu_warpSize_t &) = delete;
  __device__ void operator=(const __simu_warpSize_t &) const = delete;
  __device__ __simu_warpSize_t *operator&() const = delete;
};
extern const __device__ __simu_warpSize_t warpSize;

/* Lane of the calling thread in its warp (0..31). */
__SIMU_DEV unsigned int __simu_laneid() { return __nvvm_read_ptx_sreg_laneid(); }

#endif /* __SIMU_DEFS_H */
