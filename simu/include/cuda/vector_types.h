/* simu shim <vector_types.h>: char1..double4, dim3, uint3 (from __simu_defs.h). */
#ifndef __SIMU_VECTOR_TYPES_H
#define __SIMU_VECTOR_TYPES_H
#include "__simu_defs.h"
#endif
