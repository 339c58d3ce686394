// simu stand-in (declarations only): see ATen/ATen.h
#pragma once

#include "ATen/ATen.h"

namespace c10 {
namespace cuda {
struct CUDAGuard {
  explicit CUDAGuard(Device device);
  explicit CUDAGuard(int8_t index);
};
struct OptionalCUDAGuard {
  OptionalCUDAGuard();
  explicit OptionalCUDAGuard(Device device);
};
}  // namespace cuda
}  // namespace c10

namespace at {
namespace cuda {
using c10::cuda::CUDAGuard;
using c10::cuda::OptionalCUDAGuard;
}  // namespace cuda
Device device_of(const Tensor &t);
}  // namespace at
