// simu's stand-in for the host side of PyTorch's C++ tensor API: declarations only (nothing here is ever run or
// linked), so that the host functions of a PyTorch extension parse -- simu reads its launches, their grids and the
// scalars it passes from them (`auto n = x.size(0); k<<<(n + 255) / 256, 256>>>(n, ...)`) -- and so that the device
// compile of a .cu file keeps its host code instead of leaving it out.  Standard headers only where there are.
#pragma once

#include <stddef.h>
#include <stdint.h>

// what PyTorch's headers bring along and extensions use without including it (std::min, std::vector)
#if defined(__has_include)
#if __has_include(<algorithm>)
#include <algorithm>
#endif
#if __has_include(<vector>)
#include <vector>
#endif
#endif

namespace c10 {
enum class ScalarType : int8_t { Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16, Undefined };
enum class DeviceType : int8_t { CPU, CUDA };
enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast };

struct Device {
  Device(DeviceType type, int8_t index = -1);
  DeviceType type() const;
  int8_t index() const;
  bool is_cuda() const;
};

// a list of sizes: a braced list ({n, c, h}) or another tensor's sizes()
class IntArrayRef {
 public:
  IntArrayRef();
  IntArrayRef(const int64_t &one);
  template <size_t N>
  IntArrayRef(const int64_t (&values)[N]);
  const int64_t *data() const;
  size_t size() const;
  int64_t operator[](size_t i) const;
  const int64_t *begin() const;
  const int64_t *end() const;
};

class TensorOptions {
 public:
  TensorOptions();
  TensorOptions(ScalarType dtype);
  TensorOptions(Device device);
  TensorOptions dtype(ScalarType dtype) const;
  TensorOptions device(Device device) const;
  TensorOptions requires_grad(bool on) const;
  TensorOptions layout(int layout) const;
};
}  // namespace c10

namespace at {
using c10::Device;
using c10::DeviceType;
using c10::IntArrayRef;
using c10::MemoryFormat;
using c10::ScalarType;
using c10::TensorOptions;

constexpr ScalarType kByte = ScalarType::Byte, kChar = ScalarType::Char, kShort = ScalarType::Short,
                     kInt = ScalarType::Int, kLong = ScalarType::Long, kHalf = ScalarType::Half,
                     kFloat = ScalarType::Float, kDouble = ScalarType::Double, kBool = ScalarType::Bool,
                     kBFloat16 = ScalarType::BFloat16, kInt32 = ScalarType::Int, kInt64 = ScalarType::Long,
                     kFloat16 = ScalarType::Half, kFloat32 = ScalarType::Float, kFloat64 = ScalarType::Double,
                     kUInt8 = ScalarType::Byte;
constexpr DeviceType kCPU = DeviceType::CPU, kCUDA = DeviceType::CUDA;

template <typename T, size_t N, template <typename U> class PtrTraits, typename index_t>
class GenericPackedTensorAccessor;
template <typename T, size_t N, template <typename U> class PtrTraits, typename index_t>
class TensorAccessor;
template <typename T>
struct DefaultPtrTraits;

class Tensor {
 public:
  Tensor();
  int64_t size(int64_t dim) const;
  IntArrayRef sizes() const;
  int64_t stride(int64_t dim) const;
  IntArrayRef strides() const;
  int64_t numel() const;
  int64_t dim() const;
  int64_t ndimension() const;
  size_t element_size() const;
  size_t nbytes() const;
  bool defined() const;
  bool is_cuda() const;
  bool is_contiguous(MemoryFormat format = MemoryFormat::Contiguous) const;
  bool requires_grad() const;
  ScalarType scalar_type() const;
  ScalarType dtype() const;
  TensorOptions options() const;
  Device device() const;
  void *data_ptr() const;
  template <typename T>
  T *data_ptr() const;
  template <typename T>
  T *data() const;
  template <typename T>
  T item() const;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
  GenericPackedTensorAccessor<T, N, PtrTraits, index_t> packed_accessor() const;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  GenericPackedTensorAccessor<T, N, PtrTraits, int32_t> packed_accessor32() const;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  GenericPackedTensorAccessor<T, N, PtrTraits, int64_t> packed_accessor64() const;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  GenericPackedTensorAccessor<T, N, PtrTraits, int64_t> generic_packed_accessor() const;
  Tensor contiguous(MemoryFormat format = MemoryFormat::Contiguous) const;
  Tensor clone() const;
  Tensor detach() const;
  Tensor to(ScalarType dtype) const;
  Tensor to(Device device) const;
  Tensor to(TensorOptions options) const;
  Tensor cpu() const;
  Tensor cuda() const;
  Tensor view(IntArrayRef sizes) const;
  Tensor reshape(IntArrayRef sizes) const;
  Tensor flatten(int64_t start = 0, int64_t end = -1) const;
  Tensor squeeze(int64_t dim) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor permute(IntArrayRef dims) const;
  Tensor transpose(int64_t a, int64_t b) const;
  Tensor expand(IntArrayRef sizes) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor slice(int64_t dim, int64_t start, int64_t end, int64_t step = 1) const;
  Tensor operator[](int64_t index) const;
  Tensor &zero_();
  Tensor &fill_(double value);
  Tensor &copy_(const Tensor &other);
  Tensor &resize_(IntArrayRef sizes);
  Tensor sum() const;
  Tensor max() const;
  Tensor min() const;
};

Tensor zeros(IntArrayRef sizes, TensorOptions options = TensorOptions());
Tensor ones(IntArrayRef sizes, TensorOptions options = TensorOptions());
Tensor empty(IntArrayRef sizes, TensorOptions options = TensorOptions());
Tensor full(IntArrayRef sizes, double value, TensorOptions options = TensorOptions());
Tensor arange(int64_t end, TensorOptions options = TensorOptions());
Tensor zeros_like(const Tensor &like, TensorOptions options = TensorOptions());
Tensor ones_like(const Tensor &like, TensorOptions options = TensorOptions());
Tensor empty_like(const Tensor &like, TensorOptions options = TensorOptions());
Tensor full_like(const Tensor &like, double value, TensorOptions options = TensorOptions());

namespace cuda {
cudaStream_t getCurrentCUDAStream(int8_t device = -1);
cudaStream_t getDefaultCUDAStream(int8_t device = -1);
int getNumGPUs();
}  // namespace cuda
}  // namespace at

namespace torch {
using namespace at;
}  // namespace torch

// the checks host functions make: simu reads them as conditions on the path to a launch where it can
#define TORCH_CHECK(cond, ...) ((void)(cond))
#define TORCH_INTERNAL_ASSERT(cond, ...) ((void)(cond))
#define AT_ASSERTM(cond, ...) ((void)(cond))
#define AT_ASSERT(cond, ...) ((void)(cond))
#define AT_CHECK(cond, ...) ((void)(cond))
#define C10_CUDA_KERNEL_LAUNCH_CHECK() ((void)0)
#define AT_CUDA_CHECK(expr) ((void)(expr))
#define C10_CUDA_CHECK(expr) ((void)(expr))
#define AT_ERROR(...) ((void)0)
#ifndef TORCH_EXTENSION_NAME
#define TORCH_EXTENSION_NAME simu_extension
#endif
