#include <cuda_runtime.h>

void extract(float *image, int levels);

int main() {
    float *image;
    cudaMalloc(&image, 1024 * sizeof(float));
    extract(image, 5);
    cudaDeviceSynchronize();
    return 0;
}
