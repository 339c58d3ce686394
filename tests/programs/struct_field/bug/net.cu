// Bug: hidden units t and t + 8 share a slot of the staging array.
#include <cstdlib>
#include <cuda_runtime.h>
#include "net.h"

Net *create(int inputs, int hidden, int outputs) {
    Net *net = (Net *)malloc(sizeof(Net));
    net->hidden_n = hidden;
    cudaMalloc(&net->weights, inputs * hidden * outputs * sizeof(float));
    return net;
}

__global__ void hidden_layer(float *buf, int hid) {
    __shared__ float h[16];
    if (threadIdx.x < hid)
        h[threadIdx.x % 8] = buf[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int k = 0; k < 16 && k < hid; k++)
            s += h[k];
        buf[0] = s;
    }
}

void forward(Net *net, float *buf) {
    int hid = net->hidden_n;
    hidden_layer<<<1, 32>>>(buf, hid);
}
