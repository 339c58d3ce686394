// simu stand-in for PyTorch's CUDA atomics header (device side only): gpuAtomicAdd is CUDA's atomicAdd.
#pragma once

#include "ATen/ATen.h"

template <typename T>
__device__ inline T gpuAtomicAdd(T *address, T value) {
  return atomicAdd(address, value);
}
