// expect: race shared write-write lines 30,32
// expect(independent): warp-race shared write-write lines 30,36
// launch: grid=2 block=256 n=512 flags=64 in=float32:512 out=float32:512
// 9-tap box filter over a shared tile with a halo of R = 4 cells on each side.  By default
// neighbours outside the array are clamped to the end values; FLAG_ZERO_PAD (bit 6 of
// `flags`) makes them count as zeros instead.  Other flag bits are not used here.
// BUG (gated on flags & 64): the zero-padding path first clears the whole tile with a
// block-strided loop and then loads the in-range cells, with no barrier in between.  Slot
// R + tid is cleared by thread R + tid but loaded by thread tid: at warp boundaries (thread 28
// loads tile[32], thread 32 clears it) two warps store 0 and a value to the same slot and
// which one lands is unspecified.  The right halo slot R + blockDim.x + tid is cleared by
// thread R + tid of the same warp: ordered in lockstep, a warp-race under independent
// scheduling.  (box_filter_zero_pad_fixed.cu puts a barrier between the clear and the loads.)
// Buffers: in and out hold n floats.

#define BLOCK 256
#define R 4
#define FLAG_ZERO_PAD 64

__global__ void __launch_bounds__(BLOCK) box_filter(const float *in, float *out, int n, int flags) {
  __shared__ float tile[BLOCK + 2 * R];
  const int tid = threadIdx.x;
  const int nt = blockDim.x;
  const int base = blockIdx.x * nt;
  const int gid = base + tid;
  if (n <= 0) return;

  if (flags & FLAG_ZERO_PAD) {
    for (int i = tid; i < nt + 2 * R; i += nt)
      tile[i] = 0.0f;
    if (gid < n)
      tile[R + tid] = in[gid];
    if (tid < R && base - R + tid >= 0 && base - R + tid < n)
      tile[tid] = in[base - R + tid];
    if (tid < R && base + nt + tid < n)
      tile[R + nt + tid] = in[base + nt + tid];
  } else {
    tile[R + tid] = in[min(gid, n - 1)];
    if (tid < R) {
      tile[tid] = in[min(max(base - R + tid, 0), n - 1)];
      tile[R + nt + tid] = in[min(base + nt + tid, n - 1)];
    }
  }
  __syncthreads();
  float acc = 0.0f;
  for (int j = -R; j <= R; ++j) acc += tile[R + tid + j];
  if (gid < n) out[gid] = acc / (2 * R + 1);
}
