/* GPUVerify's annotation language, so that kernels written for GPUVerify compile unchanged (CUDA and OpenCL).
 * A precondition, __requires(e) / __assume(e), restricts the launches the kernel is written for: simu's
 * interpreter rejects a launch in which a thread finds it false (the search then tries others).  Loop and
 * function invariants, postconditions and GPUVerify's predicates over the other thread or access sets only
 * help a verifier prove what simu observes by running the kernel: they compile to constants and are not
 * evaluated.  Included by simu's CUDA runtime shim, its real-toolkit prelude and its OpenCL prelude. */
#ifndef __SIMU_GPUVERIFY_H
#define __SIMU_GPUVERIFY_H

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__CUDA__)
__attribute__((device)) void __simu_requires(int holds);
#else
void __simu_requires(int holds);
#endif
#ifdef __cplusplus
}
#endif

#define __requires(e) __simu_requires((e) ? 1 : 0)
#define __global_requires(e) __simu_requires((e) ? 1 : 0)
#define __assume(e) __simu_requires((e) ? 1 : 0)
#define __global_assume(e) __simu_requires((e) ? 1 : 0)

#define __ensures(...) ((void)0)
#define __global_ensures(...) ((void)0)
#define __reads_from(...) ((void)0)
#define __writes_to(...) ((void)0)
#if defined(__cplusplus)
/* functions, not macros: C and C++ libraries use these names for their own (glibc's host __assert(const char *,
 * const char *, int), libstdc++'s std::__write and its local variables named __ite) */
static __inline__ __attribute__((device)) void __assert(bool) {}
static __inline__ __attribute__((device)) void __global_assert(bool) {}
template <typename T> static __inline__ __attribute__((device)) int __read(T) { return 1; }
template <typename T> static __inline__ __attribute__((device)) int __write(T) { return 1; }
template <typename C, typename A, typename B>
static __inline__ __attribute__((device)) auto __ite(C c, A a, B b) -> decltype(c ? a : b) { return c ? a : b; }
#else
#define __assert(...) ((void)0)
#define __global_assert(...) ((void)0)
#define __read(...) 1
#define __write(...) 1
#define __ite(c, a, b) ((c) ? (a) : (b))
#endif
#define __invariant(...) 1
#define __global_invariant(...) 1
#define __candidate_invariant(...) 1
#define __candidate_global_invariant(...) 1
#define __function_wide_invariant(...) ((void)0)
#define __function_wide_candidate_invariant(...) ((void)0)
#define __non_temporal(...) 1
#define __axiom(...) ((void)0)
#define __array_snapshot(...) ((void)0)

#define __implies(a, b) (!(a) || (b))
#define __is_pow2(x) ((x) != 0 && (((x) & ((x) - 1)) == 0))
#define __mod_pow2(x, y) ((x) & ((y) - 1))
#define __enabled() 1
#define __dominator_enabled() 1
#define __same_group 1
#define __other_int(x) (x)
#define __other_bool(x) (x)
#define __other_ptr_base(x) (x)
#define __uniform_int(...) 1
#define __uniform_bool(...) 1
#define __distinct_int(...) 1
#define __distinct_bool(...) 1
/* not __all: CUDA's warp vote of that name (__simu_warp.h) */
#define __at_most_one(...) 1
#define __no_read(...) 1
#define __no_write(...) 1
#define __read_offset(...) 0
#define __write_offset(...) 0
#define __read_offset_bytes(...) 0
#define __write_offset_bytes(...) 0
#define __ptr_base(...) 0
#define __ptr_offset(...) 0
#define __ptr_offset_bytes(...) 0
#define __read_implies(...) 1
#define __write_implies(...) 1
#define __atomic_implies(...) 1
#define __add_noovfl(...) 1
#define __add_noovfl_unsigned(...) 1
#define __add_noovfl_signed(...) 1
#define __barrier_invariant_1(...) ((void)0)
#define __barrier_invariant_2(...) ((void)0)
#define __barrier_invariant_3(...) ((void)0)
#define __barrier_invariant_4(...) ((void)0)
#define __barrier_invariant_binary_1(...) ((void)0)
#define __barrier_invariant_binary_2(...) ((void)0)

#endif /* __SIMU_GPUVERIFY_H */
