// expect: race shared read-write lines 27,30
// (the intra-warp pairs of the same two lines belong to the same race finding)
// launch: grid=2 block=128 n=256 threshold=0.0 in=float32:256
// Stream compaction per block: the elements above a threshold are appended to a shared queue
// through a shared atomic counter, the block's count is stored for the host, and the queue is
// copied to the block's segment of out.
// BUG (atomics mixed with a plain read): thread 0 reads the counter s_count with a plain load
// before the barrier, while threads of the other warps may still be incrementing it with
// atomicAdd.  Atomics do not race with each other, but they do race with plain accesses:
// the count written to counts[] can be too small.  (Inside warp 0 the increments come before
// the read in lockstep order; under independent scheduling that is a warp-synchronous race.)
// (atomic_plain_read_fixed.cu reads the counter after the barrier.)
// Buffers: in holds n floats, out n floats, counts one int per block.

#define BLOCK 128

__global__ void compact_block(const float *in, int n, float threshold, float *out, int *counts) {
  __shared__ int s_count;
  __shared__ float s_queue[BLOCK];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;
  if (tid == 0) s_count = 0;
  __syncthreads();

  const float v = gid < n ? in[gid] : 0.0f;
  if (gid < n && v > threshold) {
    const int pos = atomicAdd(&s_count, 1);
    s_queue[pos] = v;
  }
  if (tid == 0) counts[blockIdx.x] = s_count;
  __syncthreads();

  for (int k = tid; k < s_count; k += BLOCK) out[blockIdx.x * BLOCK + k] = s_queue[k];
}
