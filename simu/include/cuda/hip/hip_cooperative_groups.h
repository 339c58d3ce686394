/* simu shim <hip/hip_cooperative_groups.h>: HIP's header on simu's CUDA model (see hip/hip_runtime.h). */
#pragma once
#include <hip/hip_runtime.h>
#include <cooperative_groups.h>
