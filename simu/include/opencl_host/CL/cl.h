/* simu's OpenCL host API declarations (OpenCL 1.2, with the common 2.x entry points).
 * Written for simu so that host code parses without an OpenCL SDK (simu reads host code for build
 * options and launches; nothing here runs).  Constants have the values the OpenCL specification gives. */
#ifndef SIMU_CL_H
#define SIMU_CL_H

#include <CL/cl_platform.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef SIMU_SIZE_T_DEFINED
#define SIMU_SIZE_T_DEFINED
typedef __SIZE_TYPE__ simu_cl_size_t;
#endif
#ifndef NULL
#ifdef __cplusplus
#define NULL nullptr
#else
#define NULL ((void *)0)
#endif
#endif

typedef struct _cl_platform_id *cl_platform_id;
typedef struct _cl_device_id *cl_device_id;
typedef struct _cl_context *cl_context;
typedef struct _cl_command_queue *cl_command_queue;
typedef struct _cl_mem *cl_mem;
typedef struct _cl_program *cl_program;
typedef struct _cl_kernel *cl_kernel;
typedef struct _cl_event *cl_event;
typedef struct _cl_sampler *cl_sampler;

typedef cl_uint cl_bool;
typedef cl_ulong cl_bitfield;
typedef cl_bitfield cl_device_type;
typedef cl_uint cl_platform_info;
typedef cl_uint cl_device_info;
typedef cl_bitfield cl_device_fp_config;
typedef cl_uint cl_device_mem_cache_type;
typedef cl_uint cl_device_local_mem_type;
typedef cl_bitfield cl_device_exec_capabilities;
typedef cl_bitfield cl_command_queue_properties;
typedef __INTPTR_TYPE__ cl_device_partition_property;
typedef cl_bitfield cl_device_affinity_domain;
typedef __INTPTR_TYPE__ cl_context_properties;
typedef cl_uint cl_context_info;
typedef cl_bitfield cl_queue_properties;
typedef cl_uint cl_command_queue_info;
typedef cl_uint cl_channel_order;
typedef cl_uint cl_channel_type;
typedef cl_bitfield cl_mem_flags;
typedef cl_bitfield cl_svm_mem_flags;
typedef cl_uint cl_mem_object_type;
typedef cl_uint cl_mem_info;
typedef cl_bitfield cl_mem_migration_flags;
typedef cl_uint cl_image_info;
typedef cl_uint cl_buffer_create_type;
typedef cl_uint cl_addressing_mode;
typedef cl_uint cl_filter_mode;
typedef cl_uint cl_sampler_info;
typedef cl_bitfield cl_map_flags;
typedef __INTPTR_TYPE__ cl_pipe_properties;
typedef cl_uint cl_program_info;
typedef cl_uint cl_program_build_info;
typedef cl_uint cl_program_binary_type;
typedef cl_int cl_build_status;
typedef cl_uint cl_kernel_info;
typedef cl_uint cl_kernel_arg_info;
typedef cl_uint cl_kernel_work_group_info;
typedef cl_uint cl_event_info;
typedef cl_uint cl_command_type;
typedef cl_uint cl_profiling_info;
typedef cl_bitfield cl_sampler_properties;
typedef cl_uint cl_kernel_exec_info;

typedef struct _cl_image_format {
  cl_channel_order image_channel_order;
  cl_channel_type image_channel_data_type;
} cl_image_format;

typedef struct _cl_image_desc {
  cl_mem_object_type image_type;
  simu_cl_size_t image_width, image_height, image_depth, image_array_size, image_row_pitch, image_slice_pitch;
  cl_uint num_mip_levels, num_samples;
  union { cl_mem buffer; cl_mem mem_object; };
} cl_image_desc;

typedef struct _cl_buffer_region {
  simu_cl_size_t origin, size;
} cl_buffer_region;

/* error codes */
#define CL_SUCCESS 0
#define CL_DEVICE_NOT_FOUND -1
#define CL_DEVICE_NOT_AVAILABLE -2
#define CL_COMPILER_NOT_AVAILABLE -3
#define CL_MEM_OBJECT_ALLOCATION_FAILURE -4
#define CL_OUT_OF_RESOURCES -5
#define CL_OUT_OF_HOST_MEMORY -6
#define CL_PROFILING_INFO_NOT_AVAILABLE -7
#define CL_MEM_COPY_OVERLAP -8
#define CL_IMAGE_FORMAT_MISMATCH -9
#define CL_IMAGE_FORMAT_NOT_SUPPORTED -10
#define CL_BUILD_PROGRAM_FAILURE -11
#define CL_MAP_FAILURE -12
#define CL_MISALIGNED_SUB_BUFFER_OFFSET -13
#define CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST -14
#define CL_COMPILE_PROGRAM_FAILURE -15
#define CL_LINKER_NOT_AVAILABLE -16
#define CL_LINK_PROGRAM_FAILURE -17
#define CL_DEVICE_PARTITION_FAILED -18
#define CL_KERNEL_ARG_INFO_NOT_AVAILABLE -19
#define CL_INVALID_VALUE -30
#define CL_INVALID_DEVICE_TYPE -31
#define CL_INVALID_PLATFORM -32
#define CL_INVALID_DEVICE -33
#define CL_INVALID_CONTEXT -34
#define CL_INVALID_QUEUE_PROPERTIES -35
#define CL_INVALID_COMMAND_QUEUE -36
#define CL_INVALID_HOST_PTR -37
#define CL_INVALID_MEM_OBJECT -38
#define CL_INVALID_IMAGE_FORMAT_DESCRIPTOR -39
#define CL_INVALID_IMAGE_SIZE -40
#define CL_INVALID_SAMPLER -41
#define CL_INVALID_BINARY -42
#define CL_INVALID_BUILD_OPTIONS -43
#define CL_INVALID_PROGRAM -44
#define CL_INVALID_PROGRAM_EXECUTABLE -45
#define CL_INVALID_KERNEL_NAME -46
#define CL_INVALID_KERNEL_DEFINITION -47
#define CL_INVALID_KERNEL -48
#define CL_INVALID_ARG_INDEX -49
#define CL_INVALID_ARG_VALUE -50
#define CL_INVALID_ARG_SIZE -51
#define CL_INVALID_KERNEL_ARGS -52
#define CL_INVALID_WORK_DIMENSION -53
#define CL_INVALID_WORK_GROUP_SIZE -54
#define CL_INVALID_WORK_ITEM_SIZE -55
#define CL_INVALID_GLOBAL_OFFSET -56
#define CL_INVALID_EVENT_WAIT_LIST -57
#define CL_INVALID_EVENT -58
#define CL_INVALID_OPERATION -59
#define CL_INVALID_GL_OBJECT -60
#define CL_INVALID_BUFFER_SIZE -61
#define CL_INVALID_MIP_LEVEL -62
#define CL_INVALID_GLOBAL_WORK_SIZE -63
#define CL_INVALID_PROPERTY -64
#define CL_INVALID_IMAGE_DESCRIPTOR -65
#define CL_INVALID_COMPILER_OPTIONS -66
#define CL_INVALID_LINKER_OPTIONS -67
#define CL_INVALID_DEVICE_PARTITION_COUNT -68

#define CL_VERSION_1_0 1
#define CL_VERSION_1_1 1
#define CL_VERSION_1_2 1
#define CL_FALSE 0
#define CL_TRUE 1
#define CL_BLOCKING CL_TRUE
#define CL_NON_BLOCKING CL_FALSE

/* platform and device */
#define CL_PLATFORM_PROFILE 0x0900
#define CL_PLATFORM_VERSION 0x0901
#define CL_PLATFORM_NAME 0x0902
#define CL_PLATFORM_VENDOR 0x0903
#define CL_PLATFORM_EXTENSIONS 0x0904
#define CL_DEVICE_TYPE_DEFAULT (1 << 0)
#define CL_DEVICE_TYPE_CPU (1 << 1)
#define CL_DEVICE_TYPE_GPU (1 << 2)
#define CL_DEVICE_TYPE_ACCELERATOR (1 << 3)
#define CL_DEVICE_TYPE_CUSTOM (1 << 4)
#define CL_DEVICE_TYPE_ALL 0xFFFFFFFF
#define CL_DEVICE_TYPE 0x1000
#define CL_DEVICE_VENDOR_ID 0x1001
#define CL_DEVICE_MAX_COMPUTE_UNITS 0x1002
#define CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS 0x1003
#define CL_DEVICE_MAX_WORK_GROUP_SIZE 0x1004
#define CL_DEVICE_MAX_WORK_ITEM_SIZES 0x1005
#define CL_DEVICE_MAX_CLOCK_FREQUENCY 0x100C
#define CL_DEVICE_ADDRESS_BITS 0x100D
#define CL_DEVICE_MAX_MEM_ALLOC_SIZE 0x1010
#define CL_DEVICE_IMAGE_SUPPORT 0x1016
#define CL_DEVICE_GLOBAL_MEM_CACHE_SIZE 0x101E
#define CL_DEVICE_GLOBAL_MEM_SIZE 0x101F
#define CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE 0x1020
#define CL_DEVICE_LOCAL_MEM_TYPE 0x1022
#define CL_DEVICE_LOCAL_MEM_SIZE 0x1023
#define CL_DEVICE_ERROR_CORRECTION_SUPPORT 0x1024
#define CL_DEVICE_PROFILING_TIMER_RESOLUTION 0x1025
#define CL_DEVICE_ENDIAN_LITTLE 0x1026
#define CL_DEVICE_AVAILABLE 0x1027
#define CL_DEVICE_COMPILER_AVAILABLE 0x1028
#define CL_DEVICE_QUEUE_PROPERTIES 0x102A
#define CL_DEVICE_NAME 0x102B
#define CL_DEVICE_VENDOR 0x102C
#define CL_DRIVER_VERSION 0x102D
#define CL_DEVICE_PROFILE 0x102E
#define CL_DEVICE_VERSION 0x102F
#define CL_DEVICE_EXTENSIONS 0x1030
#define CL_DEVICE_PLATFORM 0x1031
#define CL_DEVICE_DOUBLE_FP_CONFIG 0x1032
#define CL_DEVICE_OPENCL_C_VERSION 0x103D
#define CL_LOCAL 0x1
#define CL_GLOBAL 0x2

/* context and queue */
#define CL_CONTEXT_REFERENCE_COUNT 0x1080
#define CL_CONTEXT_DEVICES 0x1081
#define CL_CONTEXT_PROPERTIES 0x1082
#define CL_CONTEXT_NUM_DEVICES 0x1083
#define CL_CONTEXT_PLATFORM 0x1084
#define CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE (1 << 0)
#define CL_QUEUE_PROFILING_ENABLE (1 << 1)
#define CL_QUEUE_PROPERTIES 0x1093

/* memory */
#define CL_MEM_READ_WRITE (1 << 0)
#define CL_MEM_WRITE_ONLY (1 << 1)
#define CL_MEM_READ_ONLY (1 << 2)
#define CL_MEM_USE_HOST_PTR (1 << 3)
#define CL_MEM_ALLOC_HOST_PTR (1 << 4)
#define CL_MEM_COPY_HOST_PTR (1 << 5)
#define CL_MEM_HOST_WRITE_ONLY (1 << 7)
#define CL_MEM_HOST_READ_ONLY (1 << 8)
#define CL_MEM_HOST_NO_ACCESS (1 << 9)
#define CL_MAP_READ (1 << 0)
#define CL_MAP_WRITE (1 << 1)
#define CL_MAP_WRITE_INVALIDATE_REGION (1 << 2)
#define CL_MEM_OBJECT_BUFFER 0x10F0
#define CL_MEM_OBJECT_IMAGE2D 0x10F1
#define CL_MEM_OBJECT_IMAGE3D 0x10F2
#define CL_MEM_OBJECT_IMAGE2D_ARRAY 0x10F3
#define CL_MEM_OBJECT_IMAGE1D 0x10F4
#define CL_MEM_OBJECT_IMAGE1D_ARRAY 0x10F5
#define CL_MEM_OBJECT_IMAGE1D_BUFFER 0x10F6
#define CL_MEM_SIZE 0x1102
#define CL_BUFFER_CREATE_TYPE_REGION 0x1220
#define CL_R 0x10B0
#define CL_A 0x10B1
#define CL_RG 0x10B2
#define CL_RA 0x10B3
#define CL_RGB 0x10B4
#define CL_RGBA 0x10B5
#define CL_BGRA 0x10B6
#define CL_ARGB 0x10B7
#define CL_INTENSITY 0x10B8
#define CL_LUMINANCE 0x10B9
#define CL_SNORM_INT8 0x10D0
#define CL_SNORM_INT16 0x10D1
#define CL_UNORM_INT8 0x10D2
#define CL_UNORM_INT16 0x10D3
#define CL_SIGNED_INT8 0x10D7
#define CL_SIGNED_INT16 0x10D8
#define CL_SIGNED_INT32 0x10D9
#define CL_UNSIGNED_INT8 0x10DA
#define CL_UNSIGNED_INT16 0x10DB
#define CL_UNSIGNED_INT32 0x10DC
#define CL_HALF_FLOAT 0x10DD
#define CL_FLOAT 0x10DE
#define CL_ADDRESS_NONE 0x1130
#define CL_ADDRESS_CLAMP_TO_EDGE 0x1131
#define CL_ADDRESS_CLAMP 0x1132
#define CL_ADDRESS_REPEAT 0x1133
#define CL_FILTER_NEAREST 0x1140
#define CL_FILTER_LINEAR 0x1141

/* programs and kernels */
#define CL_PROGRAM_REFERENCE_COUNT 0x1160
#define CL_PROGRAM_CONTEXT 0x1161
#define CL_PROGRAM_NUM_DEVICES 0x1162
#define CL_PROGRAM_DEVICES 0x1163
#define CL_PROGRAM_SOURCE 0x1164
#define CL_PROGRAM_BINARY_SIZES 0x1165
#define CL_PROGRAM_BINARIES 0x1166
#define CL_PROGRAM_NUM_KERNELS 0x1167
#define CL_PROGRAM_KERNEL_NAMES 0x1168
#define CL_PROGRAM_BUILD_STATUS 0x1181
#define CL_PROGRAM_BUILD_OPTIONS 0x1182
#define CL_PROGRAM_BUILD_LOG 0x1183
#define CL_BUILD_SUCCESS 0
#define CL_BUILD_NONE -1
#define CL_BUILD_ERROR -2
#define CL_BUILD_IN_PROGRESS -3
#define CL_KERNEL_FUNCTION_NAME 0x1190
#define CL_KERNEL_NUM_ARGS 0x1191
#define CL_KERNEL_WORK_GROUP_SIZE 0x11B0
#define CL_KERNEL_COMPILE_WORK_GROUP_SIZE 0x11B1
#define CL_KERNEL_LOCAL_MEM_SIZE 0x11B2
#define CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE 0x11B3
#define CL_KERNEL_PRIVATE_MEM_SIZE 0x11B4

/* events and profiling */
#define CL_EVENT_COMMAND_QUEUE 0x11D0
#define CL_EVENT_COMMAND_TYPE 0x11D1
#define CL_EVENT_REFERENCE_COUNT 0x11D2
#define CL_EVENT_COMMAND_EXECUTION_STATUS 0x11D3
#define CL_COMPLETE 0x0
#define CL_RUNNING 0x1
#define CL_SUBMITTED 0x2
#define CL_QUEUED 0x3
#define CL_PROFILING_COMMAND_QUEUED 0x1280
#define CL_PROFILING_COMMAND_SUBMIT 0x1281
#define CL_PROFILING_COMMAND_START 0x1282
#define CL_PROFILING_COMMAND_END 0x1283

typedef void (CL_CALLBACK *simu_cl_build_notify)(cl_program, void *);
typedef void (CL_CALLBACK *simu_cl_context_notify)(const char *, const void *, simu_cl_size_t, void *);
typedef void (CL_CALLBACK *simu_cl_event_notify)(cl_event, cl_int, void *);
typedef void (CL_CALLBACK *simu_cl_mem_notify)(cl_mem, void *);

cl_int clGetPlatformIDs(cl_uint, cl_platform_id *, cl_uint *);
cl_int clGetPlatformInfo(cl_platform_id, cl_platform_info, simu_cl_size_t, void *, simu_cl_size_t *);
cl_int clGetDeviceIDs(cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *);
cl_int clGetDeviceInfo(cl_device_id, cl_device_info, simu_cl_size_t, void *, simu_cl_size_t *);
cl_int clRetainDevice(cl_device_id);
cl_int clReleaseDevice(cl_device_id);
cl_context clCreateContext(const cl_context_properties *, cl_uint, const cl_device_id *, simu_cl_context_notify,
                           void *, cl_int *);
cl_context clCreateContextFromType(const cl_context_properties *, cl_device_type, simu_cl_context_notify, void *,
                                   cl_int *);
cl_int clRetainContext(cl_context);
cl_int clReleaseContext(cl_context);
cl_int clGetContextInfo(cl_context, cl_context_info, simu_cl_size_t, void *, simu_cl_size_t *);
cl_command_queue clCreateCommandQueue(cl_context, cl_device_id, cl_command_queue_properties, cl_int *);
cl_command_queue clCreateCommandQueueWithProperties(cl_context, cl_device_id, const cl_queue_properties *, cl_int *);
cl_int clRetainCommandQueue(cl_command_queue);
cl_int clReleaseCommandQueue(cl_command_queue);
cl_int clGetCommandQueueInfo(cl_command_queue, cl_command_queue_info, simu_cl_size_t, void *, simu_cl_size_t *);
cl_int clFlush(cl_command_queue);
cl_int clFinish(cl_command_queue);

cl_mem clCreateBuffer(cl_context, cl_mem_flags, simu_cl_size_t, void *, cl_int *);
cl_mem clCreateSubBuffer(cl_mem, cl_mem_flags, cl_buffer_create_type, const void *, cl_int *);
cl_mem clCreateImage(cl_context, cl_mem_flags, const cl_image_format *, const cl_image_desc *, void *, cl_int *);
cl_mem clCreateImage2D(cl_context, cl_mem_flags, const cl_image_format *, simu_cl_size_t, simu_cl_size_t,
                       simu_cl_size_t, void *, cl_int *);
cl_mem clCreateImage3D(cl_context, cl_mem_flags, const cl_image_format *, simu_cl_size_t, simu_cl_size_t,
                       simu_cl_size_t, simu_cl_size_t, simu_cl_size_t, void *, cl_int *);
cl_int clRetainMemObject(cl_mem);
cl_int clReleaseMemObject(cl_mem);
cl_int clGetMemObjectInfo(cl_mem, cl_mem_info, simu_cl_size_t, void *, simu_cl_size_t *);
cl_int clSetMemObjectDestructorCallback(cl_mem, simu_cl_mem_notify, void *);
void *clSVMAlloc(cl_context, cl_svm_mem_flags, simu_cl_size_t, cl_uint);
void clSVMFree(cl_context, void *);
cl_sampler clCreateSampler(cl_context, cl_bool, cl_addressing_mode, cl_filter_mode, cl_int *);
cl_sampler clCreateSamplerWithProperties(cl_context, const cl_sampler_properties *, cl_int *);
cl_int clReleaseSampler(cl_sampler);

cl_program clCreateProgramWithSource(cl_context, cl_uint, const char **, const simu_cl_size_t *, cl_int *);
cl_program clCreateProgramWithBinary(cl_context, cl_uint, const cl_device_id *, const simu_cl_size_t *,
                                     const unsigned char **, cl_int *, cl_int *);
cl_program clCreateProgramWithIL(cl_context, const void *, simu_cl_size_t, cl_int *);
cl_int clRetainProgram(cl_program);
cl_int clReleaseProgram(cl_program);
cl_int clBuildProgram(cl_program, cl_uint, const cl_device_id *, const char *, simu_cl_build_notify, void *);
cl_int clCompileProgram(cl_program, cl_uint, const cl_device_id *, const char *, cl_uint, const cl_program *,
                        const char **, simu_cl_build_notify, void *);
cl_program clLinkProgram(cl_context, cl_uint, const cl_device_id *, const char *, cl_uint, const cl_program *,
                         simu_cl_build_notify, void *, cl_int *);
cl_int clUnloadCompiler(void);
cl_int clUnloadPlatformCompiler(cl_platform_id);
cl_int clGetProgramInfo(cl_program, cl_program_info, simu_cl_size_t, void *, simu_cl_size_t *);
cl_int clGetProgramBuildInfo(cl_program, cl_device_id, cl_program_build_info, simu_cl_size_t, void *,
                             simu_cl_size_t *);

cl_kernel clCreateKernel(cl_program, const char *, cl_int *);
cl_int clCreateKernelsInProgram(cl_program, cl_uint, cl_kernel *, cl_uint *);
cl_int clRetainKernel(cl_kernel);
cl_int clReleaseKernel(cl_kernel);
cl_int clSetKernelArg(cl_kernel, cl_uint, simu_cl_size_t, const void *);
cl_int clSetKernelArgSVMPointer(cl_kernel, cl_uint, const void *);
cl_int clGetKernelInfo(cl_kernel, cl_kernel_info, simu_cl_size_t, void *, simu_cl_size_t *);
cl_int clGetKernelWorkGroupInfo(cl_kernel, cl_device_id, cl_kernel_work_group_info, simu_cl_size_t, void *,
                                simu_cl_size_t *);

cl_int clWaitForEvents(cl_uint, const cl_event *);
cl_int clGetEventInfo(cl_event, cl_event_info, simu_cl_size_t, void *, simu_cl_size_t *);
cl_event clCreateUserEvent(cl_context, cl_int *);
cl_int clSetUserEventStatus(cl_event, cl_int);
cl_int clSetEventCallback(cl_event, cl_int, simu_cl_event_notify, void *);
cl_int clRetainEvent(cl_event);
cl_int clReleaseEvent(cl_event);
cl_int clGetEventProfilingInfo(cl_event, cl_profiling_info, simu_cl_size_t, void *, simu_cl_size_t *);

cl_int clEnqueueReadBuffer(cl_command_queue, cl_mem, cl_bool, simu_cl_size_t, simu_cl_size_t, void *, cl_uint,
                           const cl_event *, cl_event *);
cl_int clEnqueueWriteBuffer(cl_command_queue, cl_mem, cl_bool, simu_cl_size_t, simu_cl_size_t, const void *,
                            cl_uint, const cl_event *, cl_event *);
cl_int clEnqueueReadBufferRect(cl_command_queue, cl_mem, cl_bool, const simu_cl_size_t *, const simu_cl_size_t *,
                               const simu_cl_size_t *, simu_cl_size_t, simu_cl_size_t, simu_cl_size_t,
                               simu_cl_size_t, void *, cl_uint, const cl_event *, cl_event *);
cl_int clEnqueueWriteBufferRect(cl_command_queue, cl_mem, cl_bool, const simu_cl_size_t *, const simu_cl_size_t *,
                                const simu_cl_size_t *, simu_cl_size_t, simu_cl_size_t, simu_cl_size_t,
                                simu_cl_size_t, const void *, cl_uint, const cl_event *, cl_event *);
cl_int clEnqueueCopyBuffer(cl_command_queue, cl_mem, cl_mem, simu_cl_size_t, simu_cl_size_t, simu_cl_size_t,
                           cl_uint, const cl_event *, cl_event *);
cl_int clEnqueueFillBuffer(cl_command_queue, cl_mem, const void *, simu_cl_size_t, simu_cl_size_t, simu_cl_size_t,
                           cl_uint, const cl_event *, cl_event *);
cl_int clEnqueueReadImage(cl_command_queue, cl_mem, cl_bool, const simu_cl_size_t *, const simu_cl_size_t *,
                          simu_cl_size_t, simu_cl_size_t, void *, cl_uint, const cl_event *, cl_event *);
cl_int clEnqueueWriteImage(cl_command_queue, cl_mem, cl_bool, const simu_cl_size_t *, const simu_cl_size_t *,
                           simu_cl_size_t, simu_cl_size_t, const void *, cl_uint, const cl_event *, cl_event *);
void *clEnqueueMapBuffer(cl_command_queue, cl_mem, cl_bool, cl_map_flags, simu_cl_size_t, simu_cl_size_t, cl_uint,
                         const cl_event *, cl_event *, cl_int *);
cl_int clEnqueueUnmapMemObject(cl_command_queue, cl_mem, void *, cl_uint, const cl_event *, cl_event *);
cl_int clEnqueueNDRangeKernel(cl_command_queue, cl_kernel, cl_uint, const simu_cl_size_t *, const simu_cl_size_t *,
                              const simu_cl_size_t *, cl_uint, const cl_event *, cl_event *);
cl_int clEnqueueTask(cl_command_queue, cl_kernel, cl_uint, const cl_event *, cl_event *);
cl_int clEnqueueMarker(cl_command_queue, cl_event *);
cl_int clEnqueueBarrier(cl_command_queue);
cl_int clEnqueueWaitForEvents(cl_command_queue, cl_uint, const cl_event *);
cl_int clEnqueueMarkerWithWaitList(cl_command_queue, cl_uint, const cl_event *, cl_event *);
cl_int clEnqueueBarrierWithWaitList(cl_command_queue, cl_uint, const cl_event *, cl_event *);
void *clGetExtensionFunctionAddress(const char *);
void *clGetExtensionFunctionAddressForPlatform(cl_platform_id, const char *);

#ifdef __cplusplus
}
#endif

#endif
