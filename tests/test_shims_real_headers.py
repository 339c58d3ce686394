"""The CUDA shim accepts what real projects' host code includes (issue 13, item 1).

Each test writes a small project of its own (written from the description of the pattern, not
copied from any project) into a temporary folder, runs ``simu check`` on it and asserts that the
kernel compiled and was analysed (and, where the kernel is racy, that the race is found).
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from simu.cli import app

runner = CliRunner()
LAUNCH = ["--grid", "1", "--block", "64", "--format", "json"]

RACY_KERNEL = """
__global__ void last_writer(int *out, const int *in) { out[0] = in[threadIdx.x]; }
"""

# A project's own helper in the vendor-sample style: error-name tables guarded by the real
# headers' include guards, checkCudaErrors / getLastCudaError, device selection by properties.
PROJECT_HELPER = r"""
#ifndef PROJECT_HELPER_CUDA_H
#define PROJECT_HELPER_CUDA_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __DRIVER_TYPES_H__
static const char *_cudaGetErrorEnum(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorMissingConfiguration: return "cudaErrorMissingConfiguration";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorPriorLaunchFailure: return "cudaErrorPriorLaunchFailure";
    case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorInvalidPitchValue: return "cudaErrorInvalidPitchValue";
    case cudaErrorInvalidSymbol: return "cudaErrorInvalidSymbol";
    case cudaErrorMapBufferObjectFailed: return "cudaErrorMapBufferObjectFailed";
    case cudaErrorUnmapBufferObjectFailed: return "cudaErrorUnmapBufferObjectFailed";
    case cudaErrorInvalidHostPointer: return "cudaErrorInvalidHostPointer";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidTexture: return "cudaErrorInvalidTexture";
    case cudaErrorInvalidTextureBinding: return "cudaErrorInvalidTextureBinding";
    case cudaErrorInvalidChannelDescriptor: return "cudaErrorInvalidChannelDescriptor";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorAddressOfConstant: return "cudaErrorAddressOfConstant";
    case cudaErrorTextureFetchFailed: return "cudaErrorTextureFetchFailed";
    case cudaErrorTextureNotBound: return "cudaErrorTextureNotBound";
    case cudaErrorSynchronizationError: return "cudaErrorSynchronizationError";
    case cudaErrorInvalidFilterSetting: return "cudaErrorInvalidFilterSetting";
    case cudaErrorInvalidNormSetting: return "cudaErrorInvalidNormSetting";
    case cudaErrorMixedDeviceExecution: return "cudaErrorMixedDeviceExecution";
    case cudaErrorCudartUnloading: return "cudaErrorCudartUnloading";
    case cudaErrorUnknown: return "cudaErrorUnknown";
    case cudaErrorNotYetImplemented: return "cudaErrorNotYetImplemented";
    case cudaErrorMemoryValueTooLarge: return "cudaErrorMemoryValueTooLarge";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorInsufficientDriver: return "cudaErrorInsufficientDriver";
    case cudaErrorSetOnActiveProcess: return "cudaErrorSetOnActiveProcess";
    case cudaErrorInvalidSurface: return "cudaErrorInvalidSurface";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorECCUncorrectable: return "cudaErrorECCUncorrectable";
    case cudaErrorSharedObjectSymbolNotFound: return "cudaErrorSharedObjectSymbolNotFound";
    case cudaErrorSharedObjectInitFailed: return "cudaErrorSharedObjectInitFailed";
    case cudaErrorUnsupportedLimit: return "cudaErrorUnsupportedLimit";
    case cudaErrorDuplicateVariableName: return "cudaErrorDuplicateVariableName";
    case cudaErrorDuplicateTextureName: return "cudaErrorDuplicateTextureName";
    case cudaErrorDuplicateSurfaceName: return "cudaErrorDuplicateSurfaceName";
    case cudaErrorDevicesUnavailable: return "cudaErrorDevicesUnavailable";
    case cudaErrorInvalidKernelImage: return "cudaErrorInvalidKernelImage";
    case cudaErrorNoKernelImageForDevice: return "cudaErrorNoKernelImageForDevice";
    case cudaErrorIncompatibleDriverContext: return "cudaErrorIncompatibleDriverContext";
    case cudaErrorPeerAccessAlreadyEnabled: return "cudaErrorPeerAccessAlreadyEnabled";
    case cudaErrorPeerAccessNotEnabled: return "cudaErrorPeerAccessNotEnabled";
    case cudaErrorDeviceAlreadyInUse: return "cudaErrorDeviceAlreadyInUse";
    case cudaErrorProfilerDisabled: return "cudaErrorProfilerDisabled";
    case cudaErrorProfilerNotInitialized: return "cudaErrorProfilerNotInitialized";
    case cudaErrorProfilerAlreadyStarted: return "cudaErrorProfilerAlreadyStarted";
    case cudaErrorProfilerAlreadyStopped: return "cudaErrorProfilerAlreadyStopped";
    case cudaErrorAssert: return "cudaErrorAssert";
    case cudaErrorTooManyPeers: return "cudaErrorTooManyPeers";
    case cudaErrorHostMemoryAlreadyRegistered: return "cudaErrorHostMemoryAlreadyRegistered";
    case cudaErrorHostMemoryNotRegistered: return "cudaErrorHostMemoryNotRegistered";
    case cudaErrorOperatingSystem: return "cudaErrorOperatingSystem";
    case cudaErrorPeerAccessUnsupported: return "cudaErrorPeerAccessUnsupported";
    case cudaErrorLaunchMaxDepthExceeded: return "cudaErrorLaunchMaxDepthExceeded";
    case cudaErrorLaunchFileScopedTex: return "cudaErrorLaunchFileScopedTex";
    case cudaErrorLaunchFileScopedSurf: return "cudaErrorLaunchFileScopedSurf";
    case cudaErrorSyncDepthExceeded: return "cudaErrorSyncDepthExceeded";
    case cudaErrorLaunchPendingCountExceeded: return "cudaErrorLaunchPendingCountExceeded";
    case cudaErrorNotPermitted: return "cudaErrorNotPermitted";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    case cudaErrorHardwareStackError: return "cudaErrorHardwareStackError";
    case cudaErrorIllegalInstruction: return "cudaErrorIllegalInstruction";
    case cudaErrorMisalignedAddress: return "cudaErrorMisalignedAddress";
    case cudaErrorInvalidAddressSpace: return "cudaErrorInvalidAddressSpace";
    case cudaErrorInvalidPc: return "cudaErrorInvalidPc";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorInvalidPtx: return "cudaErrorInvalidPtx";
    case cudaErrorInvalidGraphicsContext: return "cudaErrorInvalidGraphicsContext";
    case cudaErrorStartupFailure: return "cudaErrorStartupFailure";
    case cudaErrorApiFailureBase: return "cudaErrorApiFailureBase";
    case cudaErrorNvlinkUncorrectable: return "cudaErrorNvlinkUncorrectable";
    case cudaErrorJitCompilerNotFound: return "cudaErrorJitCompilerNotFound";
    case cudaErrorCooperativeLaunchTooLarge: return "cudaErrorCooperativeLaunchTooLarge";
    default: break;
  }
  return "<unknown>";
}
#endif

#ifdef __cuda_cuda_h__
static const char *_cudaGetErrorEnum(CUresult error) {
  switch (error) {
    case CUDA_SUCCESS: return "CUDA_SUCCESS";
    case CUDA_ERROR_INVALID_VALUE: return "CUDA_ERROR_INVALID_VALUE";
    case CUDA_ERROR_OUT_OF_MEMORY: return "CUDA_ERROR_OUT_OF_MEMORY";
    case CUDA_ERROR_NOT_INITIALIZED: return "CUDA_ERROR_NOT_INITIALIZED";
    case CUDA_ERROR_DEINITIALIZED: return "CUDA_ERROR_DEINITIALIZED";
    case CUDA_ERROR_PROFILER_DISABLED: return "CUDA_ERROR_PROFILER_DISABLED";
    case CUDA_ERROR_NO_DEVICE: return "CUDA_ERROR_NO_DEVICE";
    case CUDA_ERROR_INVALID_DEVICE: return "CUDA_ERROR_INVALID_DEVICE";
    case CUDA_ERROR_INVALID_IMAGE: return "CUDA_ERROR_INVALID_IMAGE";
    case CUDA_ERROR_INVALID_CONTEXT: return "CUDA_ERROR_INVALID_CONTEXT";
    case CUDA_ERROR_CONTEXT_ALREADY_CURRENT: return "CUDA_ERROR_CONTEXT_ALREADY_CURRENT";
    case CUDA_ERROR_MAP_FAILED: return "CUDA_ERROR_MAP_FAILED";
    case CUDA_ERROR_NO_BINARY_FOR_GPU: return "CUDA_ERROR_NO_BINARY_FOR_GPU";
    case CUDA_ERROR_ECC_UNCORRECTABLE: return "CUDA_ERROR_ECC_UNCORRECTABLE";
    case CUDA_ERROR_INVALID_SOURCE: return "CUDA_ERROR_INVALID_SOURCE";
    case CUDA_ERROR_FILE_NOT_FOUND: return "CUDA_ERROR_FILE_NOT_FOUND";
    case CUDA_ERROR_INVALID_HANDLE: return "CUDA_ERROR_INVALID_HANDLE";
    case CUDA_ERROR_NOT_FOUND: return "CUDA_ERROR_NOT_FOUND";
    case CUDA_ERROR_NOT_READY: return "CUDA_ERROR_NOT_READY";
    case CUDA_ERROR_LAUNCH_FAILED: return "CUDA_ERROR_LAUNCH_FAILED";
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
    case CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED: return "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED";
    case CUDA_ERROR_ASSERT: return "CUDA_ERROR_ASSERT";
    case CUDA_ERROR_NOT_PERMITTED: return "CUDA_ERROR_NOT_PERMITTED";
    case CUDA_ERROR_UNKNOWN: return "CUDA_ERROR_UNKNOWN";
    default: break;
  }
  return "<unknown>";
}
#endif

#ifdef CUBLAS_API_H_
static const char *_cudaGetErrorEnum(cublasStatus_t error) {
  return error == CUBLAS_STATUS_SUCCESS ? "CUBLAS_STATUS_SUCCESS" : "CUBLAS_STATUS_EXECUTION_FAILED";
}
#endif
#ifdef _CUFFT_H_
static const char *_cudaGetErrorEnum(cufftResult error) {
  return error == CUFFT_SUCCESS ? "CUFFT_SUCCESS" : "CUFFT_EXEC_FAILED";
}
#endif
#ifdef CURAND_H_
static const char *_cudaGetErrorEnum(curandStatus_t error) {
  return error == CURAND_STATUS_SUCCESS ? "CURAND_STATUS_SUCCESS" : "CURAND_STATUS_LAUNCH_FAILURE";
}
#endif

template <typename T>
void check(T result, char const *const func, const char *const file, int const line) {
  if (result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", file, line, (int)result,
            _cudaGetErrorEnum(result), func);
    exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)
#define getLastCudaError(msg) __getLastCudaError(msg, __FILE__, __LINE__)
inline void __getLastCudaError(const char *errorMessage, const char *file, const int line) {
  cudaError_t err = cudaGetLastError();
  if (cudaSuccess != err) {
    fprintf(stderr, "%s(%i) : %s : (%d) %s %s.\n", file, line, errorMessage, (int)err,
            cudaGetErrorName(err), cudaGetErrorString(err));
    exit(EXIT_FAILURE);
  }
}

inline int _ConvertSMVer2Cores(int major, int minor) {
  typedef struct { int SM; int Cores; } sSMtoCores;
  sSMtoCores table[] = {{0x50, 128}, {0x60, 64}, {0x70, 64}, {0x80, 64}, {0x86, 128}, {-1, -1}};
  for (int i = 0; table[i].SM != -1; ++i)
    if (table[i].SM == ((major << 4) + minor)) return table[i].Cores;
  return 64;
}

inline int gpuGetMaxGflopsDeviceId() {
  int count = 0, best = 0;
  unsigned long long best_perf = 0;
  checkCudaErrors(cudaGetDeviceCount(&count));
  for (int dev = 0; dev < count; ++dev) {
    int mode, major, minor, sms, clock;
    checkCudaErrors(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, dev));
    checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    checkCudaErrors(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    checkCudaErrors(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, dev));
    if (mode == cudaComputeModeProhibited) continue;
    unsigned long long perf = (unsigned long long)sms * _ConvertSMVer2Cores(major, minor) * clock;
    if (perf > best_perf) { best_perf = perf; best = dev; }
  }
  return best;
}

inline int findCudaDevice(int argc, const char **argv) {
  (void)argc; (void)argv;
  int dev = gpuGetMaxGflopsDeviceId();
  cudaDeviceProp prop;
  checkCudaErrors(cudaSetDevice(dev));
  checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
  printf("GPU %d: \"%s\" sm_%d%d, %zu bytes, %d SMs, uuid byte %d, l2 %d, %d KiB smem/SM, tex1D %d\n", dev,
         prop.name, prop.major, prop.minor, prop.totalGlobalMem, prop.multiProcessorCount, prop.uuid.bytes[0],
         prop.l2CacheSize, (int)(prop.sharedMemPerMultiprocessor / 1024), prop.maxTexture1D);
  if (prop.computeMode == cudaComputeModeProhibited || !prop.unifiedAddressing || prop.tccDriver ||
      prop.maxSurface2D[0] < 0 || prop.memoryPoolsSupported < 0) return -1;
  return dev;
}
#endif
"""

PROJECT_MAIN = r"""
#include <cuda_runtime.h>
#include <cuda.h>
#include "helper_cuda.h"
""" + RACY_KERNEL + r"""
int main(int argc, const char **argv) {
  int dev = findCudaDevice(argc, argv);
  int *out, *in;
  checkCudaErrors(cudaMalloc(&out, sizeof(int)));
  checkCudaErrors(cudaMalloc(&in, 64 * sizeof(int)));
  last_writer<<<1, 64>>>(out, in);
  getLastCudaError("last_writer failed");
  CUdevice cu;
  checkCudaErrors(cuDeviceGet(&cu, dev));
  checkCudaErrors(cudaDeviceSynchronize());
  return 0;
}
"""

RUNTIME_MORE = r"""
#include <cuda_runtime_api.h>
#include <driver_types.h>
#include <cuda.h>
#include <cuda_occupancy.h>
#include <cuda_profiler_api.h>
#include <nvrtc.h>
""" + RACY_KERNEL + r"""
#if !defined(__CUDA_RUNTIME_H__) || !defined(__DRIVER_TYPES_H__) || !defined(__VECTOR_TYPES_H__)
#error "guard macros of the real runtime headers are missing"
#endif
#if CUDART_VERSION < 9000 || CUDA_VERSION < 9000 || __CUDA_API_VERSION < 9000 || !defined(__CUDACC__)
#error "version macros are missing"
#endif
void host_side(int *out, int *in) {
  cudaStream_t s; cudaEvent_t e; cudaGraph_t g; cudaGraphExec_t ge;
  cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, 0);
  cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  last_writer<<<1, 64, 0, s>>>(out, in);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&ge, g, 0);
  cudaGraphLaunch(ge, s);
  cudaFuncAttributes fa;
  cudaFuncGetAttributes(&fa, last_writer);
  int blocks = 0, minGrid = 0, block = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, last_writer, 64, 0);
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, last_writer, 0, 0);
  cudaMemcpy3DParms p = {0};
  p.extent = make_cudaExtent(4, 4, 4);
  p.srcPos = make_cudaPos(0, 0, 0);
  p.kind = cudaMemcpyDeviceToDevice;
  cudaMemcpy3D(&p);
  cudaPointerAttributes pa;
  cudaPointerGetAttributes(&pa, out);
  int *managed;
  cudaMallocManaged(&managed, 64, cudaMemAttachGlobal);
  float *mapped; void *pinned = 0;
  cudaHostGetDevicePointer(&mapped, pinned, 0);  // the T** template of the real runtime header
  size_t symbol_bytes = 0;
  cudaGetSymbolSize(&symbol_bytes, *managed);
  cudaMemAdvise(managed, 64, cudaMemAdviseSetReadMostly, 0);
  int can = 0;
  cudaDeviceCanAccessPeer(&can, 0, 1);
  cudaDeviceEnablePeerAccess(1, 0);
  cudaDeviceDisablePeerAccess(1);
  int v = 0;
  cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, 0);
  cudaProfilerStart();
  CUcontext ctx; CUmodule mod; CUfunction fn; CUdevice dev;
  cuInit(0); cuDeviceGet(&dev, 0); cuCtxCreate(&ctx, 0, dev);
  cuModuleLoad(&mod, "k.ptx"); cuModuleGetFunction(&fn, mod, "last_writer");
  void *args[] = {&out, &in};
  cuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, 0, args, 0);
  const char *name; cuGetErrorName(CUDA_ERROR_LAUNCH_FAILED, &name);
  cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  nvrtcProgram prog; nvrtcCreateProgram(&prog, "", "k.cu", 0, 0, 0);
  printf("%s %s\n", cudaGetErrorName(cudaErrorStreamCaptureInvalidated), nvrtcGetErrorString(NVRTC_SUCCESS));
}
"""

LIBRARIES = r"""
#include <cublas_v2.h>
#include <cublasLt.h>
#include <cusparse.h>
#include <cufft.h>
#include <cufftXt.h>
#include <curand.h>
#include <curand_kernel.h>
#include <cusolverDn.h>
#include <nvtx3/nvToolsExt.h>
#include <cuda_gl_interop.h>
#include <cuda_egl_interop.h>
""" + RACY_KERNEL + r"""
void host_side(float *A, float *B, float *C, cufftComplex *sig, int *out, int *in) {
  nvtxRangePushA("gemm");
  cublasHandle_t h; cublasCreate(&h);
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, 4, 4, 4, &one, A, 4, B, 4, &zero, C, 4);
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, A, CUDA_R_32F, 4, B, CUDA_R_32F, 4, &zero, C,
               CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  cublasLtHandle_t lt; cublasLtCreate(&lt);
  cudaEmulationMantissaControl mantissa = CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC;  // CUDA 12.9 library types
  (void)mantissa;
  cusparseHandle_t sp; cusparseCreate(&sp);
  cusparseSpMatDescr_t m;
  cusparseCreateCsr(&m, 4, 4, 4, in, in, A, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                    CUDA_R_32F);
  cufftHandle plan;
  cufftPlan1d(&plan, 64, CUFFT_C2C, 1);
  cufftExecC2C(plan, sig, sig, CUFFT_FORWARD);
  cufftPlan2d(&plan, 8, 8, CUFFT_R2C);
  cufftExecR2C(plan, A, sig);
  curandGenerator_t gen;
  curandCreateGenerator(&gen, CURAND_RNG_QUASI_SOBOL32);
  curandSetQuasiRandomGeneratorDimensions(gen, 2);
  curandGenerateUniform(gen, A, 64);
  cusolverDnHandle_t sol; cusolverDnCreate(&sol);
  int lwork = 0; cusolverDnSgetrf_bufferSize(sol, 4, 4, A, 4, &lwork);
  cudaGraphicsResource *res; cudaGraphicsGLRegisterBuffer(&res, 1u, cudaGraphicsRegisterFlagsNone);
  cudaGraphicsMapResources(1, &res, 0);
  last_writer<<<1, 64>>>(out, in);
  nvtxRangePop();
}
"""

LIBC = r"""
#include <malloc.h>
#include <sys/time.h>
#include <sys/types.h>
#include <unistd.h>
#include <time.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <ctime>
#include <omp.h>
#include <immintrin.h>
#include <stdalign.h>  /* a compiler header: clang's own, from the ziglang wheel */
#include <stdlib.h>
#include <stdio.h>
""" + RACY_KERNEL + r"""
double seconds() {
  struct timeval tv;
  gettimeofday(&tv, 0);
  return tv.tv_sec + tv.tv_usec * 1e-6;
}
void host_side(float *a, float *b, int *out, int *in) {
  srand48(7);
  long r = lrand48();
  double d = drand48();
  void *p = memalign(64, 256);
  free(p);
  double t0 = omp_get_wtime();
#pragma omp parallel for
  for (int i = 0; i < 8; ++i) a[i] = b[i] * omp_get_thread_num();
  __m256 x = _mm256_loadu_ps(a);
  _mm256_storeu_ps(b, _mm256_add_ps(x, x));
  usleep(1);
  std::clock_t c = std::clock();
  struct stat st;
  if (stat("in.bin", &st) == 0 && S_ISREG(st.st_mode)) close(open("in.bin", O_RDONLY));
  static struct option opts[] = {{"size", required_argument, 0, 's'}, {0, 0, 0, 0}};
  (void)opts;
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  last_writer<<<1, 64>>>(out, in);
  printf("%ld %f %f %f %ld\n", r, d, seconds(), t0, (long)c);
}
"""

CXX = r"""
#include <bits/stdc++.h>  /* reaches <cstdalign> -> the compiler's <stdalign.h> */
#include <vector>
#include <string>
#include <iostream>
#include <fstream>
#include <algorithm>
#include <memory>
#include <random>
#include <map>
#include <functional>
#include <chrono>
""" + RACY_KERNEL + r"""
void host_side(int *out, int *in) {
  std::vector<int> v(64);
  std::mt19937 gen(1);
  std::generate(v.begin(), v.end(), [&] { return (int)gen(); });
  auto t0 = std::chrono::high_resolution_clock::now();
  last_writer<<<1, 64>>>(out, in);
  std::map<std::string, double> times;
  times["k"] = std::chrono::duration<double>(std::chrono::high_resolution_clock::now() - t0).count();
  std::cout << times["k"] << std::endl;
}
"""


HALF2_ATOMIC = r"""
#include <cuda_fp16.h>
__global__ void accumulate(half2 *sum, const half2 *in) {
  int32_t i = threadIdx.x;  // int32_t without <stdint.h>: the real runtime headers provide it
  atomicAdd(sum, in[i]);
}
__global__ void last_writer(int *out, const int *in) { out[0] = in[threadIdx.x]; }
"""


def _check(path, *extra: str) -> dict:
    res = runner.invoke(app, ["check", str(path), *LAUNCH, *extra])
    assert res.exit_code in (0, 1), res.output
    doc = json.loads(res.stdout)
    (f,) = doc["files"]
    assert f["status"] != "compile-error" and not f["diagnostic"], f
    return {k["name"]: k for k in f["kernels"]}


def _assert_racy_kernel_analysed(kernels: dict) -> None:
    k = kernels["last_writer"]
    assert k["status"] == "analysed", k
    assert any(x["kind"] == "race" and x["variable"] == "out" for x in k["findings"]), k["findings"]


@pytest.fixture
def project(tmp_path):
    (tmp_path / ".git").mkdir()  # the configuration search stops at the repository root
    return tmp_path


def test_project_helper_cuda_compiles_against_the_shim(project):
    (project / "helper_cuda.h").write_text(PROJECT_HELPER)
    src = project / "main.cu"
    src.write_text(PROJECT_MAIN)
    _assert_racy_kernel_analysed(_check(src))


def test_project_helper_cuda_from_an_include_folder(project):
    inc = project / "common" / "inc"
    inc.mkdir(parents=True)
    (inc / "helper_cuda.h").write_text(PROJECT_HELPER)
    src = project / "main.cu"
    src.write_text(PROJECT_MAIN.replace('"helper_cuda.h"', "<helper_cuda.h>"))
    _assert_racy_kernel_analysed(_check(src, "-I", str(inc)))


@pytest.mark.parametrize("source", [RUNTIME_MORE, LIBRARIES, LIBC, CXX], ids=["runtime", "libraries", "libc", "cxx"])
def test_host_code_includes_compile_and_the_kernel_is_analysed(project, source):
    src = project / "k.cu"
    src.write_text(source)
    _assert_racy_kernel_analysed(_check(src))


@pytest.mark.parametrize("source", [RUNTIME_MORE, LIBRARIES, LIBC], ids=["runtime", "libraries", "libc"])
def test_shim_needs_no_system_c_headers(project, source):
    """With /usr/include out of the search (-nostdlibinc), the shim alone carries C host code."""
    src = project / "k.cu"
    src.write_text(source)
    _assert_racy_kernel_analysed(_check(src, "--clang-arg", "-nostdlibinc"))


def test_half2_atomic_add_and_fixed_width_ints_without_stdint(project):
    src = project / "k.cu"
    src.write_text(HALF2_ATOMIC)
    kernels = _check(src)
    assert kernels["accumulate"]["status"] == "analysed", kernels["accumulate"]
    assert not kernels["accumulate"]["findings"]  # atomics on each half do not race
    _assert_racy_kernel_analysed(kernels)


def test_discovered_project_helper_cuda_takes_precedence_over_simus(project):
    """Zero configuration: <helper_cuda.h> found by include discovery (a sibling folder) is the
    project's own, not simu's fallback copy (which would lack projectOnlyHelper)."""
    inc = project / "common" / "inc"
    inc.mkdir(parents=True)
    (inc / "helper_cuda.h").write_text(PROJECT_HELPER.replace(
        "inline int findCudaDevice", "inline int projectOnlyHelper() { return 3; }\ninline int findCudaDevice"))
    src = project / "src" / "main.cu"
    src.parent.mkdir()
    src.write_text(PROJECT_MAIN.replace('"helper_cuda.h"', "<helper_cuda.h>")
                   + "int other() { return projectOnlyHelper(); }\n")
    _assert_racy_kernel_analysed(_check(src))


def test_simus_helper_cuda_when_the_project_has_none(project):
    src = project / "k.cu"
    src.write_text("#include <helper_cuda.h>\n#include <helper_math.h>\n" + RACY_KERNEL
                   + "int main() { int *p; checkCudaErrors(cudaMalloc(&p, 4)); return _ConvertSMVer2Cores(8, 0); }\n")
    _assert_racy_kernel_analysed(_check(src))


SOBOL = r"""
#include <curand_kernel.h>
__global__ void sobol_points(float *out, unsigned int *dirs) {
  __shared__ unsigned int v[32];
  if (threadIdx.x < 32) v[threadIdx.x] = dirs[threadIdx.x];
  __syncthreads();
  curandStateSobol32_t st;
  curand_init(v, threadIdx.x, &st);
  out[threadIdx.x] = curand_uniform(&st);
}
""" + RACY_KERNEL


def test_device_sobol32_quasi_random_state(project):
    src = project / "k.cu"
    src.write_text(SOBOL)
    kernels = _check(src)
    assert kernels["sobol_points"]["status"] == "analysed", kernels["sobol_points"]
    assert not kernels["sobol_points"]["findings"]
    _assert_racy_kernel_analysed(kernels)


def test_device_sobol32_yields_the_sobol_sequence_in_gray_code_order(project):
    """First Sobol dimension (direction vectors 2^(31-b)): points 0, 1/2, 3/4, 1/4, 3/8, 7/8, 5/8, 1/8."""
    import numpy as np

    src = project / "k.cu"
    src.write_text(SOBOL.replace("v[threadIdx.x] = dirs[threadIdx.x]", "v[threadIdx.x] = 1u << (31 - threadIdx.x)"))
    saved = project / "run.npz"
    res = runner.invoke(app, ["run", str(src), "-k", "sobol_points", "--grid", "1", "--block", "64",
                              "--buffer", "out=float32:64", "--buffer", "dirs=uint32:32", "--save", str(saved)])
    assert res.exit_code == 0, res.output
    out = np.load(saved)["out.out"]
    assert np.allclose(out[:8], [0, 0.5, 0.75, 0.25, 0.375, 0.875, 0.625, 0.125], atol=1e-9)
