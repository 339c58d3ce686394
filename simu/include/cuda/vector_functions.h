/* simu shim <vector_functions.h>: make_char1 ... make_double4 (from __simu_defs.h). */
#ifndef __SIMU_VECTOR_FUNCTIONS_H
#define __SIMU_VECTOR_FUNCTIONS_H
#include "__simu_defs.h"
#endif
