// expect: clean
// launch: grid=2 block=128 n=250 in=float32:250
// 3-point moving sum with a one-element halo on each side staged in shared memory
// (tile[0] and tile[BLOCK + 1] are the halo cells, zero outside the array).
// FIX of halo_oob_shared.cu: the right halo goes to tile[BLOCK + 1], the last element of the
// tile, so every cell the stencil reads is written and nothing is written past the end.
// Buffers: in and out hold n floats.

#define BLOCK 128

__global__ void moving_sum3(const float *in, float *out, int n) {
  __shared__ float tile[BLOCK + 2];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;

  tile[tid + 1] = gid < n ? in[gid] : 0.0f;
  if (tid == 0) tile[0] = gid > 0 && gid - 1 < n ? in[gid - 1] : 0.0f;
  if (tid == BLOCK - 1) tile[BLOCK + 1] = gid + 1 < n ? in[gid + 1] : 0.0f;
  __syncthreads();

  if (gid < n) out[gid] = tile[tid] + tile[tid + 1] + tile[tid + 2];
}
