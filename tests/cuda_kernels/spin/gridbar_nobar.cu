__global__ void twophase(const int *in, int *mid, int *out, unsigned *count, int n)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid < n) mid[gid] = in[gid] * 2;
    if (threadIdx.x == 0) {
        atomicAdd(count, 1);
        while (atomicAdd(count, 0) < gridDim.x) { }
    }
    __syncthreads();
    if (gid < n) out[gid] = mid[(gid + 64) % n];
}
