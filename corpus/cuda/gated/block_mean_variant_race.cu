// expect: race global write-write line 34
// launch: grid=3 block=256 n=700 variant=7 in=float32:700 out=float32:3
// Block sums of an array, with the output written in one of several variants:
// VARIANT_PARTIAL (0, and any unknown value): out[blockIdx.x] = the block's sum;
// VARIANT_ATOMIC (1): every block adds its sum into out[0] with atomicAdd;
// VARIANT_MEAN (7): out[0] = the mean of the n values.
// BUG (gated on variant == 7, global inter-block race): the mean variant was written and
// tested with a one-block launch.  With several blocks, thread 0 of every block stores its
// own block's sum / n into out[0] with a plain store; blocks are never ordered, so the stores
// race (write-write) and out[0] ends up holding one block's share of the mean.
// Buffers: in holds n floats, out one float per block.

#define BLOCK 256
#define VARIANT_ATOMIC 1
#define VARIANT_MEAN 7

__global__ void __launch_bounds__(BLOCK) block_sum(const float *in, float *out, int n, int variant) {
  __shared__ float part[BLOCK];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * blockDim.x + tid;

  part[tid] = gid < n ? in[gid] : 0.0f;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s && tid + s < blockDim.x) part[tid] += part[tid + s];
    __syncthreads();
  }
  if (tid != 0) return;
  switch (variant) {
  case VARIANT_ATOMIC:
    atomicAdd(&out[0], part[0]);
    break;
  case VARIANT_MEAN:
    out[0] = n > 0 ? part[0] / n : 0.0f;
    break;
  default:
    out[blockIdx.x] = part[0];
    break;
  }
}
