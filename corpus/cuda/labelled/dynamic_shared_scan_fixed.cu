// expect: clean
// launch: grid=2 block=128 n=256 shared=512 in=int32:256
// Inclusive prefix sum of each block (Hillis-Steele) in dynamically sized shared memory
// (blockDim.x ints, given at launch as the third <<< >>> argument).
// FIX of dynamic_shared_scan_race.cu: every step first reads the addend into a register,
// then all threads meet at a barrier, then each adds into its own slot and meets the others
// again before the next step reads.
// Buffers: in and out hold n ints.

__global__ void block_scan(const int *in, int *out, int n) {
  extern __shared__ int buf[];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * blockDim.x + tid;

  buf[tid] = gid < n ? in[gid] : 0;
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    const int addend = tid >= offset ? buf[tid - offset] : 0;
    __syncthreads();
    buf[tid] += addend;
    __syncthreads();
  }
  if (gid < n) out[gid] = buf[tid];
}
