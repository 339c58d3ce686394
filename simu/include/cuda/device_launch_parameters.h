/* simu shim <device_launch_parameters.h>: threadIdx, blockIdx, blockDim, gridDim, warpSize
 * (all defined by cuda_runtime.h, which is always included first). */
#ifndef __SIMU_DEVICE_LAUNCH_PARAMETERS_H
#define __SIMU_DEVICE_LAUNCH_PARAMETERS_H
#include "cuda_runtime.h"
#endif
