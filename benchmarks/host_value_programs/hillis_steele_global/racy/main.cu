#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>
#include <cuda_runtime.h>

static void cudaAssert(cudaError_t e, int line)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "CUDA failure at line %d: %s\n", line, cudaGetErrorString(e));
        exit(1);
    }
}
#define CA(x) cudaAssert((x), __LINE__)

template <typename T>
class DeviceArray {
public:
    explicit DeviceArray(size_t n) : n_(n) { CA(cudaMalloc(&p_, n * sizeof(T))); }
    ~DeviceArray() { cudaFree(p_); }
    DeviceArray(const DeviceArray &) = delete;
    DeviceArray &operator=(const DeviceArray &) = delete;
    T *data() { return p_; }
    size_t size() const { return n_; }
    void copyFrom(const std::vector<T> &h) { CA(cudaMemcpy(p_, h.data(), n_ * sizeof(T), cudaMemcpyHostToDevice)); }
    void copyTo(std::vector<T> &h) const
    {
        h.resize(n_);
        CA(cudaMemcpy(h.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
    }

private:
    T *p_ = nullptr;
    size_t n_;
};

__global__ void scanStep(long long *data, int n, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && i >= offset)
        data[i] += data[i - offset];
}

static bool runScan(int n)
{
    std::vector<long long> h(n);
    for (int i = 0; i < n; ++i)
        h[i] = (i * 37 + 11) % 101 - 50;

    DeviceArray<long long> a(n);
    a.copyFrom(h);
    const int threads = 256;
    const int blocks = (int)((a.size() + threads - 1) / threads);
    for (int offset = 1; offset < (int)a.size(); offset <<= 1) {
        scanStep<<<blocks, threads>>>(a.data(), (int)a.size(), offset);
        CA(cudaGetLastError());
    }
    std::vector<long long> out;
    a.copyTo(out);

    long long run = 0;
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        run += h[i];
        bad += out[i] != run;
    }
    printf("n = %6d: last prefix %lld (expected %lld), %d wrong -> %s\n", n, out[n - 1], run, bad,
           bad ? "MISMATCH" : "OK");
    return bad == 0;
}

int main()
{
    int sizes[] = {1000, 4096, 1 << 20};
    int failures = 0;
    for (int s = 0; s < (int)(sizeof(sizes) / sizeof(sizes[0])); ++s)
        failures += runScan(sizes[s]) ? 0 : 1;
    return failures ? 1 : 0;
}
