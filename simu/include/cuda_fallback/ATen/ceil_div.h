// simu stand-in for PyTorch's at::ceil_div (host and device).
#pragma once

namespace at {
template <typename T>
__host__ __device__ inline T ceil_div(T a, T b) {
  return (a + b - 1) / b;
}
}  // namespace at
