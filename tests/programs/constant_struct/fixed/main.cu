// The host keeps its device buffers in a __constant__ struct (cudaMemcpyToSymbol); the kernel reaches them
// through it. Each thread writes its own element.
struct Buffers {
  float *in;
  float *out;
};
__constant__ Buffers B;

__global__ void halve(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) B.out[i] = B.in[i] * 0.5f;
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
