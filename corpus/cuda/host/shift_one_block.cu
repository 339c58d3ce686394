// expect: clean
// launch: grid=1 block=16 a=int8:16 b=int32:16
// Whole program: main launches shift on one block of 16 threads; the kernel reads no block id, and
// the host's launch (grid 1, block 16, buffers of 16) is the only one the program makes.
#include <cuda_runtime.h>

__global__ void shift(char *a, const int *b) { a[threadIdx.x] += b[threadIdx.x]; }

int main() {
    char *a;
    int *b;
    cudaMalloc(&a, 16 * sizeof(char));
    cudaMalloc(&b, 16 * sizeof(int));
    shift<<<1, 16>>>(a, b);
    cudaDeviceSynchronize();
    return 0;
}
