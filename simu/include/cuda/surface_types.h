/* simu shim <surface_types.h>: texture and surface objects, see __simu_texture.h. */
#ifndef __SIMU_SURFACE_TYPES_H
#define __SIMU_SURFACE_TYPES_H
#include "cuda_runtime.h"
#endif
