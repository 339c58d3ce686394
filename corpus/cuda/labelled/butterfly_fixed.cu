// expect: clean
// launch: grid=2 block=64 n=128 w=0.5 x=float32:128
// One radix-2 butterfly stage on pairs (2k, 2k+1) of real samples with twiddle w:
//   y[2k] = x[2k] + w * x[2k+1],   y[2k+1] = x[2k] - w * x[2k+1].
// The pair is always in one warp; the samples are exchanged through shared memory.
// FIX of butterfly_divergence_race.cu: after the __syncwarp() both lanes of a pair only read
// the two published inputs; nobody writes shared memory again, so the order of the sides of
// the branch no longer matters.
// Buffers: x and y hold n floats.

#define BLOCK 64

__global__ void butterfly_stage(const float *x, float *y, int n, float w) {
  __shared__ float s[BLOCK];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;
  const float v = gid < n ? x[gid] : 0.0f;

  s[tid] = v;
  __syncwarp();  // the partner tid ^ 1 is in the same warp

  const float a = s[tid & ~1], b = s[tid | 1];
  const float out = (tid & 1) == 0 ? a + w * b : a - w * b;
  if (gid < n) y[gid] = out;
}
