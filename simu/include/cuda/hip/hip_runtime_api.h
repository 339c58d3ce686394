/* simu shim <hip/hip_runtime_api.h>: HIP's header on simu's CUDA model (see hip/hip_runtime.h). */
#pragma once
#include <hip/hip_runtime.h>
