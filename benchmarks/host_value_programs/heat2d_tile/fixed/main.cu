#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                       \
                    cudaGetErrorString(err_), __FILE__, __LINE__);              \
            exit(EXIT_FAILURE);                                                 \
        }                                                                       \
    } while (0)

static constexpr int TILE_X = 32;
static constexpr int TILE_Y = 8;

// Explicit FTCS step of the 2D heat equation with zero-flux boundaries.
__global__ void heatStep(const float *__restrict__ u, float *__restrict__ unew,
                         int nx, int ny, float alpha)
{
    __shared__ float tile[TILE_Y + 2][TILE_X + 2];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int gx = blockIdx.x * TILE_X + tx;
    int gy = blockIdx.y * TILE_Y + ty;
    int id = gy * nx + gx;

    float c = u[id];
    tile[ty + 1][tx + 1] = c;
    if (tx == 0)
        tile[ty + 1][0] = gx > 0 ? u[id - 1] : c;
    if (tx == TILE_X - 1)
        tile[ty + 1][TILE_X + 1] = gx < nx - 1 ? u[id + 1] : c;
    if (ty == 0)
        tile[0][tx + 1] = gy > 0 ? u[id - nx] : c;
    if (ty == TILE_Y - 1)
        tile[TILE_Y + 1][tx + 1] = gy < ny - 1 ? u[id + nx] : c;
    __syncthreads();

    float lap = tile[ty + 1][tx] + tile[ty + 1][tx + 2] +
                tile[ty][tx + 1] + tile[ty + 2][tx + 1] - 4.0f * tile[ty + 1][tx + 1];
    unew[id] = c + alpha * lap;
}

static void heatStepCpu(const std::vector<float> &u, std::vector<float> &unew,
                        int nx, int ny, float alpha)
{
    for (int y = 0; y < ny; ++y) {
        for (int x = 0; x < nx; ++x) {
            float c = u[y * nx + x];
            float l = x > 0 ? u[y * nx + x - 1] : c;
            float r = x < nx - 1 ? u[y * nx + x + 1] : c;
            float d = y > 0 ? u[(y - 1) * nx + x] : c;
            float t = y < ny - 1 ? u[(y + 1) * nx + x] : c;
            unew[y * nx + x] = c + alpha * (l + r + d + t - 4.0f * c);
        }
    }
}

int main(int argc, char **argv)
{
    int nx = argc > 1 ? atoi(argv[1]) : 256;
    int ny = argc > 2 ? atoi(argv[2]) : 128;
    int steps = argc > 3 ? atoi(argv[3]) : 20;
    const float alpha = 0.2f;

    assert(nx % TILE_X == 0 && ny % TILE_Y == 0);

    size_t cells = (size_t)nx * ny;
    std::vector<float> h_u(cells, 0.0f);
    for (int y = ny / 4; y < 3 * ny / 4; ++y)
        for (int x = nx / 4; x < 3 * nx / 4; ++x)
            h_u[y * nx + x] = 100.0f + 10.0f * sinf(0.1f * x) * cosf(0.07f * y);

    float *d_a = nullptr, *d_b = nullptr;
    CUDA_CHECK(cudaMalloc(&d_a, cells * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_b, cells * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_a, h_u.data(), cells * sizeof(float), cudaMemcpyHostToDevice));

    dim3 block;
    block.x = TILE_X;
    block.y = TILE_Y;
    dim3 grid;
    grid.x = nx / TILE_X;
    grid.y = ny / TILE_Y;

    for (int s = 0; s < steps; ++s) {
        heatStep<<<grid, block>>>(d_a, d_b, nx, ny, alpha);
        CUDA_CHECK(cudaGetLastError());
        float *tmp = d_a;
        d_a = d_b;
        d_b = tmp;
    }
    CUDA_CHECK(cudaDeviceSynchronize());

    std::vector<float> h_gpu(cells);
    CUDA_CHECK(cudaMemcpy(h_gpu.data(), d_a, cells * sizeof(float), cudaMemcpyDeviceToHost));

    std::vector<float> ref = h_u, tmp(cells);
    for (int s = 0; s < steps; ++s) {
        heatStepCpu(ref, tmp, nx, ny, alpha);
        ref.swap(tmp);
    }

    double heat0 = 0.0, heat = 0.0, maxErr = 0.0;
    for (size_t i = 0; i < cells; ++i) {
        heat0 += h_u[i];
        heat += h_gpu[i];
        maxErr = fmax(maxErr, fabs((double)h_gpu[i] - ref[i]));
    }
    printf("grid %d x %d, %d steps\n", nx, ny, steps);
    printf("total heat: initial %.3f final %.3f\n", heat0, heat);
    printf("max |gpu - cpu| = %.3e -> %s\n", maxErr, maxErr < 1e-3 ? "OK" : "MISMATCH");

    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    return maxErr < 1e-3 ? 0 : 1;
}
