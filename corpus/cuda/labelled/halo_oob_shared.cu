// expect: out-of-bounds shared line 21
// expect: uninitialized shared line 24
// launch: grid=2 block=128 n=256 in=float32:256
// 3-point moving sum with a one-element halo on each side staged in shared memory
// (tile[0] and tile[BLOCK + 1] are the halo cells, zero outside the array).
// BUG (off-by-one halo): the last thread stores the right halo to tile[BLOCK + 2], one past
// the end of the tile (BLOCK + 2 elements), instead of tile[BLOCK + 1].  The store is out of
// bounds, and tile[BLOCK + 1], which the last thread then reads, is never written.
// (halo_fixed.cu stores to tile[BLOCK + 1].)
// Buffers: in and out hold n floats.

#define BLOCK 128

__global__ void moving_sum3(const float *in, float *out, int n) {
  __shared__ float tile[BLOCK + 2];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;

  tile[tid + 1] = gid < n ? in[gid] : 0.0f;
  if (tid == 0) tile[0] = gid > 0 && gid - 1 < n ? in[gid - 1] : 0.0f;
  if (tid == BLOCK - 1) tile[BLOCK + 2] = gid + 1 < n ? in[gid + 1] : 0.0f;
  __syncthreads();

  if (gid < n) out[gid] = tile[tid] + tile[tid + 1] + tile[tid + 2];
}
