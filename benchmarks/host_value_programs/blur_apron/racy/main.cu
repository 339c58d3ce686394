#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK_CUDA(expr)                                                        \
    do {                                                                        \
        cudaError_t _e = (expr);                                                \
        if (_e != cudaSuccess) {                                                \
            fprintf(stderr, "%s -> %s\n", #expr, cudaGetErrorString(_e));       \
            return 1;                                                           \
        }                                                                       \
    } while (0)

static constexpr int R = 1;
static constexpr int IN_TILE = 16;
static constexpr int OUT_TILE = IN_TILE - 2 * R;

__constant__ float c_kernel[3][3] = {
    {1.0f / 16, 2.0f / 16, 1.0f / 16},
    {2.0f / 16, 4.0f / 16, 2.0f / 16},
    {1.0f / 16, 2.0f / 16, 1.0f / 16}};

__global__ void gaussBlur3x3(const float *img, float *out, int w, int h)
{
    extern __shared__ float tile[];
    const int bw = blockDim.x;
    const int bh = blockDim.y;
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;

    int ox = blockIdx.x * OUT_TILE + tx - R;
    int oy = blockIdx.y * OUT_TILE + ty - R;
    int cx = min(max(ox, 0), w - 1);
    int cy = min(max(oy, 0), h - 1);
    tile[ty * bw + tx] = img[cy * w + cx];
    __syncthreads();

    float acc = 0.0f;
    for (int dy = -R; dy <= R; ++dy) {
        int sy = min(max(ty + dy, 0), bh - 1);
        for (int dx = -R; dx <= R; ++dx) {
            int sx = min(max(tx + dx, 0), bw - 1);
            acc += c_kernel[dy + R][dx + R] * tile[sy * bw + sx];
        }
    }
    if (ox >= 0 && oy >= 0 && ox < w && oy < h)
        out[oy * w + ox] = acc;
}

static void blurCpu(const std::vector<float> &img, std::vector<float> &out, int w, int h)
{
    static const float k[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            float acc = 0.0f;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    int sx = std::min(std::max(x + dx, 0), w - 1);
                    int sy = std::min(std::max(y + dy, 0), h - 1);
                    acc += k[dy + 1][dx + 1] / 16.0f * img[sy * w + sx];
                }
            out[y * w + x] = acc;
        }
}

int main(int argc, char **argv)
{
    int w = argc > 1 ? atoi(argv[1]) : 560;
    int h = argc > 2 ? atoi(argv[2]) : 420;
    assert(w % OUT_TILE == 0 && h % OUT_TILE == 0);

    std::vector<float> img((size_t)w * h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            img[(size_t)y * w + x] = ((x / 7 + y / 5) % 2 ? 200.0f : 30.0f) + 10.0f * sinf(0.05f * x * y);

    float *d_img, *d_out;
    size_t bytes = img.size() * sizeof(float);
    CHECK_CUDA(cudaMalloc(&d_img, bytes));
    CHECK_CUDA(cudaMalloc(&d_out, bytes));
    CHECK_CUDA(cudaMemcpy(d_img, img.data(), bytes, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_out, 0, bytes));

    dim3 block;
    block.x = IN_TILE;
    block.y = IN_TILE;
    dim3 grid;
    grid.x = w / OUT_TILE;
    grid.y = h / OUT_TILE;
    size_t shmem = block.x * block.y * sizeof(float);

    gaussBlur3x3<<<grid, block, shmem>>>(d_img, d_out, w, h);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());

    std::vector<float> got(img.size()), ref(img.size());
    CHECK_CUDA(cudaMemcpy(got.data(), d_out, bytes, cudaMemcpyDeviceToHost));
    blurCpu(img, ref, w, h);

    double maxErr = 0.0, sum = 0.0;
    int wrong = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        double e = fabs((double)got[i] - ref[i]);
        maxErr = fmax(maxErr, e);
        wrong += e > 1e-3;
        sum += got[i];
    }
    printf("blur %dx%d: mean %.4f, max err %.3e, %d wrong pixels -> %s\n", w, h, sum / got.size(),
           maxErr, wrong, wrong ? "MISMATCH" : "OK");
    cudaFree(d_img);
    cudaFree(d_out);
    return wrong ? 1 : 0;
}
