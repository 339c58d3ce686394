// expect: clean
// launch: grid=1 block=64 a=int32:65
// Whole program: the fixed version of no_block_id_shift_left_race.cu: every thread reads its neighbour
// into a register, the block waits at a barrier, then every thread writes. One block (the kernel reads
// no block id; the host launches one), so the block barrier orders every read before every write.
#include <cuda_runtime.h>

__global__ void shift_left(int *a) {
    unsigned t = threadIdx.x;
    int v = a[t + 1];
    __syncthreads();
    a[t] = v;
}

int main() {
    int *a;
    cudaMalloc(&a, 65 * sizeof(int));
    shift_left<<<1, 64>>>(a);
    cudaDeviceSynchronize();
    return 0;
}
