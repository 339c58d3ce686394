/* simu shim <hip/math_functions.h>: HIP's header on simu's CUDA model (see hip/hip_runtime.h). */
#pragma once
#include <hip/hip_runtime.h>
#include <cuda_runtime.h>
