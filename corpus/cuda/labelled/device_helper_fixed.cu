// expect: clean
// launch: grid=2 block=128 n=256 passes=2 in=float32:256
// Repeated smoothing of a block's samples in shared memory; the filter step lives in a
// __device__ helper used by several kernels of the project.
// FIX of device_helper_race.cu: the helper computes the new value into a register, waits for
// the whole block at a barrier (all neighbours have read their inputs) and only then
// overwrites s[i].  The helper must be called by every thread of the block.
// Buffers: in and out hold n floats.

#define BLOCK 128

// One Jacobi-like smoothing step of s[1..BLOCK] (s[0], s[BLOCK + 1] are the halo).
// Contains a barrier: call it from all threads of the block.
__device__ void smooth_inplace(float *s, int i) {
  const float v = 0.25f * s[i - 1] + 0.5f * s[i] + 0.25f * s[i + 1];
  __syncthreads();
  s[i] = v;
}

__global__ void smooth_block(const float *in, float *out, int n, int passes) {
  __shared__ float s[BLOCK + 2];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;
  s[tid + 1] = gid < n ? in[gid] : 0.0f;
  if (tid == 0) {
    s[0] = 0.0f;
    s[BLOCK + 1] = 0.0f;
  }
  __syncthreads();
  for (int p = 0; p < passes; ++p) {
    smooth_inplace(s, tid + 1);
    __syncthreads();
  }
  if (gid < n) out[gid] = s[tid + 1];
}
