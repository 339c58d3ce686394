/* simu's OpenCL host declarations: scalar types (self-contained: no libc header needed).
 * Written for simu so that host code parses without an OpenCL SDK; nothing here runs. */
#ifndef SIMU_CL_PLATFORM_H
#define SIMU_CL_PLATFORM_H

#define CL_API_ENTRY
#define CL_API_CALL
#define CL_CALLBACK
#define CL_API_SUFFIX__VERSION_1_0
#define CL_API_SUFFIX__VERSION_1_1
#define CL_API_SUFFIX__VERSION_1_2
#define CL_API_SUFFIX__VERSION_2_0
#define CL_EXT_PREFIX__VERSION_1_1_DEPRECATED
#define CL_EXT_SUFFIX__VERSION_1_1_DEPRECATED
#define CL_EXT_PREFIX__VERSION_1_2_DEPRECATED
#define CL_EXT_SUFFIX__VERSION_1_2_DEPRECATED
#define CL_API_PREFIX__VERSION_1_1_DEPRECATED
#define CL_API_SUFFIX__VERSION_1_1_DEPRECATED
#define CL_API_PREFIX__VERSION_1_2_DEPRECATED
#define CL_API_SUFFIX__VERSION_1_2_DEPRECATED

typedef signed char cl_char;
typedef unsigned char cl_uchar;
typedef short cl_short;
typedef unsigned short cl_ushort;
typedef int cl_int;
typedef unsigned int cl_uint;
typedef long long cl_long;
typedef unsigned long long cl_ulong;
typedef unsigned short cl_half;
typedef float cl_float;
typedef double cl_double;
typedef cl_uint cl_GLuint;
typedef cl_int cl_GLint;
typedef cl_uint cl_GLenum;

#define CL_CHAR_BIT 8
#define CL_SCHAR_MAX 127
#define CL_SCHAR_MIN (-127 - 1)
#define CL_UCHAR_MAX 255
#define CL_SHRT_MAX 32767
#define CL_SHRT_MIN (-32767 - 1)
#define CL_USHRT_MAX 65535
#define CL_INT_MAX 2147483647
#define CL_INT_MIN (-2147483647 - 1)
#define CL_UINT_MAX 0xffffffffU
#define CL_LONG_MAX ((cl_long)0x7FFFFFFFFFFFFFFFLL)
#define CL_LONG_MIN ((cl_long)-0x7FFFFFFFFFFFFFFFLL - 1LL)
#define CL_ULONG_MAX ((cl_ulong)0xFFFFFFFFFFFFFFFFULL)
#define CL_FLT_MAX __FLT_MAX__
#define CL_FLT_MIN __FLT_MIN__
#define CL_FLT_EPSILON __FLT_EPSILON__
#define CL_DBL_MAX __DBL_MAX__
#define CL_DBL_MIN __DBL_MIN__
#define CL_DBL_EPSILON __DBL_EPSILON__

/* vector types: element arrays with the usual .s[] access and the common named members */
typedef union { cl_char s[2]; struct { cl_char x, y; }; } cl_char2;
typedef union { cl_char s[4]; struct { cl_char x, y, z, w; }; } cl_char4;
typedef union { cl_uchar s[2]; struct { cl_uchar x, y; }; } cl_uchar2;
typedef union { cl_uchar s[4]; struct { cl_uchar x, y, z, w; }; } cl_uchar4;
typedef union { cl_short s[2]; struct { cl_short x, y; }; } cl_short2;
typedef union { cl_short s[4]; struct { cl_short x, y, z, w; }; } cl_short4;
typedef union { cl_ushort s[2]; struct { cl_ushort x, y; }; } cl_ushort2;
typedef union { cl_ushort s[4]; struct { cl_ushort x, y, z, w; }; } cl_ushort4;
typedef union { cl_int s[2]; struct { cl_int x, y; }; } cl_int2;
typedef union { cl_int s[4]; struct { cl_int x, y, z, w; }; } cl_int4;
typedef cl_int4 cl_int3;
typedef union { cl_int s[8]; } cl_int8;
typedef union { cl_int s[16]; } cl_int16;
typedef union { cl_uint s[2]; struct { cl_uint x, y; }; } cl_uint2;
typedef union { cl_uint s[4]; struct { cl_uint x, y, z, w; }; } cl_uint4;
typedef cl_uint4 cl_uint3;
typedef union { cl_uint s[8]; } cl_uint8;
typedef union { cl_uint s[16]; } cl_uint16;
typedef union { cl_long s[2]; struct { cl_long x, y; }; } cl_long2;
typedef union { cl_long s[4]; struct { cl_long x, y, z, w; }; } cl_long4;
typedef union { cl_ulong s[2]; struct { cl_ulong x, y; }; } cl_ulong2;
typedef union { cl_ulong s[4]; struct { cl_ulong x, y, z, w; }; } cl_ulong4;
typedef union { cl_float s[2]; struct { cl_float x, y; }; } cl_float2;
typedef union { cl_float s[4]; struct { cl_float x, y, z, w; }; } cl_float4;
typedef cl_float4 cl_float3;
typedef union { cl_float s[8]; } cl_float8;
typedef union { cl_float s[16]; } cl_float16;
typedef union { cl_double s[2]; struct { cl_double x, y; }; } cl_double2;
typedef union { cl_double s[4]; struct { cl_double x, y, z, w; }; } cl_double4;
typedef cl_double4 cl_double3;

#endif
