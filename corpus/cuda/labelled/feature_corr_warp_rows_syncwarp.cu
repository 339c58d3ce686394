// expect: clean
// launch: grid=2 block=32,4 ncand=8 query=float32:64 cand=float32:256
// constrain: block=32,4 len:query=blocks*32 len:cand=ncand*32 ncand=8
// Rotation-tolerant descriptor matching: block b compares query descriptor b (32 floats)
// with 4 candidates at a time, one warp (one threadIdx.y row of 32 lanes) per candidate.
// A lane stages element l of its candidate in s_cand[y][l] and correlates the query with the
// candidate circularly shifted by -1, 0 and +1, keeping the best score.
// The version of feature_corr_warp_rows.cu that synchronises what actually communicates:
// a row of s_cand is private to one warp, so __syncwarp() after the staging (and before the
// next staging) is both sufficient and necessary, under either warp model.
// Buffers: query holds 32 floats per block, cand 32 floats per candidate, score one float
// per (block, candidate).

#define DESC 32
#define FULL_MASK 0xffffffffu

__global__ void match_rows(const float *query, const float *cand, int ncand, float *score) {
  __shared__ float s_cand[4][DESC];
  const int lane = threadIdx.x;  // blockDim.x == DESC == warpSize
  const int row = threadIdx.y;   // one warp per row, blockDim.y == 4
  const float q = query[blockIdx.x * DESC + lane];

  for (int c0 = 0; c0 < ncand; c0 += blockDim.y) {
    const int c = c0 + row;
    // uniform for the block: ncand is a multiple of blockDim.y
    s_cand[row][lane] = cand[c * DESC + lane];
    __syncwarp();
    float best = -1e30f;
    for (int shift = -1; shift <= 1; ++shift) {
      float p = q * s_cand[row][(lane + shift + DESC) % DESC];
      for (int off = 16; off > 0; off >>= 1) p += __shfl_xor_sync(FULL_MASK, p, off);
      best = fmaxf(best, p);
    }
    if (lane == 0) score[blockIdx.x * ncand + c] = best;
    __syncwarp();
  }
}
