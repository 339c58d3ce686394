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

// a view into a packed accessor: the sizes and strides are the accessor's, from dimension N on
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
class TensorAccessor {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  __host__ __device__ TensorAccessor(PtrType data, const index_t *sizes, const index_t *strides)
      : data_(data), sizes_(sizes), strides_(strides) {}
  __host__ __device__ TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(data_ + strides_[0] * i, sizes_ + 1, strides_ + 1);
  }
  __host__ __device__ const TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) const {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(data_ + strides_[0] * i, sizes_ + 1, strides_ + 1);
  }
  __host__ __device__ index_t size(index_t d) const { return sizes_[d]; }
  __host__ __device__ index_t stride(index_t d) const { return strides_[d]; }
  __host__ __device__ PtrType data() { return data_; }
  __host__ __device__ const T *data() const { return data_; }

 protected:
  PtrType data_;
  const index_t *sizes_;
  const index_t *strides_;
};

template <typename T, template <typename U> class PtrTraits, typename index_t>
class TensorAccessor<T, 1, PtrTraits, index_t> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  __host__ __device__ TensorAccessor(PtrType data, const index_t *sizes, const index_t *strides)
      : data_(data), sizes_(sizes), strides_(strides) {}
  __host__ __device__ T &operator[](index_t i) { return data_[strides_[0] * i]; }
  __host__ __device__ const T &operator[](index_t i) const { return data_[strides_[0] * i]; }
  __host__ __device__ index_t size(index_t d) const { return sizes_[d]; }
  __host__ __device__ index_t stride(index_t d) const { return strides_[d]; }
  __host__ __device__ PtrType data() { return data_; }
  __host__ __device__ const T *data() const { return data_; }

 protected:
  PtrType data_;
  const index_t *sizes_;
  const index_t *strides_;
};

// the accessor a kernel takes by value: the data pointer, then the N sizes, then the N strides
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
class GenericPackedTensorAccessor {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  __host__ __device__ TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(data_ + strides_[0] * i, sizes_ + 1, strides_ + 1);
  }
  __host__ __device__ const TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) const {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(data_ + strides_[0] * i, sizes_ + 1, strides_ + 1);
  }
  __host__ __device__ index_t size(index_t d) const { return sizes_[d]; }
  __host__ __device__ index_t stride(index_t d) const { return strides_[d]; }
  __host__ __device__ PtrType data() { return data_; }
  __host__ __device__ const T *data() const { return data_; }

 protected:
  PtrType data_;
  index_t sizes_[N];
  index_t strides_[N];
};

template <typename T, template <typename U> class PtrTraits, typename index_t>
class GenericPackedTensorAccessor<T, 1, PtrTraits, index_t> {
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
  index_t sizes_[1];
  index_t strides_[1];
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
using PackedTensorAccessor = GenericPackedTensorAccessor<T, N, PtrTraits, index_t>;

}  // namespace at
