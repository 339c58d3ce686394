/* simu shim <stddef.h>: size_t, ptrdiff_t, NULL, offsetof, max_align_t, nullptr_t.
 * Written for simu (the ziglang clang has no resource headers); built on clang's predefined
 * type macros so it is correct for the nvptx64 device target. */
#ifndef __SIMU_STDDEF_H
#define __SIMU_STDDEF_H

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#ifndef __cplusplus
typedef __WCHAR_TYPE__ wchar_t;
#endif
#if !defined(__wint_t_defined) && defined(__WINT_TYPE__)
#define __wint_t_defined 1
typedef __WINT_TYPE__ wint_t;
#endif

typedef struct {
  long long __simu_ll __attribute__((__aligned__(__alignof__(long long))));
  double __simu_d __attribute__((__aligned__(__alignof__(double))));
} max_align_t;

#ifdef __cplusplus
typedef decltype(nullptr) nullptr_t;
#endif

#undef NULL
#ifdef __cplusplus
#define NULL __null
#else
#define NULL ((void *)0)
#endif

#ifndef offsetof
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif

#endif /* __SIMU_STDDEF_H */

/* glibc's partial-include protocol: everything is defined above, just drop the requests. */
#undef __need_size_t
#undef __need_ptrdiff_t
#undef __need_wchar_t
#undef __need_wint_t
#undef __need_NULL
#undef __need_offsetof
#undef __need_max_align_t
