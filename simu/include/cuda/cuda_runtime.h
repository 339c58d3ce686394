/* simu shim <cuda_runtime.h>: everything a .cu file sees without any #include (clang is run
 * with -include cuda_runtime.h, as nvcc does): qualifiers, vector types and built-in
 * variables (__simu_defs.h), barriers/fences/atomics (__simu_sync.h), warp primitives
 * (__simu_warp.h), the math library (__simu_math.h), device-side printf/malloc/__ldg/...
 * (__simu_device.h), the host runtime API (__simu_host.h) and texture/surface objects
 * (__simu_texture.h). */
#ifndef __SIMU_CUDA_RUNTIME_H
#define __SIMU_CUDA_RUNTIME_H
#define __CUDA_RUNTIME_H__
/* the guard macros of the headers the real cuda_runtime.h pulls in: helper headers test them */
#define __CUDA_RUNTIME_API_H__
#define __VECTOR_TYPES_H__
#define __HOST_DEFINES_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#define __CHANNEL_DESCRIPTOR_H__
#define __CUDA_DEVICE_RUNTIME_API_H__
#ifndef CUDA_VERSION
#define CUDA_VERSION CUDART_VERSION
#endif
#ifndef __CUDA_API_VERSION
#define __CUDA_API_VERSION CUDA_VERSION
#endif

#include "__simu_defs.h"
#include <stdint.h> /* the real runtime headers reach it through the C library */
#include <limits.h> /* INT_MAX, UINT_MAX, ...: .cu files built by nvcc use them with no #include */
/* glibc's <sys/types.h> names, which nvcc's host headers reach through <stdlib.h> (under
 * _GNU_SOURCE, which g++ defines): .cu files use them with no #include.  The same types as glibc's,
 * so a later <sys/types.h> redeclares them harmlessly; skipped where a macro already names them. */
#ifndef uint
typedef unsigned int uint;
#endif
#ifndef ushort
typedef unsigned short ushort;
#endif
#ifndef ulong
typedef unsigned long ulong;
#endif
#include "__simu_sync.h"
#include "__simu_warp.h"
#include "__simu_math.h"
#include "__simu_device.h"
#include "__simu_host.h"
#include "__simu_texture.h"
#include "__simu_gpuverify.h"

#endif /* __SIMU_CUDA_RUNTIME_H */
