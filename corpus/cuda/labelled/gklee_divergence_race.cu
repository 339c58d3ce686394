// expect(O0): race shared read-write lines 29,33
// expect(O0): race shared read-write lines 30,32
// launch: grid=2 block=64 n=128 keys=int32:128
// One compare-exchange step of odd-even transposition sort on pairs (2k, 2k+1): the even
// lane keeps the smaller key of the pair, the odd lane the larger one.
// BUG (GKLEE: divergence race): the two lanes of a pair are in one warp, but they run on the
// two sides of a divergent if/else.  The hardware serialises the sides in an unspecified
// order, so the odd lane may read s_key[tid - 1] before or after the even lane has replaced
// it (and the even lane may read the odd lane's old or new key): both pairs of accesses
// race.  The writer assumed the lanes of a warp execute both sides together.
// At -O1 clang sinks the two stores into one store after the if/else, which leaves only
// reads on the divergent sides: the as-compiled code no longer races under the lockstep
// model, hence the O0-only labels.  (gklee_divergence_race_fixed.cu reads both keys
// before writing.)
// Buffers: keys and out hold n ints.

#define BLOCK 64

__global__ void odd_even_step(const int *keys, int *out, int n) {
  __shared__ int s_key[BLOCK];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;
  const int key = gid < n ? keys[gid] : 0x7fffffff;

  s_key[tid] = key;
  __syncwarp();  // the partner tid ^ 1 is always in the same warp

  if ((tid & 1) == 0) {
    int right = s_key[tid + 1];
    s_key[tid] = min(key, right);
  } else {
    int left = s_key[tid - 1];
    s_key[tid] = max(key, left);
  }
  if (gid < n) out[gid] = s_key[tid];
}
