// expect: race shared write-write line 15
// launch: grid=1 block=96 n=96 in=float32:96 out=float32:96
// Each thread parks its value in one of 32 slots and then reads its neighbour's slot.
// BUG: the slot index wraps at 32, so with more than 32 threads per block (the host launches 96)
// threads t and t + 32 write the same slot. A block read off the shared array (32 threads) would
// hide it: the array's size is only a prior for the search, never a limit.

#define SLOTS 32

__global__ void rotate_slots(const float *in, float *out, int n) {
  __shared__ float slot[SLOTS];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float v = i < n ? in[i] : 0.0f;
  slot[t % SLOTS] = v;
  __syncthreads();
  if (i < n) out[i] = slot[(t + 1) % SLOTS];
}
