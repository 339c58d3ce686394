// simu's stand-in for <ATen/ATen.h>: the tensor accessors and the number types kernels of PyTorch extensions take
// (ATen/core/TensorAccessor.h), and the host tensor API declared, never defined (ATen/core/Tensor.h), so that the
// host functions parse and simu reads their launches.  A host construct it lacks is left out (simu analyses the
// kernels from the file's device-only slice).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "ATen/core/TensorAccessor.h"

namespace c10 {
typedef __half Half;
typedef __nv_bfloat16 BFloat16;
}  // namespace c10

namespace at {
using c10::BFloat16;
using c10::Half;
}  // namespace at

#include "ATen/core/Tensor.h"
#include "ATen/Dispatch.h"
