// expect: race shared read-write line 21
// launch: grid=2 block=128 n=256 shared=512 in=int32:256
// Inclusive prefix sum of each block (Hillis-Steele) in dynamically sized shared memory
// (blockDim.x ints, given at launch as the third <<< >>> argument).
// BUG (race on extern __shared__ memory): the scan updates buf in place.  In the step with
// distance `offset`, thread tid reads buf[tid - offset] while thread tid - offset adds into
// that very slot in the same step; the barrier only comes after the step.  Across warps the
// read may see the old or the new value.  (Inside one warp lockstep execution does all loads
// before all stores; under independent scheduling those pairs are part of the same race.)
// (dynamic_shared_scan_fixed.cu reads, synchronises, then writes.)
// Buffers: in and out hold n ints.

__global__ void block_scan(const int *in, int *out, int n) {
  extern __shared__ int buf[];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * blockDim.x + tid;

  buf[tid] = gid < n ? in[gid] : 0;
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    if (tid >= offset) buf[tid] += buf[tid - offset];
    __syncthreads();
  }
  if (gid < n) out[gid] = buf[tid];
}
