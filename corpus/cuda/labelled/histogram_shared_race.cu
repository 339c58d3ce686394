// expect: race shared line 21
// launch: grid=2 block=128 n=1000 pixels=uint8:1000 hist=uint32:64:zeros
// 64-bin histogram of 8-bit grey levels (bin = level / 4).  Each block counts into a private
// shared copy, then adds its bins to the global histogram with atomics.
// BUG (histogram without atomics): `local[bin]++` is a plain load/add/store.  Threads whose
// pixels fall into the same bin update the same counter at the same time: lanes of one warp
// store the same incremented value in one step (lost updates), and threads of different
// warps interleave their load and store (read-write and write-write race).
// (histogram_shared_atomic.cu uses atomicAdd on the shared counters.)
// Buffers: pixels holds n bytes, hist 64 unsigned ints (zeroed by the host).

#define BINS 64

__global__ void histogram64(const unsigned char *pixels, int n, unsigned int *hist) {
  __shared__ unsigned int local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const unsigned int bin = pixels[i] >> 2;
    local[bin]++;
  }
  __syncthreads();

  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b]) atomicAdd(&hist[b], local[b]);
}
