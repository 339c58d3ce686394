__global__ void chained(const int *in, int *out, volatile int *flag, volatile int *agg, int n)
{
    __shared__ int carry;
    int b = blockIdx.x;
    int gid = b * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) {
        int prev = 0;
        if (b > 0) {
            while (flag[b - 1] == 0) { }
            prev = agg[b - 1];
        }
        carry = prev;
        agg[b] = prev + in[b];
        __threadfence();
        flag[b] = 1;
    }
    __syncthreads();
    if (gid < n) out[gid] = in[gid] + carry;
}
