/* simu CUDA shim: barriers, memory fences and atomic functions.
 *
 * Lowering (relied on by the simu interpreter):
 *   __syncthreads()          -> llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)   (clang builtin)
 *   __syncthreads_count(p)   -> llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 p)
 *   __syncthreads_and(p)     -> llvm.nvvm.barrier.cta.red.and.aligned.all(i32 0, i1 p)
 *   __syncthreads_or(p)      -> llvm.nvvm.barrier.cta.red.or.aligned.all(i32 0, i1 p)
 *   __syncwarp(mask)         -> llvm.nvvm.bar.warp.sync(i32 mask)
 *   __threadfence_block()    -> llvm.nvvm.membar.cta
 *   __threadfence()          -> llvm.nvvm.membar.gl
 *   __threadfence_system()   -> llvm.nvvm.membar.sys
 *   atomic{Add,Sub,Exch,Min,Max,And,Or,Xor}[_block|_system]
 *                            -> atomicrmw add/sub/xchg/min/max/umin/umax/and/or/xor
 *                               (fadd/fmin/fmax for float and double) monotonic
 *                               (atomicExch(float*) exchanges the bits: bitcast + atomicrmw xchg i32)
 *   atomicInc / atomicDec    -> atomicrmw uinc_wrap / udec_wrap monotonic
 *   atomicCAS                -> cmpxchg monotonic monotonic (int, unsigned, unsigned long long,
 *                               unsigned short); clang follows it with a two-way branch that
 *                               merges the old value in a phi (same value on both paths)
 * Types: Add int/unsigned/ull/float/double; Sub int/unsigned; Exch int/unsigned/ull/float;
 * Min/Max int/unsigned/long long/ull/float/double; Inc/Dec unsigned; And/Or/Xor int/unsigned/ull.
 * The scope of the _block/_system variants is passed to clang, but the nvptx target does not
 * keep it in the IR: all variants lower to the same (system-scope) instructions.
 */
#ifndef __SIMU_SYNC_H
#define __SIMU_SYNC_H

/* ---- barriers ---------------------------------------------------------------------------- */
/* __syncthreads() itself is a clang builtin. */
__SIMU_DEV int __syncthreads_count(int predicate) { return __nvvm_bar0_popc(predicate); }
__SIMU_DEV int __syncthreads_and(int predicate) { return __nvvm_bar0_and(predicate); }
__SIMU_DEV int __syncthreads_or(int predicate) { return __nvvm_bar0_or(predicate); }
__SIMU_DEV void __syncwarp(unsigned int mask = 0xffffffffu) { __nvvm_bar_warp_sync(mask); }

/* ---- fences ------------------------------------------------------------------------------ */
__SIMU_DEV void __threadfence_block() { __nvvm_membar_cta(); }
__SIMU_DEV void __threadfence() { __nvvm_membar_gl(); }
__SIMU_DEV void __threadfence_system() { __nvvm_membar_sys(); }

/* ---- atomics ----------------------------------------------------------------------------- */
/* Each macro below defines NAME (device scope), NAME_block and NAME_system for one type. */

/* read-modify-write through one __scoped_atomic_fetch_* builtin */
#define __SIMU_ATOMIC_RMW(NAME, T, BUILTIN)                                                    \
  __SIMU_DEV T NAME(T *address, T val) {                                                      \
    return BUILTIN(address, val, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);                     \
  }                                                                                           \
  __SIMU_DEV T NAME##_block(T *address, T val) {                                              \
    return BUILTIN(address, val, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);                     \
  }                                                                                           \
  __SIMU_DEV T NAME##_system(T *address, T val) {                                             \
    return BUILTIN(address, val, __ATOMIC_RELAXED, __MEMORY_SCOPE_SYSTEM);                     \
  }

/* exchange through the generic (any-type) __scoped_atomic_exchange builtin */
#define __SIMU_ATOMIC_EXCH(T)                                                                  \
  __SIMU_DEV T atomicExch(T *address, T val) {                                                \
    T old;                                                                                    \
    __scoped_atomic_exchange(address, &val, &old, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);    \
    return old;                                                                               \
  }                                                                                           \
  __SIMU_DEV T atomicExch_block(T *address, T val) {                                          \
    T old;                                                                                    \
    __scoped_atomic_exchange(address, &val, &old, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);    \
    return old;                                                                               \
  }                                                                                           \
  __SIMU_DEV T atomicExch_system(T *address, T val) {                                         \
    T old;                                                                                    \
    __scoped_atomic_exchange(address, &val, &old, __ATOMIC_RELAXED, __MEMORY_SCOPE_SYSTEM);    \
    return old;                                                                               \
  }

/* compare-and-swap: returns the old value whether or not the swap happened */
#define __SIMU_ATOMIC_CAS(T)                                                                   \
  __SIMU_DEV T atomicCAS(T *address, T compare, T val) {                                      \
    __scoped_atomic_compare_exchange_n(address, &compare, val, false, __ATOMIC_RELAXED,       \
                                       __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);              \
    return compare;                                                                           \
  }                                                                                           \
  __SIMU_DEV T atomicCAS_block(T *address, T compare, T val) {                                \
    __scoped_atomic_compare_exchange_n(address, &compare, val, false, __ATOMIC_RELAXED,       \
                                       __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);              \
    return compare;                                                                           \
  }                                                                                           \
  __SIMU_DEV T atomicCAS_system(T *address, T compare, T val) {                               \
    __scoped_atomic_compare_exchange_n(address, &compare, val, false, __ATOMIC_RELAXED,       \
                                       __ATOMIC_RELAXED, __MEMORY_SCOPE_SYSTEM);              \
    return compare;                                                                           \
  }

/* atomicAdd */
__SIMU_ATOMIC_RMW(atomicAdd, int, __scoped_atomic_fetch_add)
__SIMU_ATOMIC_RMW(atomicAdd, unsigned int, __scoped_atomic_fetch_add)
__SIMU_ATOMIC_RMW(atomicAdd, unsigned long long, __scoped_atomic_fetch_add)
__SIMU_ATOMIC_RMW(atomicAdd, float, __scoped_atomic_fetch_add)
__SIMU_ATOMIC_RMW(atomicAdd, double, __scoped_atomic_fetch_add)
/* atomicSub */
__SIMU_ATOMIC_RMW(atomicSub, int, __scoped_atomic_fetch_sub)
__SIMU_ATOMIC_RMW(atomicSub, unsigned int, __scoped_atomic_fetch_sub)
/* atomicExch */
__SIMU_ATOMIC_EXCH(int)
__SIMU_ATOMIC_EXCH(unsigned int)
__SIMU_ATOMIC_EXCH(unsigned long long)
__SIMU_ATOMIC_EXCH(float)
/* atomicMin / atomicMax */
__SIMU_ATOMIC_RMW(atomicMin, int, __scoped_atomic_fetch_min)
__SIMU_ATOMIC_RMW(atomicMin, unsigned int, __scoped_atomic_fetch_min)
__SIMU_ATOMIC_RMW(atomicMin, long long, __scoped_atomic_fetch_min)
__SIMU_ATOMIC_RMW(atomicMin, unsigned long long, __scoped_atomic_fetch_min)
__SIMU_ATOMIC_RMW(atomicMax, int, __scoped_atomic_fetch_max)
__SIMU_ATOMIC_RMW(atomicMax, unsigned int, __scoped_atomic_fetch_max)
__SIMU_ATOMIC_RMW(atomicMax, long long, __scoped_atomic_fetch_max)
__SIMU_ATOMIC_RMW(atomicMax, unsigned long long, __scoped_atomic_fetch_max)
/* Floating-point atomicMin/atomicMax are templates (with a defaulted, never-deduced parameter):
 * many projects define their own `__device__ float atomicMax(float *, float)` (a CAS loop), and
 * such a non-template function then wins overload resolution instead of clashing with ours. */
#define __SIMU_ATOMIC_RMW_WEAK(NAME, T, BUILTIN)                                               \
  template <typename __simu_weak = void> __SIMU_DEV T NAME(T *address, T val) {               \
    return BUILTIN(address, val, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);                     \
  }                                                                                           \
  template <typename __simu_weak = void> __SIMU_DEV T NAME##_block(T *address, T val) {       \
    return BUILTIN(address, val, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);                     \
  }                                                                                           \
  template <typename __simu_weak = void> __SIMU_DEV T NAME##_system(T *address, T val) {      \
    return BUILTIN(address, val, __ATOMIC_RELAXED, __MEMORY_SCOPE_SYSTEM);                     \
  }
__SIMU_ATOMIC_RMW_WEAK(atomicMin, float, __scoped_atomic_fetch_min)
__SIMU_ATOMIC_RMW_WEAK(atomicMin, double, __scoped_atomic_fetch_min)
__SIMU_ATOMIC_RMW_WEAK(atomicMax, float, __scoped_atomic_fetch_max)
__SIMU_ATOMIC_RMW_WEAK(atomicMax, double, __scoped_atomic_fetch_max)
#undef __SIMU_ATOMIC_RMW_WEAK
/* atomicInc / atomicDec: ((old >= val) ? 0 : old + 1) and ((old == 0 || old > val) ? val : old - 1) */
__SIMU_ATOMIC_RMW(atomicInc, unsigned int, __scoped_atomic_fetch_uinc)
__SIMU_ATOMIC_RMW(atomicDec, unsigned int, __scoped_atomic_fetch_udec)
/* atomicAnd / atomicOr / atomicXor */
__SIMU_ATOMIC_RMW(atomicAnd, int, __scoped_atomic_fetch_and)
__SIMU_ATOMIC_RMW(atomicAnd, unsigned int, __scoped_atomic_fetch_and)
__SIMU_ATOMIC_RMW(atomicAnd, unsigned long long, __scoped_atomic_fetch_and)
__SIMU_ATOMIC_RMW(atomicOr, int, __scoped_atomic_fetch_or)
__SIMU_ATOMIC_RMW(atomicOr, unsigned int, __scoped_atomic_fetch_or)
__SIMU_ATOMIC_RMW(atomicOr, unsigned long long, __scoped_atomic_fetch_or)
__SIMU_ATOMIC_RMW(atomicXor, int, __scoped_atomic_fetch_xor)
__SIMU_ATOMIC_RMW(atomicXor, unsigned int, __scoped_atomic_fetch_xor)
__SIMU_ATOMIC_RMW(atomicXor, unsigned long long, __scoped_atomic_fetch_xor)
/* atomicCAS */
__SIMU_ATOMIC_CAS(int)
__SIMU_ATOMIC_CAS(unsigned int)
__SIMU_ATOMIC_CAS(unsigned long long)
__SIMU_ATOMIC_CAS(unsigned short int)

#undef __SIMU_ATOMIC_RMW
#undef __SIMU_ATOMIC_EXCH
#undef __SIMU_ATOMIC_CAS

#endif /* __SIMU_SYNC_H */
