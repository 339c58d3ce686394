/*
 * simu_opencl.h - OpenCL C base header for simu.
 *
 * Written for simu from the OpenCL C 1.2 / 2.0 specifications.  clang is run with
 * `-cl-no-stdinc -Xclang -fdeclare-opencl-builtins`, so clang itself declares the built-in
 * *functions* (get_global_id, barrier, math, vload/vstore, atomics, convert_*, ...) on first
 * use, with Itanium-mangled names such as _Z13get_global_idj.  What clang needs from a header
 * is the rest: scalar and vector type names, the typedefs and enums those declarations refer
 * to (cl_mem_fence_flags, memory_order, memory_scope, ...), the macros of the specification
 * (limits, M_* constants, as_<type>, ...), and the few built-in functions its table does not
 * cover (printf, ...), declared in simu_opencl_extra.h.
 *
 * The interpreter implements every built-in by its mangled name; nothing here has a body.
 */
#ifndef SIMU_OPENCL_H
#define SIMU_OPENCL_H

#ifndef __OPENCL_C_VERSION__
#error "simu_opencl.h is an OpenCL C header (compile with -x cl)"
#endif

#ifndef __OPENCL_VERSION__
#define __OPENCL_VERSION__ __OPENCL_C_VERSION__
#endif

/* --------------------------------------------------------------------------------------
 * Extensions.  clang predefines a macro for each extension the spir64 target supports;
 * enable each of them so that double math, half overloads, atom_* and 64-bit atomics are
 * declared without the kernel asking for them.
 * ------------------------------------------------------------------------------------ */
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif
#ifdef cl_khr_global_int32_base_atomics
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
#endif
#ifdef cl_khr_global_int32_extended_atomics
#pragma OPENCL EXTENSION cl_khr_global_int32_extended_atomics : enable
#endif
#ifdef cl_khr_local_int32_base_atomics
#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable
#endif
#ifdef cl_khr_local_int32_extended_atomics
#pragma OPENCL EXTENSION cl_khr_local_int32_extended_atomics : enable
#endif
#ifdef cl_khr_int64_base_atomics
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif
#ifdef cl_khr_int64_extended_atomics
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#endif
#ifdef cl_khr_byte_addressable_store
#pragma OPENCL EXTENSION cl_khr_byte_addressable_store : enable
#endif
#ifdef cl_khr_3d_image_writes
#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable
#endif
#ifdef cl_khr_depth_images
#pragma OPENCL EXTENSION cl_khr_depth_images : enable
#endif
#ifdef cl_khr_subgroups
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

/* Built-ins that take pointers get one overload per named address space (__global, __local,
 * __private, and __constant for loads).  At CL1.x these are the only overloads; at CL2.0 they
 * sit beside the __generic ones and win overload resolution for named pointers, which keeps
 * the address space visible in the mangled name (PU3AS1 / PU3AS3 / P / PU3AS2). */
#ifndef __opencl_c_named_address_space_builtins
#define __opencl_c_named_address_space_builtins 1
#endif

/* Sub-group built-ins (get_sub_group_id, sub_group_barrier, sub_group_reduce_add, ...):
 * clang offers them with cl_khr_subgroups, which it advertises from CL2.0 on.  They are made
 * available at every version (the interpreter runs them on the lanes of a warp) without
 * defining cl_khr_subgroups itself, so `#ifdef cl_khr_subgroups` code paths are unchanged.
 * A kernel that defines its own function of the same name still gets its own: clang only
 * consults its table for names that ordinary lookup does not find. */
#ifndef __opencl_subgroup_builtins
#define __opencl_subgroup_builtins 1
#endif

/* Vendor extensions that clang advertises for spir64 but whose built-ins neither clang's
 * table nor this header declares (intel_sub_group_shuffle, amd_bitalign, ...).  Undefining
 * the macros makes `#ifdef cl_intel_subgroups`-style code take its portable path instead of
 * failing on undeclared functions. */
#undef cl_intel_subgroups
#undef cl_intel_subgroups_char
#undef cl_intel_subgroups_short
#undef cl_intel_subgroups_long
#undef cl_intel_subgroup_local_block_io
#undef cl_intel_subgroup_buffer_prefetch
#undef cl_intel_required_subgroup_size
#undef cl_intel_device_side_avc_motion_estimation
#undef cl_intel_bfloat16_conversions
#undef cl_amd_media_ops
#undef cl_amd_media_ops2

/* --------------------------------------------------------------------------------------
 * Scalar types (OpenCL C 1.2 s6.1.1).  bool, char, short, int, long, float, double and half
 * are keywords; the unsigned short names and the size types are typedefs.
 * ------------------------------------------------------------------------------------ */
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef __UINTPTR_TYPE__ uintptr_t;

#ifndef NULL
#define NULL ((void *)0)
#endif

/* --------------------------------------------------------------------------------------
 * Vector types (s6.1.2): <type>N for N = 2, 3, 4, 8, 16.
 * ------------------------------------------------------------------------------------ */
#define __SIMU_VECTOR_TYPES(T)                                   \
  typedef T T##2 __attribute__((ext_vector_type(2)));            \
  typedef T T##3 __attribute__((ext_vector_type(3)));            \
  typedef T T##4 __attribute__((ext_vector_type(4)));            \
  typedef T T##8 __attribute__((ext_vector_type(8)));            \
  typedef T T##16 __attribute__((ext_vector_type(16)));

__SIMU_VECTOR_TYPES(char)
__SIMU_VECTOR_TYPES(uchar)
__SIMU_VECTOR_TYPES(short)
__SIMU_VECTOR_TYPES(ushort)
__SIMU_VECTOR_TYPES(int)
__SIMU_VECTOR_TYPES(uint)
__SIMU_VECTOR_TYPES(long)
__SIMU_VECTOR_TYPES(ulong)
__SIMU_VECTOR_TYPES(float)
__SIMU_VECTOR_TYPES(double)
__SIMU_VECTOR_TYPES(half)

#undef __SIMU_VECTOR_TYPES

/* --------------------------------------------------------------------------------------
 * Synchronisation (s6.12.8, s6.12.9).
 * ------------------------------------------------------------------------------------ */
typedef uint cl_mem_fence_flags;

#define CLK_LOCAL_MEM_FENCE 0x01
#define CLK_GLOBAL_MEM_FENCE 0x02
#define CLK_IMAGE_MEM_FENCE 0x04

/* --------------------------------------------------------------------------------------
 * Integer limits (s6.12.3).
 * ------------------------------------------------------------------------------------ */
#define CHAR_BIT 8
#define SCHAR_MAX 127
#define SCHAR_MIN (-127 - 1)
#define CHAR_MAX SCHAR_MAX
#define CHAR_MIN SCHAR_MIN
#define UCHAR_MAX 255
#define SHRT_MAX 32767
#define SHRT_MIN (-32767 - 1)
#define USHRT_MAX 65535
#define INT_MAX 2147483647
#define INT_MIN (-2147483647 - 1)
#define UINT_MAX 0xffffffffU
#define LONG_MAX 0x7fffffffffffffffL
#define LONG_MIN (-0x7fffffffffffffffL - 1)
#define ULONG_MAX 0xffffffffffffffffUL

/* --------------------------------------------------------------------------------------
 * Floating-point limits and constants (s6.12.2).
 * ------------------------------------------------------------------------------------ */
#define FLT_DIG 6
#define FLT_MANT_DIG 24
#define FLT_MAX_10_EXP 38
#define FLT_MAX_EXP 128
#define FLT_MIN_10_EXP (-37)
#define FLT_MIN_EXP (-125)
#define FLT_RADIX 2
#define FLT_MAX 0x1.fffffep127f
#define FLT_MIN 0x1.0p-126f
#define FLT_EPSILON 0x1.0p-23f

#define DBL_DIG 15
#define DBL_MANT_DIG 53
#define DBL_MAX_10_EXP 308
#define DBL_MAX_EXP 1024
#define DBL_MIN_10_EXP (-307)
#define DBL_MIN_EXP (-1021)
#define DBL_MAX 0x1.fffffffffffffp1023
#define DBL_MIN 0x1.0p-1022
#define DBL_EPSILON 0x1.0p-52

#define HALF_DIG 3
#define HALF_MANT_DIG 11
#define HALF_MAX_10_EXP 4
#define HALF_MAX_EXP 16
#define HALF_MIN_10_EXP (-4)
#define HALF_MIN_EXP (-13)
#define HALF_RADIX 2
#define HALF_MAX ((half)0x1.ffcp15f)
#define HALF_MIN ((half)0x1.0p-14f)
#define HALF_EPSILON ((half)0x1.0p-10f)

#define MAXFLOAT FLT_MAX
#define HUGE_VALF __builtin_huge_valf()
#define HUGE_VAL __builtin_huge_val()
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")

#define FP_ILOGB0 INT_MIN
#define FP_ILOGBNAN INT_MAX

/* float constants */
#define M_E_F 2.71828182845904523536f
#define M_LOG2E_F 1.44269504088896340736f
#define M_LOG10E_F 0.43429448190325182765f
#define M_LN2_F 0.69314718055994530942f
#define M_LN10_F 2.30258509299404568402f
#define M_PI_F 3.14159265358979323846f
#define M_PI_2_F 1.57079632679489661923f
#define M_PI_4_F 0.78539816339744830962f
#define M_1_PI_F 0.31830988618379067154f
#define M_2_PI_F 0.63661977236758134308f
#define M_2_SQRTPI_F 1.12837916709551257390f
#define M_SQRT2_F 1.41421356237309504880f
#define M_SQRT1_2_F 0.70710678118654752440f

/* double constants */
#define M_E 2.71828182845904523536
#define M_LOG2E 1.44269504088896340736
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440

/* half constants */
#define M_E_H ((half)M_E_F)
#define M_LOG2E_H ((half)M_LOG2E_F)
#define M_LOG10E_H ((half)M_LOG10E_F)
#define M_LN2_H ((half)M_LN2_F)
#define M_LN10_H ((half)M_LN10_F)
#define M_PI_H ((half)M_PI_F)
#define M_PI_2_H ((half)M_PI_2_F)
#define M_PI_4_H ((half)M_PI_4_F)
#define M_1_PI_H ((half)M_1_PI_F)
#define M_2_PI_H ((half)M_2_PI_F)
#define M_2_SQRTPI_H ((half)M_2_SQRTPI_F)
#define M_SQRT2_H ((half)M_SQRT2_F)
#define M_SQRT1_2_H ((half)M_SQRT1_2_F)

/* --------------------------------------------------------------------------------------
 * Images and samplers (s6.12.14): sampler bit fields and the channel order / data type
 * values that get_image_channel_order / get_image_channel_data_type return.
 * ------------------------------------------------------------------------------------ */
#define CLK_NORMALIZED_COORDS_FALSE 0x00
#define CLK_NORMALIZED_COORDS_TRUE 0x01
#define CLK_ADDRESS_NONE 0x00
#define CLK_ADDRESS_CLAMP_TO_EDGE 0x02
#define CLK_ADDRESS_CLAMP 0x04
#define CLK_ADDRESS_REPEAT 0x06
#define CLK_ADDRESS_MIRRORED_REPEAT 0x08
#define CLK_FILTER_NEAREST 0x10
#define CLK_FILTER_LINEAR 0x20

#define CLK_SNORM_INT8 0x10D0
#define CLK_SNORM_INT16 0x10D1
#define CLK_UNORM_INT8 0x10D2
#define CLK_UNORM_INT16 0x10D3
#define CLK_UNORM_SHORT_565 0x10D4
#define CLK_UNORM_SHORT_555 0x10D5
#define CLK_UNORM_INT_101010 0x10D6
#define CLK_SIGNED_INT8 0x10D7
#define CLK_SIGNED_INT16 0x10D8
#define CLK_SIGNED_INT32 0x10D9
#define CLK_UNSIGNED_INT8 0x10DA
#define CLK_UNSIGNED_INT16 0x10DB
#define CLK_UNSIGNED_INT32 0x10DC
#define CLK_HALF_FLOAT 0x10DD
#define CLK_FLOAT 0x10DE
#define CLK_UNORM_INT24 0x10DF

#define CLK_R 0x10B0
#define CLK_A 0x10B1
#define CLK_RG 0x10B2
#define CLK_RA 0x10B3
#define CLK_RGB 0x10B4
#define CLK_RGBA 0x10B5
#define CLK_BGRA 0x10B6
#define CLK_ARGB 0x10B7
#define CLK_INTENSITY 0x10B8
#define CLK_LUMINANCE 0x10B9
#define CLK_Rx 0x10BA
#define CLK_RGx 0x10BB
#define CLK_RGBx 0x10BC
#define CLK_DEPTH 0x10BD
#define CLK_DEPTH_STENCIL 0x10BE
#define CLK_sRGB 0x10BF
#define CLK_sRGBx 0x10C0
#define CLK_sRGBA 0x10C1
#define CLK_sBGRA 0x10C2
#define CLK_ABGR 0x10C3

/* --------------------------------------------------------------------------------------
 * OpenCL C 2.0: memory model (s6.13.11), device-side enqueue types (s6.13.17).
 * ------------------------------------------------------------------------------------ */
#if __OPENCL_C_VERSION__ >= 200

typedef enum memory_order {
  memory_order_relaxed = __ATOMIC_RELAXED,
  memory_order_acquire = __ATOMIC_ACQUIRE,
  memory_order_release = __ATOMIC_RELEASE,
  memory_order_acq_rel = __ATOMIC_ACQ_REL,
  memory_order_seq_cst = __ATOMIC_SEQ_CST
} memory_order;

typedef enum memory_scope {
  memory_scope_work_item = __OPENCL_MEMORY_SCOPE_WORK_ITEM,
  memory_scope_work_group = __OPENCL_MEMORY_SCOPE_WORK_GROUP,
  memory_scope_device = __OPENCL_MEMORY_SCOPE_DEVICE,
  memory_scope_all_svm_devices = __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES,
  memory_scope_all_devices = __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES,
#if defined(cl_khr_subgroups) || defined(__opencl_c_subgroups)
  memory_scope_sub_group = __OPENCL_MEMORY_SCOPE_SUB_GROUP
#endif
} memory_scope;

typedef atomic_int atomic_flag;
#define ATOMIC_VAR_INIT(x) (x)
#define ATOMIC_FLAG_INIT 0

typedef uint clk_profiling_info;
#define CLK_PROFILING_COMMAND_EXEC_TIME 0x1

/* Device-side enqueue (s6.13.17) is outside what simu models; these definitions only let such
 * kernels compile.  The CLK_* status values below are simu's own (the specification fixes
 * only CLK_SUCCESS == 0). */
typedef int kernel_enqueue_flags_t;
#define CLK_ENQUEUE_FLAGS_NO_WAIT 0
#define CLK_ENQUEUE_FLAGS_WAIT_KERNEL 1
#define CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP 2

typedef struct {
  uint workDimension;
  size_t globalWorkOffset[3];
  size_t globalWorkSize[3];
  size_t localWorkSize[3];
} ndrange_t;

#define CLK_SUCCESS 0
#define CLK_ENQUEUE_FAILURE (-101)
#define CLK_INVALID_QUEUE (-102)
#define CLK_INVALID_NDRANGE (-160)
#define CLK_INVALID_EVENT_WAIT_LIST (-57)
#define CLK_DEVICE_QUEUE_FULL (-161)
#define CLK_INVALID_ARG_SIZE (-51)
#define CLK_EVENT_ALLOCATION_FAILURE (-100)
#define CLK_OUT_OF_RESOURCES (-5)
#define CLK_NULL_QUEUE 0

#endif /* __OPENCL_C_VERSION__ >= 200 */

/* --------------------------------------------------------------------------------------
 * Reinterpreting types (s6.2.4.2): as_<type>(x) is clang's __builtin_astype, which lowers
 * to a bitcast (or a shufflevector for 3-element vectors); no call is emitted.
 * ------------------------------------------------------------------------------------ */
#define as_char(x) __builtin_astype((x), char)
#define as_char2(x) __builtin_astype((x), char2)
#define as_char3(x) __builtin_astype((x), char3)
#define as_char4(x) __builtin_astype((x), char4)
#define as_char8(x) __builtin_astype((x), char8)
#define as_char16(x) __builtin_astype((x), char16)

#define as_uchar(x) __builtin_astype((x), uchar)
#define as_uchar2(x) __builtin_astype((x), uchar2)
#define as_uchar3(x) __builtin_astype((x), uchar3)
#define as_uchar4(x) __builtin_astype((x), uchar4)
#define as_uchar8(x) __builtin_astype((x), uchar8)
#define as_uchar16(x) __builtin_astype((x), uchar16)

#define as_short(x) __builtin_astype((x), short)
#define as_short2(x) __builtin_astype((x), short2)
#define as_short3(x) __builtin_astype((x), short3)
#define as_short4(x) __builtin_astype((x), short4)
#define as_short8(x) __builtin_astype((x), short8)
#define as_short16(x) __builtin_astype((x), short16)

#define as_ushort(x) __builtin_astype((x), ushort)
#define as_ushort2(x) __builtin_astype((x), ushort2)
#define as_ushort3(x) __builtin_astype((x), ushort3)
#define as_ushort4(x) __builtin_astype((x), ushort4)
#define as_ushort8(x) __builtin_astype((x), ushort8)
#define as_ushort16(x) __builtin_astype((x), ushort16)

#define as_int(x) __builtin_astype((x), int)
#define as_int2(x) __builtin_astype((x), int2)
#define as_int3(x) __builtin_astype((x), int3)
#define as_int4(x) __builtin_astype((x), int4)
#define as_int8(x) __builtin_astype((x), int8)
#define as_int16(x) __builtin_astype((x), int16)

#define as_uint(x) __builtin_astype((x), uint)
#define as_uint2(x) __builtin_astype((x), uint2)
#define as_uint3(x) __builtin_astype((x), uint3)
#define as_uint4(x) __builtin_astype((x), uint4)
#define as_uint8(x) __builtin_astype((x), uint8)
#define as_uint16(x) __builtin_astype((x), uint16)

#define as_long(x) __builtin_astype((x), long)
#define as_long2(x) __builtin_astype((x), long2)
#define as_long3(x) __builtin_astype((x), long3)
#define as_long4(x) __builtin_astype((x), long4)
#define as_long8(x) __builtin_astype((x), long8)
#define as_long16(x) __builtin_astype((x), long16)

#define as_ulong(x) __builtin_astype((x), ulong)
#define as_ulong2(x) __builtin_astype((x), ulong2)
#define as_ulong3(x) __builtin_astype((x), ulong3)
#define as_ulong4(x) __builtin_astype((x), ulong4)
#define as_ulong8(x) __builtin_astype((x), ulong8)
#define as_ulong16(x) __builtin_astype((x), ulong16)

#define as_float(x) __builtin_astype((x), float)
#define as_float2(x) __builtin_astype((x), float2)
#define as_float3(x) __builtin_astype((x), float3)
#define as_float4(x) __builtin_astype((x), float4)
#define as_float8(x) __builtin_astype((x), float8)
#define as_float16(x) __builtin_astype((x), float16)

#define as_double(x) __builtin_astype((x), double)
#define as_double2(x) __builtin_astype((x), double2)
#define as_double3(x) __builtin_astype((x), double3)
#define as_double4(x) __builtin_astype((x), double4)
#define as_double8(x) __builtin_astype((x), double8)
#define as_double16(x) __builtin_astype((x), double16)

#define as_half(x) __builtin_astype((x), half)
#define as_half2(x) __builtin_astype((x), half2)
#define as_half3(x) __builtin_astype((x), half3)
#define as_half4(x) __builtin_astype((x), half4)
#define as_half8(x) __builtin_astype((x), half8)
#define as_half16(x) __builtin_astype((x), half16)
/* Hint macros (s6.7.2). */
#define __kernel_exec(X, typen) __kernel __attribute__((work_group_size_hint(X, 1, 1))) \
  __attribute__((vec_type_hint(typen)))
#define kernel_exec(X, typen) __kernel_exec(X, typen)

/* Built-ins missing from clang's -fdeclare-opencl-builtins table. */
#include "simu_opencl_extra.h"
/* GPUVerify's annotations (__requires, __invariant, ...). */
#include "../cuda/__simu_gpuverify.h"

#endif /* SIMU_OPENCL_H */
