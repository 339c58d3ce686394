// expect: clean
// launch: grid=4 block=256 n=1000 shared=2048
// Inclusive prefix sum of each block (Hillis-Steele) in dynamic shared memory: the launch
// gives 2 * blockDim.x ints, used as a double buffer so that no step reads a slot another
// thread writes in the same step; one barrier per step.  The total of each block goes to
// block_sums (for a second pass that adds the block offsets).
// Buffers: in and out hold n ints, block_sums holds one int per block.

__global__ void scan_dynamic_shared(const int *in, int *out, int *block_sums, int n) {
  extern __shared__ int buf[];  // 2 * blockDim.x ints
  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;
  int nb = blockDim.x;
  int pout = 0, pin = 1;

  buf[pout * nb + tid] = gid < n ? in[gid] : 0;
  __syncthreads();
  for (int offset = 1; offset < nb; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (tid >= offset)
      buf[pout * nb + tid] = buf[pin * nb + tid] + buf[pin * nb + tid - offset];
    else
      buf[pout * nb + tid] = buf[pin * nb + tid];
    __syncthreads();
  }
  if (gid < n) out[gid] = buf[pout * nb + tid];
  if (tid == nb - 1) block_sums[blockIdx.x] = buf[pout * nb + tid];
}
