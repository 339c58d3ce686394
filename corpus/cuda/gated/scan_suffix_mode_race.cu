// expect: race shared read-write line 28
// launch: grid=2 block=256 n=512 mode=5 in=int32:512 out=int32:512
// Block-wise prefix sums (Hillis-Steele) selected by `mode`: SCAN_INCLUSIVE (0),
// SCAN_EXCLUSIVE (1) and SCAN_SUFFIX (5: sums from the end of the block towards its start).
// Any other mode falls back to the inclusive scan.  The forward scan reads its addend into a
// register, synchronises, then adds: correct for every block size.
// BUG (gated on mode == 5): the suffix scan was added later as its own loop and updates buf in
// place.  In the step with distance `offset`, thread tid reads buf[tid + offset] while thread
// tid + offset adds into that very slot; the barrier only comes after the step, so across
// warps the read sees the old or the new value.  (scan_suffix_mode_fixed.cu splits the step.)
// Buffers: in and out hold n ints.

#define BLOCK 256
#define SCAN_EXCLUSIVE 1
#define SCAN_SUFFIX 5

__global__ void __launch_bounds__(BLOCK) block_scan(const int *in, int *out, int n, int mode) {
  __shared__ int buf[BLOCK];
  const int tid = threadIdx.x;
  const int nt = blockDim.x;
  const int gid = blockIdx.x * nt + tid;

  buf[tid] = gid < n ? in[gid] : 0;
  __syncthreads();
  if (mode == SCAN_SUFFIX) {
    for (int offset = 1; offset < nt; offset *= 2) {
      if (tid + offset < nt)
        buf[tid] += buf[tid + offset];
      __syncthreads();
    }
  } else {
    for (int offset = 1; offset < nt; offset *= 2) {
      const int v = tid >= offset ? buf[tid - offset] : 0;
      __syncthreads();
      buf[tid] += v;
      __syncthreads();
    }
  }
  int r = buf[tid];
  if (mode == SCAN_EXCLUSIVE) r = tid > 0 ? buf[tid - 1] : 0;
  if (gid < n) out[gid] = r;
}
