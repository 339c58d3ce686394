// expect: clean
// launch: grid=64,32 block=1 img=uint8:8192
// Whole program: one thread per pixel on a W x H grid of one-thread blocks; the image is W*H*4 bytes
// (RGBA) allocated by cudaMalloc, so every write is in bounds on the host's launch.
#include <cuda_runtime.h>

#define W 64
#define H 32

__global__ void fill(unsigned char *img) {
    int x = blockIdx.x, y = blockIdx.y;
    int i = (y * gridDim.x + x) * 4;
    img[i] = x; img[i + 1] = y; img[i + 2] = 0; img[i + 3] = 255;
}

int main() {
    unsigned char *img;
    cudaMalloc(&img, W * H * 4);
    fill<<<dim3(W, H), 1>>>(img);
    cudaDeviceSynchronize();
    return 0;
}
