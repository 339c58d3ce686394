// expect: clean
// launch: grid=8 block=128 n=1000
// 7-point 1-D stencil (radius 3).  Each block stages its 128 elements plus a halo of 3 on each
// side in shared memory (zero outside [0, n)): the main part, the left halo and the right halo
// are disjoint slots, each written by exactly one thread.  One barrier separates staging from
// the reads of neighbours.  blockDim.x must equal BLOCK_SIZE.
// Buffers: in and out hold n floats.

#define RADIUS 3
#define BLOCK_SIZE 128

__global__ void stencil_1d(const float *in, float *out, int n) {
  __shared__ float temp[BLOCK_SIZE + 2 * RADIUS];
  int gindex = blockIdx.x * blockDim.x + threadIdx.x;
  int lindex = threadIdx.x + RADIUS;

  temp[lindex] = gindex < n ? in[gindex] : 0.0f;
  if (threadIdx.x < RADIUS) {
    int left = gindex - RADIUS;
    int right = gindex + BLOCK_SIZE;
    temp[lindex - RADIUS] = (left >= 0 && left < n) ? in[left] : 0.0f;
    temp[lindex + BLOCK_SIZE] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();

  if (gindex < n) {
    float result = 0.0f;
    for (int offset = -RADIUS; offset <= RADIUS; offset++) result += temp[lindex + offset];
    out[gindex] = result;
  }
}
