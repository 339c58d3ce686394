/*
 * simu_opencl_extra.h - OpenCL C built-in functions that clang's -fdeclare-opencl-builtins
 * table does not declare.  Included by simu_opencl.h; written for simu from the OpenCL C
 * specification.  Declarations only: the interpreter implements them by their mangled names.
 */
#ifndef SIMU_OPENCL_EXTRA_H
#define SIMU_OPENCL_EXTRA_H

#define __SIMU_OVL __attribute__((overloadable))

/* OpenCL C 1.2 s6.12.13: printf (not mangled: a C function, variadic).  Before CL1.2 it
 * was a vendor extension; clang then accepts the variadic prototype only with its
 * __cl_clang_variadic_functions extension enabled. */
#if __OPENCL_C_VERSION__ < 120 && defined(__cl_clang_variadic_functions)
#pragma OPENCL EXTENSION __cl_clang_variadic_functions : enable
int printf(__constant const char *restrict __format, ...) __attribute__((format(printf, 1, 2)));
#pragma OPENCL EXTENSION __cl_clang_variadic_functions : disable
#else
int printf(__constant const char *restrict __format, ...) __attribute__((format(printf, 1, 2)));
#endif

#if defined(__opencl_c_generic_address_space)
/* The OpenCL 1.x atomic_* functions (s6.12.11) on __generic pointers.  The specification and
 * clang's table have the __global and __local overloads only (the table's __generic ones are
 * for C++ for OpenCL), so a CL2.0 helper function that takes a plain `int *` could not call
 * atomic_add.  simu accepts it: the interpreter resolves the generic pointer at run time.
 *
 * clang consults its table only for names that ordinary lookup does not find, so declaring
 * one overload here hides all of the table's: every overload (__global, __local, __generic)
 * is therefore declared here.  They mangle as PU3AS1V / PU3AS3V / PU3AS4V + i|j|f. */
#define __SIMU_ATOMIC1(AS, T)                                                           \
  T __SIMU_OVL atomic_add(volatile AS T *__p, T __v);                                   \
  T __SIMU_OVL atomic_sub(volatile AS T *__p, T __v);                                   \
  T __SIMU_OVL atomic_xchg(volatile AS T *__p, T __v);                                  \
  T __SIMU_OVL atomic_min(volatile AS T *__p, T __v);                                   \
  T __SIMU_OVL atomic_max(volatile AS T *__p, T __v);                                   \
  T __SIMU_OVL atomic_and(volatile AS T *__p, T __v);                                   \
  T __SIMU_OVL atomic_or(volatile AS T *__p, T __v);                                    \
  T __SIMU_OVL atomic_xor(volatile AS T *__p, T __v);                                   \
  T __SIMU_OVL atomic_inc(volatile AS T *__p);                                          \
  T __SIMU_OVL atomic_dec(volatile AS T *__p);                                          \
  T __SIMU_OVL atomic_cmpxchg(volatile AS T *__p, T __cmp, T __v);
__SIMU_ATOMIC1(__global, int)
__SIMU_ATOMIC1(__global, uint)
__SIMU_ATOMIC1(__local, int)
__SIMU_ATOMIC1(__local, uint)
__SIMU_ATOMIC1(__generic, int)
__SIMU_ATOMIC1(__generic, uint)
#undef __SIMU_ATOMIC1
float __SIMU_OVL atomic_xchg(volatile __global float *__p, float __v);
float __SIMU_OVL atomic_xchg(volatile __local float *__p, float __v);
float __SIMU_OVL atomic_xchg(volatile __generic float *__p, float __v);
#endif

#undef __SIMU_OVL

#endif /* SIMU_OPENCL_EXTRA_H */
