// simu stand-in for PyTorch's CUDA apply utilities (device side only): the ceiling division kernels call.
#pragma once

#include "ATen/ATen.h"
#include "ATen/ceil_div.h"

namespace at {
namespace cuda {
template <typename T>
__host__ __device__ inline T ATenCeilDiv(T a, T b) {
  return (a + b - 1) / b;
}
}  // namespace cuda
}  // namespace at
