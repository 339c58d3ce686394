// expect: race global write-write line 17
// expect: race global read-write lines 17,20
// launch: grid=2 block=128 n=256 in=float32:256 scratch=float32:128
// Circular shift by one inside each block through a global scratch buffer (the block is too
// large for the shared memory the kernel is allowed, say).
// BUG (race only visible with several blocks): the scratch buffer is indexed by threadIdx.x,
// so it is shared by all blocks.  Within one block the barrier orders the store and the load;
// but blocks are never ordered with each other, so block 1 overwrites the slots block 0 is
// reading (write-write and read-write races on scratch).  A one-block launch shows nothing.
// (scratch_per_block_fixed.cu gives every block its own slice.)
// Buffers: in and out hold n floats, scratch blockDim.x floats.

__global__ void rotate_block(const float *in, float *out, float *scratch, int n) {
  const int tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + tid;

  scratch[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  const int src = tid + 1 < blockDim.x ? tid + 1 : 0;
  if (i < n) out[i] = scratch[src];
}
