// expect: race global read-write line 12
// launch: grid=1 block=64 a=int32:65
// Whole program: one block of 64 threads shifts an array left in place; the kernel reads no block id, so
// its contract is one block (the host launches one).
// BUG: thread t reads a[t + 1] while thread t + 1 writes it, with no barrier between: threads 31 and 32
// are in different warps, so nothing orders the read and the write. Fixed version:
// no_block_id_shift_left_fixed.cu.
#include <cuda_runtime.h>

__global__ void shift_left(int *a) {
    unsigned t = threadIdx.x;
    a[t] = a[t + 1];
}

int main() {
    int *a;
    cudaMalloc(&a, 65 * sizeof(int));
    shift_left<<<1, 64>>>(a);
    cudaDeviceSynchronize();
    return 0;
}
