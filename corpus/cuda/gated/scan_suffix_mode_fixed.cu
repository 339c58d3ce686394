// expect: clean
// launch: grid=2 block=256 n=512 mode=5 in=int32:512 out=int32:512
// Block-wise prefix sums (Hillis-Steele) selected by `mode`: SCAN_INCLUSIVE (0),
// SCAN_EXCLUSIVE (1) and SCAN_SUFFIX (5: sums from the end of the block towards its start).
// Any other mode falls back to the inclusive scan.
// FIX of scan_suffix_mode_race.cu: the suffix scan now does what the forward scan does: read
// the addend buf[tid + offset] into a register, barrier, add into its own slot, barrier.  No
// slot is read and written in the same step, whatever the mode.
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
      const int v = tid + offset < nt ? buf[tid + offset] : 0;
      __syncthreads();
      buf[tid] += v;
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
