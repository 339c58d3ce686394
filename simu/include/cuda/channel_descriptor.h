/* simu shim <channel_descriptor.h>: texture and surface objects, see __simu_texture.h. */
#ifndef __SIMU_CHANNEL_DESCRIPTOR_H
#define __SIMU_CHANNEL_DESCRIPTOR_H
#include "cuda_runtime.h"
#endif
