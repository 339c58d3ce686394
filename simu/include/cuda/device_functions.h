/* simu shim <device_functions.h>: the device intrinsics (barriers, atomics, warp functions,
 * math and integer intrinsics); all come with cuda_runtime.h. */
#ifndef __SIMU_DEVICE_FUNCTIONS_H
#define __SIMU_DEVICE_FUNCTIONS_H
#include "cuda_runtime.h"
#endif
