/* simu CUDA shim: device-side library functions that CUDA makes visible without any
 * #include (printf, malloc, free, memcpy, memset, assert's __assertfail), the cache-hinted
 * loads and stores (__ldg, __ldcg, ..., __stcg, ...), __trap, clock, clock64, __nanosleep.
 *
 * Lowering (relied on by the simu interpreter):
 *   printf(fmt, ...)   -> call i32 @vprintf(ptr fmt, ptr args)   (clang's CUDA printf lowering;
 *                         args points to a packed buffer of the promoted arguments)
 *   assert(e) failing  -> call void @__assertfail(ptr msg, ptr file, i32 line, ptr func, i64 1)
 *   malloc / free      -> call @malloc / @free
 *   memcpy / memset / memmove -> llvm.memcpy / llvm.memset / llvm.memmove
 *   __trap()           -> llvm.trap;  __brkpt() -> llvm.debugtrap
 *   __ldg(p) and the other __ld*(p) -> a plain load; __st*(p, v) -> a plain store
 *   clock() / clock64() -> llvm.nvvm.read.ptx.sreg.clock / clock64
 *   __nanosleep(ns)    -> nothing (no instruction)
 */
#ifndef __SIMU_DEVICE_H
#define __SIMU_DEVICE_H

/* ---- C library functions available in device code -------------------------------------- */
extern "C" {
__host__ __device__ int printf(const char *__restrict format, ...);
__host__ __device__ void *malloc(size_t size) noexcept;
__host__ __device__ void free(void *ptr) noexcept;
__host__ __device__ inline __attribute__((always_inline)) void *memcpy(
    void *__restrict dst, const void *__restrict src, size_t n) noexcept {
  return __builtin_memcpy(dst, src, n);
}
__host__ __device__ inline __attribute__((always_inline)) void *memset(void *dst, int c,
                                                                       size_t n) noexcept {
  return __builtin_memset(dst, c, n);
}
__host__ __device__ inline __attribute__((always_inline)) void *memmove(void *dst, const void *src,
                                                                        size_t n) noexcept {
  return __builtin_memmove(dst, src, n);
}
/* target of the assert() macro (see assert.h) */
__host__ __device__ void __assertfail(const char *message, const char *file, unsigned int line,
                                      const char *function, size_t charSize);
}

/* ---- traps ------------------------------------------------------------------------------- */
__SIMU_DEV void __trap() { __builtin_trap(); }
__SIMU_DEV void __brkpt() { __builtin_debugtrap(); }

/* ---- cache-hinted loads and stores: plain memory accesses here ------------------------- */
#define __SIMU_LOAD(NAME)                                                                      \
  template <typename T> __SIMU_DEV T NAME(const T *ptr) { return *ptr; }
#define __SIMU_STORE(NAME)                                                                     \
  template <typename T> __SIMU_DEV void NAME(T *ptr, T value) { *ptr = value; }
__SIMU_LOAD(__ldg)
__SIMU_LOAD(__ldcg)
__SIMU_LOAD(__ldca)
__SIMU_LOAD(__ldcs)
__SIMU_LOAD(__ldlu)
__SIMU_LOAD(__ldcv)
__SIMU_STORE(__stwb)
__SIMU_STORE(__stcg)
__SIMU_STORE(__stcs)
__SIMU_STORE(__stwt)
#undef __SIMU_LOAD
#undef __SIMU_STORE

/* ---- timing ------------------------------------------------------------------------------ */
__SIMU_DEV long long clock64() { return (long long)__nvvm_read_ptx_sreg_clock64(); }
__device__ inline __attribute__((always_inline)) long clock() {
  return (long)__nvvm_read_ptx_sreg_clock();
}
__SIMU_DEV void __nanosleep(unsigned int ns) { (void)ns; }

#endif /* __SIMU_DEVICE_H */
