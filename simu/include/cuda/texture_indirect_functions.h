/* simu shim <texture_indirect_functions.h>: texture and surface objects, see __simu_texture.h. */
#ifndef __SIMU_TEXTURE_INDIRECT_FUNCTIONS_H
#define __SIMU_TEXTURE_INDIRECT_FUNCTIONS_H
#include "cuda_runtime.h"
#endif
