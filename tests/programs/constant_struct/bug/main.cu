// The host keeps its device buffers in a __constant__ struct (cudaMemcpyToSymbol); the kernel reaches them
// through it. Two threads write each element: a race.
struct Buffers {
  float *in;
  float *out;
};
__constant__ Buffers B;

__global__ void halve(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) B.out[i / 2] = B.in[i] * 0.5f;  // two threads write each element
}

int main() {
  int n = 1024;
  Buffers h;
  cudaMalloc(&h.in, n * sizeof(float));
  cudaMalloc(&h.out, n * sizeof(float));
  cudaMemcpyToSymbol(B, &h, sizeof(h));
  halve<<<n / 256, 256>>>(n);
  cudaDeviceSynchronize();
  return 0;
}
