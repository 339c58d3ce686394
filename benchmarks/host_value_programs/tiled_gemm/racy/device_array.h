#pragma once
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define GPU_CHECK(call)                                                         \
    do {                                                                        \
        cudaError_t e_ = (call);                                                \
        if (e_ != cudaSuccess) {                                                \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                    cudaGetErrorString(e_));                                    \
            std::exit(1);                                                       \
        }                                                                       \
    } while (0)

template <typename T>
class DeviceArray {
public:
    DeviceArray() = default;
    explicit DeviceArray(size_t n) { allocate(n); }
    ~DeviceArray() { release(); }
    DeviceArray(const DeviceArray &) = delete;
    DeviceArray &operator=(const DeviceArray &) = delete;

    void allocate(size_t n)
    {
        release();
        if (n > 0)
            GPU_CHECK(cudaMalloc(&ptr_, n * sizeof(T)));
        n_ = n;
    }
    void release()
    {
        if (ptr_)
            cudaFree(ptr_);
        ptr_ = nullptr;
        n_ = 0;
    }
    void upload(const std::vector<T> &h)
    {
        GPU_CHECK(cudaMemcpy(ptr_, h.data(), std::min(h.size(), n_) * sizeof(T),
                             cudaMemcpyHostToDevice));
    }
    void download(std::vector<T> &h) const
    {
        h.resize(n_);
        GPU_CHECK(cudaMemcpy(h.data(), ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
    }
    T *data() { return ptr_; }
    const T *data() const { return ptr_; }
    size_t size() const { return n_; }

private:
    T *ptr_ = nullptr;
    size_t n_ = 0;
};
