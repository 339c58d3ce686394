// expect: clean
// launch: grid=2 block=64 n=128 keys=int32:128
// One compare-exchange step of odd-even transposition sort on pairs (2k, 2k+1): the even
// lane keeps the smaller key of the pair, the odd lane the larger one.
// FIX of gklee_divergence_race.cu: every lane reads its partner's key before any lane
// writes, with __syncwarp() between the reads and the writes (the pair is always in one
// warp), and the branch only selects min or max in registers.
// Buffers: keys and out hold n ints.

#define BLOCK 64

__global__ void odd_even_step(const int *keys, int *out, int n) {
  __shared__ int s_key[BLOCK];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;
  const int key = gid < n ? keys[gid] : 0x7fffffff;

  s_key[tid] = key;
  __syncwarp();  // the partner tid ^ 1 is always in the same warp

  const int other = s_key[tid ^ 1];
  __syncwarp();
  s_key[tid] = (tid & 1) == 0 ? min(key, other) : max(key, other);
  if (gid < n) out[gid] = s_key[tid];
}
