// expect: clean
// launch: grid=2 block=128 n=256 in=float32:256
// constrain: block=128
// 2:1 downsampling with a 3-tap smoothing filter: every block halves its 128 samples into
// shared memory and smooths the half-resolution row.
// FIX of gklee_intra_warp_ww.cu: only the even lane of each pair stores, and it stores the
// average of the pair, so every slot of half[] has exactly one writer.
// Buffers: in holds n floats, out n / 2 floats.

#define BLOCK 128

__global__ void downsample2x(const float *in, float *out, int n) {
  __shared__ float half[BLOCK / 2];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;
  const int h = tid / 2;

  if ((tid & 1) == 0) {
    float a = gid < n ? in[gid] : 0.0f;
    float b = gid + 1 < n ? in[gid + 1] : 0.0f;
    half[h] = 0.5f * (a + b);
  }
  __syncthreads();

  if (tid < BLOCK / 2) {
    float l = half[tid > 0 ? tid - 1 : tid];
    float r = half[tid + 1 < BLOCK / 2 ? tid + 1 : tid];
    out[blockIdx.x * (BLOCK / 2) + tid] = 0.25f * l + 0.5f * half[tid] + 0.25f * r;
  }
}
