/* simu shim <math.h>: the CUDA math library (float and double functions, C++ overloads,
 * M_PI & co.); it is already part of cuda_runtime.h. See __simu_math.h. */
#ifndef __SIMU_MATH_H_PUBLIC
#define __SIMU_MATH_H_PUBLIC
#include "cuda_runtime.h"
#endif
