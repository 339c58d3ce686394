// simu stand-in for <torch/extension.h>: the tensor API (see ATen/ATen.h) and pybind11's module definition,
// declarations only.
#pragma once

#include "ATen/ATen.h"
#include "ATen/Dispatch.h"
#include "ATen/cuda/CUDAContext.h"
#include "c10/cuda/CUDAGuard.h"

namespace pybind11 {
struct arg {
  arg(const char *name);
  template <typename T>
  arg &operator=(const T &value);
};
class module_ {
 public:
  template <typename F, typename... Extra>
  module_ &def(const char *name, F &&f, const Extra &...extra);
};
}  // namespace pybind11
namespace py = pybind11;

#define PYBIND11_MODULE(name, variable) void __simu_pybind11_module_##name(pybind11::module_ &variable)
#define TORCH_LIBRARY(ns, m) void __simu_torch_library_##ns(pybind11::module_ &m)
