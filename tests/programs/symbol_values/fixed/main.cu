// Sizes the host copies into __constant__ memory (cudaMemcpyToSymbol): a scalar, and a struct whose count
// follows its buffer pointer. Each thread of the first `rows` threads writes its own element.
struct Table {
  float *cells;
  int rows;
};
__constant__ Table T;
__constant__ int STRIDE;

__global__ void fill(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < T.rows) out[i * STRIDE] = T.cells[i];
}

int main() {
  int rows = 1000;
  float *cells, *out;
  cudaMalloc(&cells, rows * sizeof(float));
  cudaMalloc(&out, 2 * rows * sizeof(float));
  Table t = {cells, rows};
  cudaMemcpyToSymbol(T, &t, sizeof(t));
  int stride = 2;
  cudaMemcpyToSymbol(STRIDE, &stride, sizeof(int));
  fill<<<4, 256>>>(out);
  cudaDeviceSynchronize();
  return 0;
}
