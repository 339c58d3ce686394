// expect: clean
// launch: grid=1 block=96 n=96 in=float32:96 out=float32:96
// The fixed version of tile_prior_slot_race.cu: one slot per thread of the block (the array is
// sized for the largest block the host uses), so no two threads share a slot.

#define MAX_BLOCK 128

__global__ void rotate_slots(const float *in, float *out, int n) {
  __shared__ float slot[MAX_BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float v = i < n ? in[i] : 0.0f;
  slot[t] = v;
  __syncthreads();
  if (i < n) out[i] = slot[(t + 1) % blockDim.x];
}
