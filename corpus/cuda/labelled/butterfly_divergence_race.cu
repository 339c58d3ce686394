// expect: race shared read-write lines 27,30
// launch: grid=2 block=64 n=128 w=0.5 x=float32:128
// One radix-2 butterfly stage on pairs (2k, 2k+1) of real samples with twiddle w:
//   y[2k] = x[2k] + w * x[2k+1],   y[2k+1] = x[2k] - w * x[2k+1].
// The pair is always in one warp; the samples are exchanged through shared memory.
// BUG (GKLEE divergence race): the even lane updates its slot in place (to save a register)
// on the `then` side of a divergent branch, while the odd lane reads that slot on the `else`
// side.  The two sides of a divergent branch run one after the other in an unspecified
// order, so the odd lane may combine the already updated value.  Unlike a plain lockstep
// read-before-write, nothing orders the two sides.
// (butterfly_fixed.cu reads both inputs before anyone writes.)
// Buffers: x and y hold n floats.

#define BLOCK 64

__global__ void butterfly_stage(const float *x, float *y, int n, float w) {
  __shared__ float s[BLOCK];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;
  const float v = gid < n ? x[gid] : 0.0f;

  s[tid] = v;
  __syncwarp();  // the partner tid ^ 1 is in the same warp

  float out;
  if ((tid & 1) == 0) {
    s[tid] = v + w * s[tid + 1];
    out = s[tid];
  } else {
    out = s[tid - 1] - w * v;
  }
  if (gid < n) y[gid] = out;
}
