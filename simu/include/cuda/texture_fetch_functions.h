/* simu shim <texture_fetch_functions.h>: texture and surface objects, see __simu_texture.h. */
#ifndef __SIMU_TEXTURE_FETCH_FUNCTIONS_H
#define __SIMU_TEXTURE_FETCH_FUNCTIONS_H
#include "cuda_runtime.h"
#endif
