/* simu shim <hip/hip_bf16.h>: HIP's header on simu's CUDA model (see hip/hip_runtime.h). */
#pragma once
#include <hip/hip_runtime.h>
#include <cuda_bf16.h>
