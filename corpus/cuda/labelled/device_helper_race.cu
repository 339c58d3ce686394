// expect: race shared read-write line 18
// (one finding per pair of accesses on that line: the store with each neighbour's load)
// launch: grid=2 block=128 n=256 passes=2 in=float32:256
// Repeated in-place smoothing of a block's samples in shared memory; the filter step lives in
// a __device__ helper used by several kernels of the project.
// BUG (race in a __device__ helper): smooth_inplace() reads the two neighbours s[i - 1] and
// s[i + 1] and overwrites s[i] in place.  The neighbours are doing the same at the same time,
// so a thread may read a neighbour's old or new value: across warps (at the warp boundaries)
// nothing orders them.  (Inside a warp the loads of one instruction all happen before its
// stores in lockstep; under independent scheduling those pairs are part of the same race.)
// (device_helper_fixed.cu reads into a register and writes after a barrier.)
// Buffers: in and out hold n floats.

#define BLOCK 128

// One Jacobi-like smoothing step of s[1..BLOCK] in place (s[0], s[BLOCK + 1] are the halo).
__device__ void smooth_inplace(float *s, int i) {
  s[i] = 0.25f * s[i - 1] + 0.5f * s[i] + 0.25f * s[i + 1];
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
