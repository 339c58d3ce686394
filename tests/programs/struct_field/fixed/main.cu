#include <cuda_runtime.h>
#include "net.h"

int main() {
    Net *net = create(3, 16, 1);
    float *buf;
    cudaMalloc(&buf, 32 * sizeof(float));
    forward(net, buf);
    cudaDeviceSynchronize();
    return 0;
}
