// simu's stand-in for the tensor accessors of PyTorch's C++ extension API, device side only: what a kernel of a
// PyTorch extension takes as parameters (`at::PackedTensorAccessor64<scalar_t, 3, at::RestrictPtrTraits> p`) and
// does with them (`p.size(0)`, `p[n][i][d]`).  A packed accessor is a data pointer with the tensor's sizes and
// strides, passed to the kernel by value; indexing it walks the strides.  simu gives a launch's packed accessor
// a buffer behind `data_` and writes a contiguous shape of that buffer's elements into `sizes_` and `strides_`
// (simu/ir/pointers.py, simu/interp/members.py).  Used only when the project does not provide its own ATen.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace at {

template <typename T>
struct DefaultPtrTraits {
  typedef T *PtrType;
};

template <typename T>
struct RestrictPtrTraits {
  typedef T *__restrict__ PtrType;
};

template <typename T, size_t N, template <typename U> class PtrTraits, typename index_t>
class TensorAccessor;

// what both accessors do: Shape is where the sizes and strides live (`const index_t *` into a packed accessor, or
// the packed accessor's own `index_t[N]`); indexing dimension 0 gives a TensorAccessor of the rest
template <typename T, size_t N, template <typename U> class PtrTraits, typename index_t, typename Shape>
class __simu_accessor {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  typedef TensorAccessor<T, N - 1, PtrTraits, index_t> Row;
  __host__ __device__ Row operator[](index_t i) { return Row(data_ + strides_[0] * i, sizes_ + 1, strides_ + 1); }
  __host__ __device__ const Row operator[](index_t i) const {
    return Row(data_ + strides_[0] * i, sizes_ + 1, strides_ + 1);
  }
  __host__ __device__ index_t size(index_t d) const { return sizes_[d]; }
  __host__ __device__ index_t stride(index_t d) const { return strides_[d]; }
  __host__ __device__ PtrType data() { return data_; }
  __host__ __device__ const T *data() const { return data_; }

 protected:
  PtrType data_;
  Shape sizes_;
  Shape strides_;
};

template <typename T, template <typename U> class PtrTraits, typename index_t, typename Shape>
class __simu_accessor<T, 1, PtrTraits, index_t, Shape> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  __host__ __device__ T &operator[](index_t i) { return data_[strides_[0] * i]; }
  __host__ __device__ const T &operator[](index_t i) const { return data_[strides_[0] * i]; }
  __host__ __device__ index_t size(index_t d) const { return sizes_[d]; }
  __host__ __device__ index_t stride(index_t d) const { return strides_[d]; }
  __host__ __device__ PtrType data() { return data_; }
  __host__ __device__ const T *data() const { return data_; }

 protected:
  PtrType data_;
  Shape sizes_;
  Shape strides_;
};

// a view into a packed accessor, from one of its dimensions on
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
class TensorAccessor : public __simu_accessor<T, N, PtrTraits, index_t, const index_t *> {
 public:
  __host__ __device__ TensorAccessor(typename PtrTraits<T>::PtrType data, const index_t *sizes,
                                     const index_t *strides) {
    this->data_ = data;
    this->sizes_ = sizes;
    this->strides_ = strides;
  }
};

// the accessor a kernel takes by value: the data pointer, then the N sizes, then the N strides
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
class GenericPackedTensorAccessor : public __simu_accessor<T, N, PtrTraits, index_t, index_t[N]> {};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
using PackedTensorAccessor = GenericPackedTensorAccessor<T, N, PtrTraits, index_t>;

}  // namespace at
