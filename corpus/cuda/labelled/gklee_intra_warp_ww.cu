// expect: race shared write-write line 20
// launch: grid=2 block=128 n=256 in=float32:256
// constrain: block=128
// 2:1 downsampling with a 3-tap smoothing filter: every block halves its 128 samples into
// shared memory and smooths the half-resolution row.
// BUG (GKLEE: intra-warp write-write by one instruction): `half[tid / 2] = ...` is executed
// by lanes 2k and 2k+1 of the same warp in the same step with different values; which
// one lands is unspecified.  Lockstep execution does not order the two stores of one
// instruction.  (gklee_intra_warp_ww_fixed.cu averages the pair in the even lane.)
// Buffers: in holds n floats, out n / 2 floats.

#define BLOCK 128

__global__ void downsample2x(const float *in, float *out, int n) {
  __shared__ float half[BLOCK / 2];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;
  const int h = tid / 2;

  half[h] = gid < n ? in[gid] : 0.0f;
  __syncthreads();

  if (tid < BLOCK / 2) {
    float l = half[tid > 0 ? tid - 1 : tid];
    float r = half[tid + 1 < BLOCK / 2 ? tid + 1 : tid];
    out[blockIdx.x * (BLOCK / 2) + tid] = 0.25f * l + 0.5f * half[tid] + 0.25f * r;
  }
}
