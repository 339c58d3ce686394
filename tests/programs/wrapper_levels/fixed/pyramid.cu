// Counts features per octave in a 17-slot device table: slots octave * 3 and octave * 3 + 1.
// Fixed twin: the program's octaves 1..5 use slots 3..16.
#include <cuda_runtime.h>

__device__ int counts[17];

__global__ void count_level(int octave) {
    atomicAdd(&counts[octave * 3 + threadIdx.x % 2], 1);
}

void level(int octave) {
    count_level<<<1, 64>>>(octave);
}

void octaves(int levels) {
    if (levels == 0)
        return;
    level(levels);
    octaves(levels - 1);
}

void extract(float *image, int levels) {
    octaves(levels);
}
