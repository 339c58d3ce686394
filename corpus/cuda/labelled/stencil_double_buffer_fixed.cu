// expect: clean
// launch: grid=2 block=128 n=256 iters=4 in=float32:256
// Block-local smoothing: `iters` Jacobi sweeps of the 3-point filter (1/4, 1/2, 1/4) over each
// block's 128 samples held in shared memory, with a fixed zero boundary.  Two buffers are used
// in turn (read buf[cur], write buf[nxt]).
// FIX of stencil_double_buffer_race.cu: one __syncthreads() per sweep.  With two buffers
// one barrier is enough: it publishes this sweep's values before the next sweep reads them,
// and the sweep after that (which overwrites buf[cur]) starts after all reads of it.
// Buffers: in and out hold n floats.

#define BLOCK 128

__global__ void smooth_shared(const float *in, float *out, int n, int iters) {
  __shared__ float buf[2][BLOCK + 2];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;

  buf[0][tid + 1] = gid < n ? in[gid] : 0.0f;
  if (tid == 0) {
    buf[0][0] = 0.0f;
    buf[1][0] = 0.0f;
  }
  if (tid == BLOCK - 1) {
    buf[0][BLOCK + 1] = 0.0f;
    buf[1][BLOCK + 1] = 0.0f;
  }
  __syncthreads();

  int cur = 0;
  for (int it = 0; it < iters; ++it) {
    const int nxt = 1 - cur;
    const float l = buf[cur][tid], c = buf[cur][tid + 1], r = buf[cur][tid + 2];
    buf[nxt][tid + 1] = 0.25f * l + 0.5f * c + 0.25f * r;
    cur = nxt;
    __syncthreads();
  }
  if (gid < n) out[gid] = buf[cur][tid + 1];
}
